// The fast shape check in front of the zod schema accepts exactly what the schema accepts.
import { describe, expect, it } from 'vitest';
import { actionSchema, quickShape } from '../../../rules/airlines-europe/actions.ts';
import { randomPlayout } from '../../support/playout.ts';
import { rules } from './helpers.ts';

function variants(action: any): unknown[] {
  const out: unknown[] = [action];
  const json = JSON.stringify(action);
  for (const key of Object.keys(action)) {
    const drop = JSON.parse(json);
    delete drop[key];
    out.push(drop);
    out.push({ ...JSON.parse(json), [key]: 7 });
    out.push({ ...JSON.parse(json), [key]: null });
    out.push({ ...JSON.parse(json), [key]: [] });
    out.push({ ...JSON.parse(json), [key]: {} });
  }
  out.push({ ...JSON.parse(json), extra: 1 });
  out.push([JSON.parse(json)]);
  out.push(Object.create({ ...JSON.parse(json) }));
  for (const arrayKey of ['licences', 'shares', 'give', 'airlines']) {
    if (!Array.isArray(action[arrayKey])) continue;
    const copy = JSON.parse(json);
    copy[arrayKey] = [
      ...copy[arrayKey],
      ...copy[arrayKey],
      ...copy[arrayKey],
      ...copy[arrayKey],
      ...copy[arrayKey],
      ...copy[arrayKey],
    ];
    out.push(copy);
    const holes = JSON.parse(json);
    holes[arrayKey] = new Array(holes[arrayKey].length);
    out.push(holes);
    const inner = JSON.parse(json);
    inner[arrayKey] = inner[arrayKey].map((x: any) => (typeof x === 'object' ? { ...x, extra: true } : 5));
    out.push(inner);
    const blank = JSON.parse(json);
    blank[arrayKey] = blank[arrayKey].map((x: any) =>
      typeof x === 'object' ? Object.fromEntries(Object.keys(x).map((k) => [k, ''])) : '',
    );
    out.push(blank);
  }
  return out;
}

describe('Airlines Europe action shapes', () => {
  it('the fast check never accepts what the schema refuses', () => {
    const seen: unknown[] = [
      null,
      42,
      'pass',
      [],
      {},
      { type: 'no-such-move' },
      { type: 7 },
      { __proto__: { type: 'money' } },
      { type: 'take', take: { from: 'deck', x: 1 } },
      { type: 'play', shares: [{ airline: 'red', count: 1.5 }] },
      { type: 'trade', get: -1, give: [{ airline: 'red', from: 'hand' }] },
    ];
    for (const seats of [2, 5]) {
      const { actions } = randomPlayout(rules, seats, `shape-${seats}`);
      for (const { action } of actions.slice(0, 120)) seen.push(...variants(action));
    }
    let accepted = 0;
    for (const a of seen) {
      const fast = quickShape(a);
      const slow = actionSchema.safeParse(a).success;
      if (fast) {
        accepted++;
        expect(slow, JSON.stringify(a)).toBe(true);
      }
      if (slow && a && typeof a === 'object' && Object.getPrototypeOf(a) === Object.prototype)
        expect(fast, JSON.stringify(a)).toBe(true);
    }
    expect(accepted).toBeGreaterThan(200);
  });
});
