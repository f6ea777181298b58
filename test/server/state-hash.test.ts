// The state hash is recorded on every entry, snapshot and corpus game, so its canonical text
// must stay what it was defined as: JSON.stringify with every plain object's keys sorted
// (sortedKeys), the top-level `version` left out. canonicalState writes that text directly
// (faster); these tests hold it to the definition over every state of the corpus, and over
// the odd values JSON has.
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { cloneState } from '../../rules/clone.ts';
import { canonicalState, hashState, sortedKeys, stateHashOf } from '../../server/state-hash.ts';
import { loadCorpus } from '../corpus/corpus.ts';

/** The definition, as it was written before canonicalState wrote the text itself. */
function definition(state: unknown): string {
  return JSON.stringify(state, sortedKeys) ?? 'null';
}
function definitionWithoutVersion(state: unknown): string {
  if (state === null || typeof state !== 'object' || Array.isArray(state) || !('version' in state))
    return definition(state);
  const { version: _version, ...rest } = state as Record<string, unknown>;
  return definition(rest);
}

describe('the canonical text of a state', () => {
  it('is the definition for every state of every recorded game, and so is a copy of it', () => {
    let states = 0;
    for (const { file, game } of loadCorpus()) {
      const rules = games.find((r) => r.id === game.rules)!;
      if (game.version < (rules.oldestVersion ?? 1) || game.version > rules.version) continue;
      const state = rules.setup(game.seats, game.seed, game.options, game.version);
      const check = (at: string) => {
        const text = canonicalState(state);
        if (text !== definition(state)) expect.fail(`${file} ${at}: canonicalState differs from the definition`);
        const { json, hash } = hashState(game.seed, state);
        if (json !== definitionWithoutVersion(state) || hash !== stateHashOf(game.seed, json))
          expect.fail(`${file} ${at}: hashState differs from the definition`);
        // The copy the server plays a move on lists its keys as the original does.
        if (JSON.stringify(cloneState(state)) !== JSON.stringify(state))
          expect.fail(`${file} ${at}: the copy differs from the state`);
        states++;
      };
      check('after set-up');
      for (let i = 0; i < game.actions.length; i++) {
        const [seat, action] = game.actions[i]!;
        rules.apply(state, seat, structuredClone(action));
        check(`after action ${i + 1}`);
      }
    }
    expect(states).toBeGreaterThan(1000);
  });

  it('is the definition for the odd values JSON has', () => {
    const odd: unknown[] = [
      { b: 1, 10: 2, 2: 3, a: 4, '01': 5, '-1': 6, '4294967294': 7, '4294967295': 8, '1.5': 9 },
      { z: { y: [3, { d: 1, c: [] }], x: {} }, é: 1, E: 2, e: 3, '': 4, ' ': 5 },
      { s: 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800 pair \ud83d\ude00 ü', k: 'x' },
      { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t'), null], e: null },
      { n: [0, -0, 1.5, -2e-7, 1e21, 123456789012345680000, Number.NaN, Infinity, -Infinity, 0.1 + 0.2] },
      { t: true, f: false, nested: [[[]], [{}], [[{ b: 1, a: 2 }]]] },
      JSON.parse('{"__proto__": {"x": 1}, "a": 1}'),
      JSON.parse('{"b": 1, "__proto__": {"x": 1}, "a": 1}'),
      { when: new Date(0), boxed: Object(5), plain: Object.assign(Object.create(null), { b: 1, a: 2 }) },
      { custom: { toJSON: () => ({ b: 2, a: 1 }) }, later: 1 },
      new Array(3).fill(1, 0, 1).fill(3, 2), // [1, <hole>, 3]
      { version: 3, b: 1, a: 2 },
      { a: 2, version: 3, b: 1 },
      { a: 1, version: 3 },
      [{ version: 1, b: 1, a: 2 }],
      'text',
      42,
      null,
      undefined,
      [],
      {},
    ];
    for (const v of odd) {
      expect(canonicalState(v), String(definition(v))).toBe(definition(v));
      expect(hashState('seed', v).json).toBe(definitionWithoutVersion(v));
      if (v !== undefined) expect(JSON.stringify(cloneState(v))).toBe(JSON.stringify(v));
    }
  });
});

describe('the copy of a state', () => {
  it('is a deep copy: changing it leaves the original as it was', () => {
    const original = { a: [1, { b: 2 }], c: { d: { e: 'f' } }, 10: 'ten', 2: 'two' };
    const copy = cloneState(original);
    expect(Object.keys(copy)).toEqual(Object.keys(original));
    copy.a.push(3);
    (copy.a[1] as { b: number }).b = 9;
    copy.c.d.e = 'g';
    expect(original).toEqual({ a: [1, { b: 2 }], c: { d: { e: 'f' } }, 10: 'ten', 2: 'two' });
  });

  it('keeps an own "__proto__" key as a key, and copies what is not plain data as structuredClone does', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as Record<string, unknown>;
    const copy = cloneState(parsed);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    const when = new Date(5);
    const other = cloneState({ when, seen: new Set([1]) });
    expect(other.when).toBeInstanceOf(Date);
    expect(other.when).not.toBe(when);
    expect(other.when.getTime()).toBe(5);
    expect([...other.seen]).toEqual([1]);
    const holey = cloneState({ a: new Array(3).fill(1, 0, 1) as unknown[] });
    expect(holey.a.length).toBe(3);
    expect(1 in holey.a).toBe(false);
  });
});
