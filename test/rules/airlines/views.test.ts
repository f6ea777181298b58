// What leaves the rules: a seat's view shows its own hand and nobody else's;
// no view shows the order of either pile; history lines name only cards laid
// face up; moves that revealed a card cannot be taken back.
import { describe, expect, it } from 'vitest';
import { airlines, board, co, mark, twoWorlds } from './hand-set.ts';

describe('airlines: hidden information', () => {
  it('another seat and a spectator see exactly the same whatever seat 1 holds and however the piles lie', () => {
    const { a, b } = twoWorlds();
    for (const seat of [0, 2, null]) expect(airlines.view(a, seat)).toEqual(airlines.view(b, seat));
    expect(airlines.view(a, 1)).not.toEqual(airlines.view(b, 1));
  });

  it('a seat sees its own hand, and only sizes of the others', () => {
    const { a } = twoWorlds();
    const own = airlines.view(a, 1) as any;
    expect(own.hand.stock).toEqual([{ code: 'EMP', name: 'Empire Airways', colour: '#17a2b8', count: 3 }]);
    expect(own.hand.routes).toEqual([expect.objectContaining({ pattern: 'double', value: 7 })]);
    const other = airlines.view(a, 0) as any;
    expect(other.hand.stock).toEqual([{ code: 'GLA', name: 'Great Lakes Airways', colour: '#1f77b4', count: 2 }]);
    expect(other.players[1]).toEqual(expect.objectContaining({ stockInHand: 3, routeCardsInHand: 1, played: [] }));
    const text = JSON.stringify(other);
    expect(text).not.toContain('EMP","name":"Empire Airways","count":3');
    expect(text).not.toMatch(/"pattern":"double","value":7/);
    expect(airlines.view(a, null).hand).toBeNull();
    expect(airlines.view(a, null).options).toBeNull();
  });

  it('shows the public parts: board, open row, laid-out stock, points and bonus by seat', () => {
    const { a } = twoWorlds();
    const v = airlines.view(a, null) as any;
    expect(v.open).toEqual(['PNA', 'GGA', 'SWX', 'RMA', 'LSA']);
    expect(v.players.map((p: any) => p.bonus)).toEqual([0, 1, 2]);
    expect(v.routes.find((r: any) => r.id === 'MSP-ORD').circles[0]).toEqual(
      expect.objectContaining({ company: 'GLA', sabotage: false }),
    );
    expect(v.pileSize).toBe(a.pile.length);
    expect(v.scoringCardsLeft).toBe(3);
    expect(airlines.svg!(v)).toMatch(/^<svg[\s\S]*GLA[\s\S]*<\/svg>$/);
  });

  it('draws markers, sabotage markers (with their black dot) and founded homes on the map', () => {
    const { a } = twoWorlds();
    mark(a, 'DEN-DFW/3', 'LSA', true);
    const svg = airlines.svg!(airlines.view(a, null));
    expect(svg).toContain(`<circle cx="${board.circles.find((c) => c.label === 'DEN-DFW/3')!.x}`);
    expect(svg).toMatch(
      /fill="#d62728" stroke="#000" stroke-width="3"\/><circle cx="\d+" cy="\d+" r="3.5" fill="#000"\/>/,
    );
    expect(svg).toMatch(/fill="#1f77b4" stroke="#1f77b4" stroke-width="2"\/><text[^>]*>GLA</);
    expect(svg).not.toContain('undefined');
  });

  it('describes moves without naming a card drawn blind', () => {
    const { a } = twoWorlds();
    expect(airlines.describe({ type: 'drawRoute' }, a, 0)).toBe('drew a route card to extend a network');
    const card = a.routes[0]![0]!;
    const line = airlines.describe(
      { type: 'found', company: 'EMP', count: 2, card, circle: 'JFK-BOS/1', draw: 'pile' },
      a,
      0,
    );
    expect(line).toBe(
      'founded Empire Airways (EMP) at home in New York with 2 stock, flying New York–Boston (circle 1, value 1) with a dotted 4; drew a stock card from the pile and a route card',
    );
    expect(airlines.describe({ type: 'extend', company: 'GLA', card, circle: 'DEN-MSP/1', draw: 'PNA' }, a, 0)).toBe(
      'extended GLA onto Denver–Minneapolis (circle 1, value 3) with a dotted 4; took PNA stock from the open row',
    );
    expect(
      airlines.describe(
        { type: 'stock', company: 'GLA', count: 1, sabotage: { company: 'LSA', circle: 'DEN-DFW/3' } },
        a,
        0,
      ),
    ).toBe('laid out 1 GLA stock and sabotaged Denver–Dallas (circle 3, value 7) with a LSA marker');
    expect(airlines.describe({ type: 'skip', card, draw: 'pile' }, a, 0)).toBe(
      'could play none of their route cards and discarded a dotted 4; drew a stock card from the pile',
    );
  });

  it('only laying out stock can be taken back; every draw reveals a card', () => {
    const { a } = twoWorlds();
    expect(airlines.undoable!({ type: 'stock', company: 'GLA', count: 1 }, a)).toBe(true);
    expect(airlines.undoable!({ type: 'drawRoute' }, a)).toBe(false);
    expect(airlines.undoable!({ type: 'extend', company: 'GLA', card: 1, circle: 'DEN-MSP/1', draw: 'PNA' }, a)).toBe(
      false,
    );
    expect(
      airlines.undoable!({ type: 'found', company: 'EMP', count: 1, card: 1, circle: 'JFK-BOS/1', draw: 'pile' }, a),
    ).toBe(false);
    expect(airlines.undoable!({ type: 'skip', card: 1, draw: 'pile' }, a)).toBe(false);
  });

  it('gives the seat to act its legal choices for the move form', () => {
    const { a } = twoWorlds();
    const v = airlines.view(a, 0) as any;
    expect(v.options.step).toBe('action');
    expect(v.options.stock).toEqual([{ code: 'GLA', held: 2 }]);
    expect(v.options.draws).toEqual(['pile', 'PNA', 'GGA', 'SWX', 'RMA', 'LSA']);
    expect(v.options.sabotageCircles.length).toBeGreaterThan(10);
    airlines.apply(a, 0, { type: 'drawRoute' });
    const w = airlines.view(a, 0) as any;
    expect(w.options.step).toBe('place');
    expect(w.options.extensions).toContainEqual(expect.objectContaining({ company: 'GLA', circle: 'ORD-YYZ/1' }));
    expect(airlines.view(a, 1).options).toBeNull();
    expect(board.companies[co('GLA')]!.code).toBe('GLA');
  });
});
