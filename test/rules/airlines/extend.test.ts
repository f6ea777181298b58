// Extending a network: draw a route card, play one matching a route's pattern
// with a value reaching a free circle, for an airline whose network touches the
// route, which may fly the pattern and does not fly the route yet; then take a
// stock card from the open row (refilled to five) or the pile.
import { describe, expect, it } from 'vitest';
import {
  airlines,
  checked,
  co,
  found,
  giveRoute,
  giveStock,
  handSet,
  mark,
  markerAt,
  refused,
  stackPile,
  topRoute,
} from './hand-set.ts';

/** GLA flies Minneapolis–Chicago; seat 0 holds a few dotted cards and is about to draw a dotted 3. */
function ready() {
  const s = handSet(3);
  found(s, 'GLA');
  mark(s, 'MSP-ORD/1', 'GLA');
  giveStock(s, 0, 'GLA', 1);
  const dotted2 = giveRoute(s, 0, 'dotted', 2);
  const dotted5 = giveRoute(s, 0, 'dotted', 5);
  const double8 = giveRoute(s, 0, 'double', 8);
  const drawn = topRoute(s, 'dotted', 3);
  stackPile(s, ['EMP', 'PTA']);
  return { s, dotted2, dotted5, double8, drawn };
}

describe('airlines: extending a network', () => {
  it('draws a route card first, which only its holder learns', () => {
    const { s, drawn } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    expect(s.routes[0]).toContain(drawn);
    expect(s.step).toBe('place');
    expect(airlines.toAct(s)).toEqual([0]);
    const own = airlines.view(s, 0) as any;
    expect(own.hand.routes.find((r: any) => r.id === drawn).drawn).toBe(true);
    expect(JSON.stringify(airlines.view(s, 1))).not.toContain('"drawn":true');
    expect(airlines.undoable!({ type: 'drawRoute' }, s)).toBe(false);
  });

  it('plays the drawn card for an airline whose network reaches the route (through the far end of a route it flies)', () => {
    const { s, drawn } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card: drawn, circle: 'DEN-MSP/1', draw: 'pile' });
    expect(markerAt(s, 'DEN-MSP/1')).toEqual({ code: 'GLA', sabotage: false });
    expect(s.routeDiscard).toEqual([drawn]);
    expect(s.stock[0]![co('EMP')]).toBe(1);
    expect(s.routes[0]).toHaveLength(3);
    expect(s.turn).toBe(1);
    expect(s.step).toBe('action');
    checked(s);
  });

  it('takes a card of the open row and refills the row to five from the pile', () => {
    const { s, dotted5 } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card: dotted5, circle: 'ORD-YYZ/2', draw: 'SWX' });
    expect(s.stock[0]![co('SWX')]).toBe(1);
    expect(s.open.map((c) => c)).toEqual([co('PNA'), co('GGA'), co('RMA'), co('LSA'), co('EMP')]);
    expect(s.pile[0]).toBe(co('PTA'));
    checked(s);
  });

  it('refuses a card whose pattern does not match the route', () => {
    const { s, dotted5 } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted5, circle: 'ORD-DTW/1', draw: 'pile' },
      /dotted 5 does not match Chicago–Detroit, a solid route/,
    );
  });

  it('refuses a card whose value is below the circle', () => {
    const { s, dotted2 } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted2, circle: 'DEN-MSP/1', draw: 'pile' },
      /dotted 2 is too low for circle 1 of Denver–Minneapolis \(value 3\)/,
    );
  });

  it('refuses an airline whose network does not touch the route', () => {
    const { s, dotted5 } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted5, circle: 'ELP-SAT/2', draw: 'pile' },
      /GLA's network does not reach El Paso–San Antonio/,
    );
  });

  it('refuses a second marker of one airline on a route', () => {
    const { s, dotted5 } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted5, circle: 'MSP-ORD/2', draw: 'pile' },
      /GLA already flies Minneapolis–Chicago; each airline only once per route/,
    );
  });

  it('refuses a pattern the airline may not fly', () => {
    const { s, double8 } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: double8, circle: 'MCI-ORD/1', draw: 'pile' },
      /Great Lakes Airways \(GLA\) may not fly double routes/,
    );
  });

  it('refuses a taken circle, an airline not founded, an airline out of markers', () => {
    const { s, dotted5, double8 } = ready();
    mark(s, 'ORD-YYZ/1', 'EMP');
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted5, circle: 'ORD-YYZ/1', draw: 'pile' },
      /Circle 1 of Chicago–Toronto is taken/,
    );
    refused(
      s,
      0,
      { type: 'extend', company: 'RMA', card: double8, circle: 'DEN-MCI/1', draw: 'pile' },
      /RMA has not been founded yet/,
    );
    // GLA with all fifteen markers out: home, MSP-ORD and thirteen sabotage markers elsewhere.
    let placed = 0;
    for (const label of [
      'SFO-SLC/3',
      'DFW-ATL/3',
      'IAH-MEX/3',
      'MIA-JFK/3',
      'MSY-MIA/3',
      'ORD-JFK/3',
      'DEN-DFW/3',
      'LAX-MEX/2',
      'DEN-YYC/2',
      'MEX-MIA/2',
      'YWG-YYZ/2',
      'MTY-MEX/2',
      'STL-MSY/2',
    ]) {
      mark(s, label, 'GLA', true);
      placed++;
    }
    expect(placed).toBe(13);
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted5, circle: 'ORD-YYZ/2', draw: 'pile' },
      /GLA has no markers left/,
    );
  });

  it('refuses playing a route card before drawing one, and drawing twice', () => {
    const { s, dotted5 } = ready();
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted5, circle: 'ORD-YYZ/2', draw: 'pile' },
      /first draw a route card/,
    );
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(s, 0, { type: 'drawRoute' }, /already drawn your route card/);
  });

  it('ends the turn of a player none of whose route cards fits: the drawn card is kept, no stock card taken', () => {
    const { s } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(s, 0, { type: 'skip' }, /must play one/);

    const t = handSet(3);
    found(t, 'GLA');
    mark(t, 'MSP-ORD/1', 'GLA');
    const double8 = giveRoute(t, 0, 'double', 8);
    const double7 = topRoute(t, 'double', 7);
    const stockBefore = JSON.stringify(t.stock);
    const pileBefore = t.pile.length;
    airlines.apply(t, 0, { type: 'drawRoute' });
    expect(airlines.moves(t, 0)).toEqual([{ type: 'skip' }]);
    refused(t, 0, { type: 'skip', card: double8, draw: 'GGA' }, /you keep them all and take no stock card/);
    airlines.apply(t, 0, { type: 'skip' });
    expect(t.routes[0]).toEqual([double8, double7]);
    expect(JSON.stringify(t.stock)).toBe(stockBefore);
    expect(t.pile).toHaveLength(pileBefore);
    expect(t.routeDiscard).toEqual([]);
    expect(t.turn).toBe(1);
    checked(t);
  });

  it('passes over a seat that can do nothing, and ends the game when nobody can move', () => {
    const t = handSet(3);
    found(t, 'GLA');
    // every route card is held; seats 1 and 2 hold one GLA stock card each, seat 0 no stock
    t.routes = [t.routePile.splice(0, 14), t.routePile.splice(0, 14), t.routePile.splice(0)];
    t.stock[1]![co('GLA')] = 1;
    t.stock[2]![co('GLA')] = 1;
    t.turn = 2;
    airlines.apply(t, 2, { type: 'stock', company: 'GLA', count: 1 });
    expect(t.turn).toBe(1); // seat 0 is passed over
    airlines.apply(t, 1, { type: 'stock', company: 'GLA', count: 1 });
    expect(t.over).toBe(true);
    expect(airlines.outcome(t)!.reason).toMatch(/no player could move any more/);
    expect(t.scorings.at(-1)!.final).toBe(true);
  });

  it('in a game begun under rules version 1: discard a route card only when none fits, still taking a stock card', () => {
    const { s, dotted2 } = ready();
    s.version = 1;
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(s, 0, { type: 'skip', card: dotted2, draw: 'pile' }, /must play one/);

    const t = handSet(3);
    t.version = 1;
    found(t, 'GLA');
    mark(t, 'MSP-ORD/1', 'GLA');
    const double8 = giveRoute(t, 0, 'double', 8);
    const double7 = topRoute(t, 'double', 7);
    airlines.apply(t, 0, { type: 'drawRoute' });
    expect(airlines.moves(t, 0).every((m) => m.type === 'skip')).toBe(true);
    airlines.apply(t, 0, { type: 'skip', card: double8, draw: 'GGA' });
    expect(t.stock[0]![co('GGA')]).toBe(1);
    expect(t.routes[0]).toEqual([double7]);
    expect(t.routeDiscard).toEqual([double8]);
    expect(t.turn).toBe(1);
    checked(t);
  });

  it('reshuffles the played route cards when the route pile runs out', () => {
    const { s } = ready();
    s.routeDiscard = s.routePile.splice(1);
    const last = s.routePile[0]!;
    airlines.apply(s, 0, { type: 'drawRoute' });
    expect(s.routes[0]).toContain(last);
    expect(s.routePile).toHaveLength(0);
    airlines.apply(s, 0, { type: 'extend', company: 'GLA', card: last, circle: 'DEN-MSP/1', draw: 'pile' });
    s.turn = 0;
    airlines.apply(s, 0, { type: 'drawRoute' });
    expect(s.routeDiscard).toHaveLength(0);
    expect(s.routes[0]).toHaveLength(4);
    checked(s);
  });

  it('lists every legal extension among the moves, each one legal', () => {
    const { s } = ready();
    airlines.apply(s, 0, { type: 'drawRoute' });
    const moves = airlines.moves(s, 0);
    const circles = new Set(moves.map((m) => (m.type === 'extend' ? m.circle : '')));
    expect(circles).toEqual(
      new Set(['DEN-MSP/1', 'ORD-YYZ/1', 'ORD-YYZ/2', 'MSP-ORD/2'].filter((c) => c !== 'MSP-ORD/2')),
    );
    const draws = new Set(moves.map((m) => (m.type === 'extend' ? m.draw : '')));
    expect(draws).toEqual(new Set(['pile', 'PNA', 'GGA', 'SWX', 'RMA', 'LSA']));
    for (const m of moves) {
      const copy = structuredClone(s);
      airlines.apply(copy, 0, m);
      checked(copy);
    }
  });
});
