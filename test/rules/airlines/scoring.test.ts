// Scorings: an airline is worth its markers on the board; the majority holder
// of laid-out stock gets that, the next half; a sole holder gets both; two
// tied leaders share the total; tied seconds share the second. A scoring card
// drawn (from the pile or while refilling the open row) scores at once and is
// replaced; the game ends with a last scoring when the last stock card is taken.
import { describe, expect, it } from 'vitest';
import { shareOut } from '../../../rules/airlines/scoring.ts';
import {
  airlines,
  checked,
  co,
  found,
  giveRoute,
  giveStock,
  handSet,
  layStock,
  mark,
  onlyInPile,
  stackPile,
  topRoute,
} from './hand-set.ts';

describe("airlines: sharing out an airline's value", () => {
  it('majority holder gets the value, the next holder half', () => {
    expect(shareOut(6, [3, 1, 0])).toEqual([6, 3, 0]);
  });
  it('halves are rounded down', () => {
    expect(shareOut(5, [0, 2, 4])).toEqual([0, 2, 5]);
  });
  it('a sole holder gets both amounts', () => {
    expect(shareOut(6, [0, 2, 0])).toEqual([0, 9, 0]);
    expect(shareOut(5, [0, 0, 1])).toEqual([0, 0, 7]);
  });
  it('two tied leaders share the total (value plus half) and nobody is second', () => {
    expect(shareOut(6, [2, 2, 1])).toEqual([4, 4, 0]);
    expect(shareOut(5, [3, 1, 3])).toEqual([3, 0, 3]); // (5 + 2) / 2 rounded down
  });
  it('three tied leaders share the total too', () => {
    expect(shareOut(8, [2, 2, 2, 1])).toEqual([4, 4, 4, 0]);
  });
  it('tied seconds share the second amount', () => {
    expect(shareOut(8, [4, 2, 2, 1])).toEqual([8, 2, 2, 0]);
    expect(shareOut(6, [1, 1, 1, 5])).toEqual([1, 1, 1, 6]);
  });
  it('nobody scores an airline nobody holds, or one without markers', () => {
    expect(shareOut(7, [0, 0, 0])).toEqual([0, 0, 0]);
    expect(shareOut(0, [2, 1, 0])).toEqual([0, 0, 0]);
  });
});

/** LSA: home plus two markers plus one sabotage marker of its own: worth 3. Seat 0 holds 3, seat 1 holds 1. */
function ready() {
  const s = handSet(3);
  found(s, 'LSA');
  mark(s, 'DEN-DFW/1', 'LSA');
  mark(s, 'DFW-IAH/1', 'LSA');
  mark(s, 'IAH-MEX/3', 'LSA', true);
  layStock(s, 0, 'LSA', 3);
  layStock(s, 1, 'LSA', 1);
  giveStock(s, 0, 'LSA', 2); // stock in hand does not count
  found(s, 'GLA');
  mark(s, 'MSP-ORD/1', 'GLA');
  const card = giveRoute(s, 0, 'dotted', 3);
  topRoute(s, 'dotted', 8);
  return { s, card };
}

describe('airlines: scorings in play', () => {
  it('a scoring card drawn from the pile scores every airline at once (home counts, sabotage does not) and is replaced', () => {
    const { s, card } = ready();
    stackPile(s, ['SCORING', 'EMP']);
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card, circle: 'DEN-MSP/1', draw: 'pile' });
    expect(s.scorings).toHaveLength(1);
    expect(s.scorings[0]!.awards).toEqual([{ company: co('LSA'), value: 3, points: [3, 1, 0] }]); // GLA: nobody holds it
    expect(s.points).toEqual([0 + 3, 1 + 1, 2]);
    expect(s.stock[0]![co('EMP')]).toBe(1); // the replacement card
    expect(airlines.view(s, 2).scoringCardsLeft).toBe(2);
    checked(s);
  });

  it('a scoring card that turns up while refilling the open row scores too', () => {
    const { s, card } = ready();
    stackPile(s, ['SCORING', 'PTA']);
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card, circle: 'DEN-MSP/1', draw: 'PNA' });
    expect(s.scorings).toHaveLength(1);
    expect(s.open).toHaveLength(5);
    expect(s.open[4]).toBe(co('PTA'));
    checked(s);
  });

  it('the game ends with a last scoring when the last stock card of the pile is taken, five open cards still out; most points wins', () => {
    const { s, card } = ready();
    onlyInPile(s, ['SCORING', 'SCORING', 'SCORING', 'EMP']);
    s.pile = [s.pile[3]!]; // the scoring cards already scored: record them
    s.scorings = [1, 2, 3].map((n) => ({ n, final: false, awards: [], totals: [0, 0, 0] }));
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card, circle: 'DEN-MSP/1', draw: 'pile' });
    expect(s.open).toHaveLength(5); // the open row is not waited for
    expect(s.over).toBe(true);
    expect(airlines.toAct(s)).toEqual([]);
    expect(s.scorings[3]!.final).toBe(true);
    expect(s.points).toEqual([3, 2, 2]);
    expect(airlines.outcome(s)).toEqual({
      scores: [3, 2, 2],
      ranks: [1, 2, 2],
      reason: expect.stringMatching(/last stock card/),
    });
    expect(airlines.moves(s, 0)).toEqual([]);
    expect(() => airlines.apply(s, 1, { type: 'drawRoute' })).toThrow(/game is over/);
    checked(s);
  });

  it('a scoring card as the very last card of the pile scores, and the final scoring follows', () => {
    const { s, card } = ready();
    onlyInPile(s, ['SCORING', 'SCORING', 'SCORING']);
    s.pile = [s.pile[0]!];
    s.scorings = [1, 2].map((n) => ({ n, final: false, awards: [], totals: [0, 0, 0] }));
    const hand = [...s.stock[0]!];
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card, circle: 'DEN-MSP/1', draw: 'pile' });
    expect(s.stock[0]).toEqual(hand); // nothing left to replace the scoring card with
    expect(s.scorings.map((r) => r.final)).toEqual([false, false, false, true]);
    expect(s.points).toEqual([6, 3, 2]);
    expect(s.over).toBe(true);
    checked(s);
  });

  it('the last pile card taken while refilling the open row ends the game too', () => {
    const { s, card } = ready();
    onlyInPile(s, ['SCORING', 'SCORING', 'SCORING', 'EMP']);
    s.pile = [s.pile[3]!];
    s.scorings = [1, 2, 3].map((n) => ({ n, final: false, awards: [], totals: [0, 0, 0] }));
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card, circle: 'DEN-MSP/1', draw: 'PNA' });
    expect(s.stock[0]![co('PNA')]).toBe(1);
    expect(s.open.at(-1)).toBe(co('EMP'));
    expect(s.over).toBe(true);
    expect(s.scorings.at(-1)!.final).toBe(true);
    checked(s);
  });

  it('a tie at the end shares the rank', () => {
    const s = handSet(2);
    s.over = true;
    s.points = [10, 10];
    expect(airlines.outcome(s)!.ranks).toEqual([1, 1]);
  });
});

describe('airlines: every sharing case in one scoring in play', () => {
  it('scores majority and second, tied leaders, tied seconds, three tied leaders and a sole holder; an airline nobody holds scores nothing', () => {
    const s = handSet(4);
    const airline = (code: string, circles: string[], held: number[]) => {
      found(s, code);
      for (const label of circles) mark(s, label, code);
      held.forEach((n, seat) => {
        layStock(s, seat, code, n);
      });
    };
    airline('RMA', ['DEN-ABQ/1'], [0, 0, 4, 1]); // worth 2: majority 2, second 1
    airline('GLA', ['ORD-DTW/1', 'ORD-STL/1', 'MSP-ORD/1'], [2, 2, 1, 0]); // worth 4: two leaders share 4 + 2
    airline('PTA', ['MSY-ATL/1', 'BNA-ATL/1'], [0, 0, 0, 2]); // worth 3: the sole holder gets 3 + 1
    airline('EMP', ['IAD-JFK/1', 'JFK-YYZ/1', 'JFK-BOS/1', 'MIA-JFK/1'], [3, 1, 1, 0]); // worth 5: seconds share 2
    airline('MPL', ['YYZ-YUL/1', 'YUL-BOS/1'], [1, 1, 1, 0]); // worth 3: three leaders share 3 + 1
    airline('SWX', [], [0, 0, 0, 0]); // nobody holds it
    const card = giveRoute(s, 0, 'dotted', 3);
    topRoute(s, 'dotted', 8);
    stackPile(s, ['SCORING', 'PNA']);
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'SWX', card, circle: 'SFO-LAX/1', draw: 'pile' });
    expect(s.scorings[0]!.awards).toEqual([
      { company: co('RMA'), value: 2, points: [0, 0, 2, 1] },
      { company: co('GLA'), value: 4, points: [3, 3, 0, 0] },
      { company: co('PTA'), value: 3, points: [0, 0, 0, 4] },
      { company: co('EMP'), value: 5, points: [5, 1, 1, 0] },
      { company: co('MPL'), value: 3, points: [1, 1, 1, 0] },
    ]);
    expect(s.scorings[0]!.totals).toEqual([9, 5, 4, 5]);
    expect(s.points).toEqual([0 + 9, 1 + 5, 2 + 4, 3 + 5]);
    checked(s);
  });
});
