// Playing stock: any number of one airline's stock cards face up; with exactly
// one card, a sabotage may follow: any marker on any free circle of value 5 or
// more, one sabotaged circle per route; the sabotage marker never scores.
import { describe, expect, it } from 'vitest';
import {
  airlines,
  board,
  checked,
  co,
  found,
  giveRoute,
  giveStock,
  handSet,
  mark,
  markerAt,
  refused,
  topRoute,
} from './hand-set.ts';

function ready() {
  const s = handSet(3);
  found(s, 'LSA');
  mark(s, 'DEN-DFW/1', 'LSA');
  found(s, 'RMA');
  giveStock(s, 0, 'LSA', 4);
  giveStock(s, 0, 'GLA', 1);
  return s;
}

describe('airlines: playing stock', () => {
  it('lays out any number of stock cards of one airline, and draws nothing', () => {
    const s = ready();
    const pile = s.pile.length;
    airlines.apply(s, 0, { type: 'stock', company: 'LSA', count: 3 });
    expect(s.played[0]![co('LSA')]).toBe(3);
    expect(s.stock[0]![co('LSA')]).toBe(1);
    expect(s.pile).toHaveLength(pile);
    expect(s.turn).toBe(1);
    expect(airlines.view(s, 2).players).toContainEqual(
      expect.objectContaining({ seat: 0, played: [{ code: 'LSA', colour: '#d62728', count: 3 }] }),
    );
    expect(airlines.undoable!({ type: 'stock', company: 'LSA', count: 3 }, s)).toBe(true);
    checked(s);
  });

  it('refuses more stock than held and stock of an airline not yet founded', () => {
    const s = ready();
    refused(s, 0, { type: 'stock', company: 'LSA', count: 5 }, /only 4 LSA stock cards/);
    refused(s, 0, { type: 'stock', company: 'RMA', count: 1 }, /no RMA stock/);
    refused(s, 0, { type: 'stock', company: 'GLA', count: 1 }, /Great Lakes Airways \(GLA\) has not been founded yet/);
  });

  it("with exactly one card, sabotages a circle of value 5 or more with any airline's marker", () => {
    const s = ready();
    airlines.apply(s, 0, {
      type: 'stock',
      company: 'LSA',
      count: 1,
      sabotage: { company: 'RMA', circle: 'DEN-DFW/3' },
    });
    expect(markerAt(s, 'DEN-DFW/3')).toEqual({ code: 'RMA', sabotage: true });
    const rma = (airlines.view(s, null).companies as any[]).find((c) => c.code === 'RMA');
    expect(rma.value).toBe(1); // only the home marker scores
    expect(rma.markersLeft).toBe(13); // the sabotage marker came from RMA's supply
    checked(s);
  });

  it('sabotage markers of an airline not yet founded do not found it', () => {
    const s = ready();
    airlines.apply(s, 0, {
      type: 'stock',
      company: 'LSA',
      count: 1,
      sabotage: { company: 'EMP', circle: 'MIA-JFK/3' },
    });
    expect(s.founded[co('EMP')]).toBe(false);
    expect((airlines.view(s, null).companies as any[]).find((c) => c.code === 'EMP').value).toBe(0);
    checked(s);
  });

  it('refuses a sabotage with more than one card laid out', () => {
    const s = ready();
    refused(
      s,
      0,
      { type: 'stock', company: 'LSA', count: 2, sabotage: { company: 'RMA', circle: 'DEN-DFW/3' } },
      /only allowed when you lay out exactly one stock card/,
    );
  });

  it('refuses a sabotage of a circle under 5 (5 itself is allowed)', () => {
    const s = ready();
    const five = structuredClone(s);
    airlines.apply(five, 0, {
      type: 'stock',
      company: 'LSA',
      count: 1,
      sabotage: { company: 'RMA', circle: 'DEN-DFW/2' },
    });
    expect(markerAt(five, 'DEN-DFW/2')?.sabotage).toBe(true);
    refused(
      s,
      0,
      { type: 'stock', company: 'LSA', count: 1, sabotage: { company: 'RMA', circle: 'MSP-ORD/2' } },
      /Only circles of value 5 or more may be sabotaged; circle 2 of Minneapolis–Chicago has value 4/,
    );
  });

  it('refuses a second sabotage on one route, and a taken circle', () => {
    const s = ready();
    airlines.apply(s, 0, {
      type: 'stock',
      company: 'LSA',
      count: 1,
      sabotage: { company: 'RMA', circle: 'DEN-DFW/2' },
    });
    s.turn = 0;
    refused(
      s,
      0,
      { type: 'stock', company: 'LSA', count: 1, sabotage: { company: 'GLA', circle: 'DEN-DFW/3' } },
      /Denver–Dallas already has a sabotaged circle; only one per route/,
    );
    mark(s, 'IAH-MEX/3', 'LSA');
    refused(
      s,
      0,
      { type: 'stock', company: 'LSA', count: 1, sabotage: { company: 'GLA', circle: 'IAH-MEX/3' } },
      /Circle 3 of Houston–Mexico City is taken/,
    );
  });

  it('a sabotaged circle blocks the route card play there and does not carry the network', () => {
    const s = ready();
    airlines.apply(s, 0, {
      type: 'stock',
      company: 'LSA',
      count: 1,
      sabotage: { company: 'RMA', circle: 'IAH-MEX/3' },
    });
    // RMA's marker sits on Houston–Mexico City as a sabotage: RMA does not reach Mexico City by it.
    const double8 = giveRoute(s, 1, 'double', 8);
    topRoute(s, 'dashed', 8);
    airlines.apply(s, 1, { type: 'drawRoute' });
    refused(
      s,
      1,
      { type: 'extend', company: 'RMA', card: double8, circle: 'MTY-MEX/2', draw: 'pile' },
      /RMA's network does not reach Monterrey–Mexico City/,
    );
    const dashed8 = s.routes[1]!.find((id) => id !== double8)!;
    refused(
      s,
      1,
      { type: 'extend', company: 'LSA', card: dashed8, circle: 'IAH-MEX/3', draw: 'pile' },
      /Circle 3 of Houston–Mexico City is taken/,
    );
  });

  it("an airline's own sabotage marker on a route does not stop it flying that route; anyone may extend any airline", () => {
    const s = ready();
    airlines.apply(s, 0, {
      type: 'stock',
      company: 'LSA',
      count: 1,
      sabotage: { company: 'LSA', circle: 'ABQ-DFW/2' },
    });
    const dashdot3 = giveRoute(s, 1, 'dashdot', 3);
    airlines.apply(s, 1, { type: 'drawRoute' });
    expect(s.stock[1]![co('LSA')]).toBe(0); // seat 1 holds no LSA, and may still extend it
    airlines.apply(s, 1, { type: 'extend', company: 'LSA', card: dashdot3, circle: 'ABQ-DFW/1', draw: 'pile' });
    expect(markerAt(s, 'ABQ-DFW/1')).toEqual({ code: 'LSA', sabotage: false });
    expect(markerAt(s, 'ABQ-DFW/2')).toEqual({ code: 'LSA', sabotage: true });
    checked(s);
  });

  it('refuses a sabotage with the marker of an airline that has none left', () => {
    const s = ready();
    const spare = board.circles.filter((c) => c.value < 5).slice(0, 14); // RMA: home and fourteen circles
    for (const c of spare) s.circles[c.index] = { c: co('RMA') };
    refused(
      s,
      0,
      { type: 'stock', company: 'LSA', count: 1, sabotage: { company: 'RMA', circle: 'IAH-MEX/3' } },
      /RMA has no markers left/,
    );
  });

  it('offers a few sabotages among the moves, each legal', () => {
    const s = ready();
    const moves = airlines.moves(s, 0).filter((m) => m.type === 'stock' && m.sabotage);
    expect(moves.length).toBeGreaterThan(0);
    for (const m of moves) {
      const copy = structuredClone(s);
      airlines.apply(copy, 0, m);
      checked(copy);
    }
  });
});
