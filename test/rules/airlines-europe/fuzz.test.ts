// Mangled moves at random points of random games: each is either legal (and the
// invariants hold after it) or refused with a RuleError, the state untouched.
import { describe, expect, it } from 'vitest';
import { RuleError } from '../../../rules/types.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import { randomPlayout } from '../../support/playout.ts';
import { rules } from './helpers.ts';

const words = [
  'red',
  'blue',
  'yellow',
  'abacus',
  'orange',
  'constructor',
  '__proto__',
  'athens-sofia',
  'frankfurt-zurich',
  'london-frankfurt',
  'deck',
  'market',
  'hand',
  'portfolio',
];

function mangle(r: ReturnType<typeof seedRandom>, action: any): any {
  const a = structuredClone(action);
  const pick = <T>(xs: T[]) => xs[randomInt(r, xs.length)]!;
  const walk = (o: any, depth: number) => {
    for (const k of Object.keys(o)) {
      if (typeof o[k] === 'object' && o[k] !== null && depth < 3 && randomInt(r, 2) === 0) walk(o[k], depth + 1);
      else if (randomInt(r, 4) === 0) o[k] = typeof o[k] === 'number' ? pick([0, -1, 2, 3, 5, 99, 1.5]) : pick(words);
    }
  };
  walk(a, 0);
  if (randomInt(r, 6) === 0 && Array.isArray(a.licences)) a.licences.push({ airline: pick(words), route: pick(words) });
  if (randomInt(r, 6) === 0 && Array.isArray(a.give))
    a.give.push({ airline: pick(words), from: pick(['hand', 'portfolio']) });
  if (randomInt(r, 8) === 0) a.type = pick(['buy', 'play', 'trade', 'money', 'take', 'open']);
  return a;
}

describe('Airlines Europe under mangled moves', () => {
  it('refuses or takes every mangled move cleanly', () => {
    const r = seedRandom('fuzz');
    let taken = 0;
    let refused = 0;
    for (const seats of [2, 3, 4, 5]) {
      const { actions } = randomPlayout(rules, seats, `fuzz-${seats}`);
      const s = rules.setup(seats, `fuzz-${seats}`, {});
      for (const { seat, action } of actions) {
        for (let k = 0; k < 6; k++) {
          const who = randomInt(r, 3) === 0 ? randomInt(r, seats) : rules.toAct(s)[0]!;
          const copy = structuredClone(s);
          const before = JSON.stringify(copy);
          const bad = mangle(r, action);
          try {
            rules.apply(copy, who, bad);
            taken++;
            expect(rules.check!(copy), JSON.stringify(bad)).toEqual([]);
          } catch (err) {
            expect(err, JSON.stringify(bad)).toBeInstanceOf(RuleError);
            expect(JSON.stringify(copy)).toBe(before);
            refused++;
          }
        }
        rules.apply(s, seat, structuredClone(action));
      }
    }
    expect(taken).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(500);
  });
});
