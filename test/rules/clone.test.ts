// The server plays every move on a copy of the state made by cloneState (rules/clone.ts), and
// 1830, Stephenson's Rocket and Airlines Europe describe moves by playing them on one. The copy
// must be the state exactly: the same values and every object's keys in the same order (some
// engines walk objects by key, and the live game must reach what a replay of its log reaches).
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { cloneState } from '../../rules/clone.ts';
import { loadCorpus } from '../corpus/corpus.ts';

describe('the copy of a state', () => {
  it('is the state, keys in the same order, for every state of every recorded game', () => {
    let states = 0;
    for (const { file, game } of loadCorpus()) {
      const rules = games.find((r) => r.id === game.rules)!;
      if (game.version < (rules.oldestVersion ?? 1) || game.version > rules.version) continue;
      const state = rules.setup(game.seats, game.seed, game.options, game.version);
      const check = (at: string) => {
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

  it('copies the odd values JSON has as JSON reads them', () => {
    const odd: unknown[] = [
      { b: 1, 10: 2, 2: 3, a: 4, '01': 5, '-1': 6, '4294967294': 7, '4294967295': 8, '1.5': 9 },
      { z: { y: [3, { d: 1, c: [] }], x: {} }, é: 1, E: 2, e: 3, '': 4, ' ': 5 },
      { s: 'quote " backslash \\ newline \n nul \u0000 lone \ud800 pair \ud83d\ude00', k: 'x' },
      { a: undefined, b: () => 1, d: [undefined, () => 1, null], e: null },
      { n: [0, -0, 1.5, -2e-7, 1e21, Number.NaN, Infinity, -Infinity] },
      { t: true, f: false, nested: [[[]], [{}], [[{ b: 1, a: 2 }]]] },
      { when: new Date(0), boxed: Object(5), plain: Object.assign(Object.create(null), { b: 1, a: 2 }) },
      'text',
      42,
      null,
      [],
      {},
    ];
    for (const v of odd) expect(JSON.stringify(cloneState(v))).toBe(JSON.stringify(v));
  });

  it('is a deep copy: changing it leaves the original as it was', () => {
    const original = { a: [1, { b: 2 }], c: { d: { e: 'f' } }, 10: 'ten', 2: 'two' };
    const copy = cloneState(original);
    expect(Object.keys(copy)).toEqual(Object.keys(original));
    copy.a.push(3);
    (copy.a[1] as { b: number }).b = 9;
    copy.c.d.e = 'g';
    expect(original).toEqual({ a: [1, { b: 2 }], c: { d: { e: 'f' } }, 10: 'ten', 2: 'two' });
  });

  it('keeps an own "__proto__" key as a key, holes as holes, and copies what is not plain data as structuredClone does', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as Record<string, unknown>;
    const copy = cloneState(parsed);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    const holey = cloneState({ a: new Array(3).fill(1, 0, 1) as unknown[] });
    expect(holey.a.length).toBe(3);
    expect(1 in holey.a).toBe(false);
    const when = new Date(5);
    const other = cloneState({ when, seen: new Set([1]) });
    expect(other.when).toBeInstanceOf(Date);
    expect(other.when).not.toBe(when);
    expect(other.when.getTime()).toBe(5);
    expect([...other.seen]).toEqual([1]);
  });
});
