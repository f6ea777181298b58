// The state hash's canonical text is written out by hand (server/state-hash.ts) for speed. Every
// stored game's chain and the corpus of recorded games depend on the exact text, so it must be
// what JSON.stringify with a key-sorting replacer made, character for character: the reference
// below is that replacer, as the server had it.
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { canonicalState, hashState, stateHashOf } from '../../server/state-hash.ts';
import { loadCorpus } from '../corpus/corpus.ts';

function reference(state: unknown): string {
  const sorted = (_key: string, value: unknown): unknown => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    let inOrder = true;
    for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1]! < keys[i]!;
    if (inOrder) return value;
    keys.sort();
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = obj[k];
    return out;
  };
  return JSON.stringify(state, sorted) ?? 'null';
}

describe('canonicalState', () => {
  it('writes what the sorting replacer wrote, for awkward values', () => {
    const odd: unknown[] = [
      null,
      undefined,
      0,
      -0,
      1.5e300,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      '',
      'plain words',
      'quote " backslash \\ newline \n tab \t nul \u0000 del \u007f',
      'pair \ud83d\ude82 lone \ud800 end \udfff',
      'é ü ß ∑ 東京',
      [],
      {},
      [undefined, () => 1, Symbol('s'), null, [[]], {}],
      { b: 1, a: 2, c: { z: [3, { y: 1, x: 2 }], a: undefined, f: () => 1, s: Symbol('s') } },
      // Integer-like keys come first in numeric order, then the rest sorted.
      { b: 1, 10: 'ten', 2: 'two', a: 0, '01': 'not an index', 4294967295: 'not an index', 4294967294: 'index' },
      { 2: 'two', 10: 'ten' },
      { z: 1, 5: 5, y: { 3: 3, 1: 1, b: 2, a: 1 } },
      Object.assign(Object.create(null), { b: 1, a: 2 }),
      // An own __proto__ key: kept where the keys were in order, lost in the replacer's sorted copy.
      JSON.parse('{"__proto__": {"b": 1, "a": 2}, "x": 1}'),
      JSON.parse('{"x": 1, "__proto__": {"b": 1, "a": 2}}'),
      { Z: 1, a: 2, _: 3, ' ': 4, é: 5, '\ud83d\ude82': 6 },
      // Not plain JSON: JSON.stringify's own rules apply.
      { when: new Date(0), b: 1, a: 2 },
      { b: { toJSON: () => ({ y: 1, x: 2 }) }, a: 1 },
      { list: new Map([[1, 2]]), set: new Set([1]) },
      { n: Object(5), s: Object('x'), b: Object(false) },
    ];
    for (const v of odd) expect(canonicalState(v), String(JSON.stringify(v))).toBe(reference(v));
    expect(() => canonicalState({ a: 1n })).toThrow(TypeError);
  });

  it('writes what the sorting replacer wrote, for the states of recorded games', () => {
    let checked = 0;
    for (const { game } of loadCorpus()) {
      const rules = games.find((r) => r.id === game.rules);
      if (!rules || game.version < (rules.oldestVersion ?? 1) || game.version > rules.version) continue;
      const state = rules.setup(game.seats, game.seed, game.options, game.version);
      expect(canonicalState(state)).toBe(reference(state));
      // Every 25th position of each game, and its last.
      game.actions.forEach(([seat, action], i) => {
        rules.apply(state, seat, structuredClone(action));
        if (i % 25 === 0 || i === game.actions.length - 1) {
          expect(canonicalState(state)).toBe(reference(state));
          checked++;
        }
      });
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('hashes a state with its seed, leaving out a top-level version', () => {
    const state = { version: 3, b: [1, 2], a: { d: 1, c: 2 } };
    const { json, hash } = hashState('seed', state);
    expect(json).toBe('{"a":{"c":2,"d":1},"b":[1,2]}');
    expect(hash).toBe(stateHashOf('seed', json));
    expect(hash).toBe(hashState('seed', { a: { c: 2, d: 1 }, b: [1, 2] }).hash);
  });
});
