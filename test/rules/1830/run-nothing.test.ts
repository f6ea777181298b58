// The history of a corporation that runs nothing says that its price drops (withheld revenue of
// nothing still moves the price), so the next "rises to ..." reads right.
import { describe, expect, it } from 'vitest';
import { game1830 as g, sharePrice } from '../../../rules/1830/index.ts';
import { through } from './positions.ts';

describe('1830 history: a run of nothing', () => {
  it('names the price drop when a corporation runs no trains', () => {
    const s = through('29133', 95);
    expect(s.round.kind === 'operating' && s.round.current).toBe('B&O');
    const seat = s.corps['B&O']!.president!;
    const was = sharePrice(s.corps['B&O']!);
    const line = g.describe({ type: 'runRoutes', routes: [] }, s, seat);
    const after = structuredClone(s);
    g.apply(after, seat, { type: 'runRoutes', routes: [] });
    const now = sharePrice(after.corps['B&O']!);
    expect(now).toBeLessThan(was);
    expect(line).toBe(`runs no trains for B&O (B&O falls to $${now})`);
  });
});
