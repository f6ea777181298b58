// Founding an airline: stock of an airline not yet laid out anywhere, a route
// card matching a route from its home with a value reaching a free circle,
// markers on that circle and on the home, then a stock card and a route card.
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
  layStock,
  markerAt,
  mark,
  refused,
  stackPile,
} from './hand-set.ts';

function ready() {
  const s = handSet(3);
  giveStock(s, 0, 'GLA', 2);
  giveStock(s, 0, 'EMP', 1);
  const dotted4 = giveRoute(s, 0, 'dotted', 4);
  const solid2 = giveRoute(s, 0, 'solid', 2);
  const double8 = giveRoute(s, 0, 'double', 8);
  stackPile(s, ['PTA']);
  return { s, dotted4, solid2, double8 };
}

describe('airlines: founding an airline', () => {
  it('lays out the stock, puts markers on the circle and the home, draws a stock and a route card', () => {
    const { s, dotted4 } = ready();
    const topRoute = s.routePile[0]!;
    airlines.apply(s, 0, { type: 'found', company: 'GLA', count: 2, card: dotted4, circle: 'MSP-ORD/2', draw: 'pile' });
    expect(markerAt(s, 'MSP-ORD/2')).toEqual({ code: 'GLA', sabotage: false });
    expect(s.founded[co('GLA')]).toBe(true);
    expect(s.played[0]![co('GLA')]).toBe(2);
    expect(s.stock[0]![co('GLA')]).toBe(0);
    expect(s.stock[0]![co('PTA')]).toBe(1); // the stock card from the pile
    expect(s.routes[0]).not.toContain(dotted4);
    expect(s.routes[0]).toContain(topRoute); // the route card drawn
    expect(s.routes[0]).toHaveLength(3);
    expect(s.routeDiscard).toEqual([dotted4]);
    expect(airlines.view(s, null).companies).toContainEqual(
      expect.objectContaining({ code: 'GLA', value: 2, markersLeft: 13 }),
    );
    expect(s.turn).toBe(1);
    checked(s);
  });

  it('may take the stock card from the open row instead, which is refilled to five', () => {
    const { s, dotted4 } = ready();
    airlines.apply(s, 0, { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/1', draw: 'LSA' });
    expect(s.stock[0]![co('LSA')]).toBe(1);
    expect(s.stock[0]![co('GLA')]).toBe(1);
    expect(s.open).toHaveLength(5);
    expect(s.open[4]).toBe(co('PTA'));
    checked(s);
  });

  it('a scoring card turning up in its stock draw scores the new airline with its markers and stock already out', () => {
    const { s, dotted4 } = ready();
    stackPile(s, ['SCORING']);
    airlines.apply(s, 0, { type: 'found', company: 'GLA', count: 2, card: dotted4, circle: 'MSP-ORD/2', draw: 'pile' });
    // GLA: home and one circle, worth 2; seat 0 the sole holder gets 2 and 1.
    expect(s.scorings[0]!.awards).toEqual([{ company: co('GLA'), value: 2, points: [3, 0, 0] }]);
    expect(s.points).toEqual([0 + 3, 1, 2]);
    expect(s.stock[0]![co('PTA')]).toBe(1); // the card under the scoring card replaces it
    checked(s);
  });

  it('takes any circle of the route whose value the card reaches', () => {
    const { s, solid2 } = ready();
    airlines.apply(s, 0, { type: 'found', company: 'GLA', count: 1, card: solid2, circle: 'ORD-DTW/1', draw: 'pile' });
    expect(markerAt(s, 'ORD-DTW/1')?.code).toBe('GLA');
  });

  it('refuses a route card whose pattern does not match the route', () => {
    const { s, dotted4 } = ready();
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'ORD-DTW/1', draw: 'pile' },
      /dotted 4 does not match Chicago–Detroit, a solid route/,
    );
  });

  it('refuses a route card whose value is below the circle', () => {
    const { s } = ready();
    const dotted3 = giveRoute(s, 0, 'dotted', 3);
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted3, circle: 'MSP-ORD/2', draw: 'pile' },
      /too low for circle 2 of Minneapolis–Chicago \(value 4\)/,
    );
  });

  it('refuses a route that does not start at the home', () => {
    const { s, dotted4 } = ready();
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'DEN-MSP/1', draw: 'pile' },
      /does not start at GLA's home, Chicago/,
    );
  });

  it('refuses a pattern the airline may not fly', () => {
    const { s, double8 } = ready();
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: double8, circle: 'MCI-ORD/1', draw: 'pile' },
      /may not fly double routes/,
    );
  });

  it('refuses an airline already on the board', () => {
    const { s, dotted4 } = ready();
    found(s, 'GLA');
    mark(s, 'ORD-STL/1', 'GLA');
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/1', draw: 'pile' },
      /already founded/,
    );
  });

  it('refuses an airline whose stock someone has laid out', () => {
    const { s, dotted4 } = ready();
    layStock(s, 1, 'GLA', 1);
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/1', draw: 'pile' },
      /already founded/,
    );
  });

  it('refuses more stock than the player holds, stock not held, a taken circle, a card not held', () => {
    const { s, dotted4 } = ready();
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 3, card: dotted4, circle: 'MSP-ORD/1', draw: 'pile' },
      /only 2 GLA stock cards/,
    );
    refused(
      s,
      0,
      { type: 'found', company: 'SWX', count: 1, card: dotted4, circle: 'SFO-LAX/1', draw: 'pile' },
      /no SWX stock/,
    );
    mark(s, 'MSP-ORD/1', 'EMP');
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/1', draw: 'pile' },
      /Circle 1 of Minneapolis–Chicago is taken/,
    );
    const other = s.routePile[0]!;
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: other, circle: 'MSP-ORD/2', draw: 'pile' },
      /do not hold route card/,
    );
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/2', draw: 'PTA' },
      /no PTA card in the open stock row/,
    );
    refused(
      s,
      0,
      { type: 'found', company: 'XYZ', count: 1, card: dotted4, circle: 'MSP-ORD/2', draw: 'pile' },
      /no airline "XYZ"/,
    );
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'ORD-XYZ/1', draw: 'pile' },
      /no circle "ORD-XYZ\/1"/,
    );
  });

  it('refuses an airline with fewer than two markers left (its others spent on sabotage)', () => {
    const { s, dotted4 } = ready();
    const spare = board.circles.filter((c) => c.value >= 5).slice(0, 14);
    for (const c of spare) s.circles[c.index] = { c: co('GLA'), sab: true };
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/2', draw: 'pile' },
      /GLA has too few markers left to be founded/,
    );
  });

  it('refuses founding out of turn and in the middle of an extension', () => {
    const { s, dotted4 } = ready();
    refused(
      s,
      1,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/1', draw: 'pile' },
      /not your turn/,
    );
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'found', company: 'GLA', count: 1, card: dotted4, circle: 'MSP-ORD/1', draw: 'pile' },
      /drawn a route card/,
    );
  });

  it('lists the founding among the moves, and every listed founding is legal', () => {
    const { s } = ready();
    const foundings = airlines.moves(s, 0).filter((m) => m.type === 'found');
    expect(foundings.some((m) => m.type === 'found' && m.company === 'GLA' && m.circle === 'MSP-ORD/2')).toBe(true);
    expect(foundings.some((m) => m.type === 'found' && m.company === 'EMP' && m.circle === 'IAD-JFK/1')).toBe(true);
    expect(foundings.some((m) => m.type === 'found' && m.company === 'EMP' && m.circle === 'IAD-JFK/2')).toBe(false); // solid 2 < 3
    expect(foundings.some((m) => m.type === 'found' && m.company === 'SWX')).toBe(false); // no SWX stock in hand
    for (const m of foundings) {
      const copy = structuredClone(s);
      airlines.apply(copy, 0, m);
      checked(copy);
    }
    expect(board.companies[co('GLA')]!.patterns).toEqual(['solid', 'dashed', 'dotted', 'dashdot']);
  });
});
