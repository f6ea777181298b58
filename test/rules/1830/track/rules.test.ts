// Hand-set boards deciding each rule of the 1830 map module.
import { describe, expect, it } from 'vitest';
import { RuleError } from '../../../../rules/types.ts';
import {
  checkTileLay,
  homeTokenChoices,
  layTile,
  legalTileLays,
  legalTokens,
  newBoard,
  placeHomeToken,
  placePendingToken,
  placeToken,
  runRoutes,
  suggestRoutes,
  tilesInSupply,
  type Board,
  type RouteInput,
} from '../../../../rules/1830/track/index.ts';

import { baltimore, ctx, refused } from './helpers.ts';

describe('tile lays', () => {
  it('lays a yellow tile connected to the network and pays the river', () => {
    const b = baltimore();
    const r = layTile(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 1 });
    expect(r).toMatchObject({ cost: 80, upgrade: false, consumesLay: true, oldTile: null });
    expect(b.tiles.I17).toEqual({ tile: '9', copy: 0, rotation: 1 });
    expect(tilesInSupply(b)['9']).toBe(6);
  });

  it('refuses track that does not touch the network', () => {
    const b = baltimore();
    refused(
      b,
      () => layTile(b, ctx('B&O'), { hex: 'G11', tile: '9', rotation: 0 }),
      /does not connect to B&O's network/,
    );
    // the same tile turned away from Baltimore does not connect either
    refused(
      b,
      () => layTile(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 0 }),
      /does not connect|no track can meet|off the edge/,
    );
  });

  it('refuses track off the map or into the blank side of a grey or red hex', () => {
    const b = baltimore();
    refused(b, () => layTile(b, ctx('B&O'), { hex: 'J14', tile: '57', rotation: 1 }), /off the edge of the map/);
    expect(checkTileLay(b, ctx('B&O'), { hex: 'J14', tile: '57', rotation: 0 }).cost).toBe(80);
  });

  it('allows one tile action per turn', () => {
    const b = baltimore();
    refused(
      b,
      () => layTile(b, ctx('B&O', '2', { layUsed: true }), { hex: 'I17', tile: '9', rotation: 1 }),
      /already laid or upgraded a tile this turn/,
    );
  });

  it('offers tile colours by phase', () => {
    const b = baltimore();
    layTile(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 1 });
    refused(
      b,
      () => layTile(b, ctx('B&O', '2'), { hex: 'I17', tile: '26', rotation: 4 }),
      /Green tiles are not available before phase 3/,
    );
    refused(
      b,
      () => layTile(b, ctx('B&O', '4'), { hex: 'I15', tile: '61', rotation: 0 }),
      /Brown tiles are not available before phase 5/,
    );
    refused(
      b,
      () => layTile(b, ctx('B&O', '5'), { hex: 'I15', tile: '61', rotation: 0 }),
      /brown tile cannot go on I15/,
    );
  });

  it('an upgrade keeps every existing track exit, and costs no terrain again', () => {
    const b = baltimore();
    layTile(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 1 });
    const r = layTile(b, ctx('B&O', '3'), { hex: 'I17', tile: '26', rotation: 4 });
    expect(r).toMatchObject({ cost: 0, upgrade: true, oldTile: '9' });
    expect(tilesInSupply(b)['9']).toBe(7); // the yellow tile went back to the supply

    // PRR in Pittsburgh (H10), its track reaching G11, where a straight runs G9-G13
    const p = newBoard();
    p.tiles.H10 = { tile: '57', copy: 0, rotation: 0 };
    p.tokens.H10 = [['PRR']];
    delete p.homes.PRR;
    p.tiles.G11 = { tile: '9', copy: 0, rotation: 1 };
    refused(
      p,
      () => layTile(p, ctx('PRR', '3'), { hex: 'G11', tile: '26', rotation: 3 }),
      /does not keep all the existing track/,
    );
    refused(p, () => layTile(p, ctx('PRR', '3'), { hex: 'G11', tile: '26', rotation: 4 }), /does not connect/);
    expect(layTile(p, ctx('PRR', '3'), { hex: 'G11', tile: '26', rotation: 1 }).upgrade).toBe(true);
  });

  it('labels: OO, NY and B hexes take only their own tiles', () => {
    const b = baltimore();
    refused(
      b,
      () => layTile(b, ctx('B&O', '3'), { hex: 'I15', tile: '14', rotation: 0 }),
      /takes only tiles labelled B/,
    );
    refused(
      b,
      () => layTile(b, ctx('ERIE', '3'), { hex: 'E11', tile: '57', rotation: 0 }),
      /yellow tile cannot go on E11/,
    );
    refused(
      b,
      () => layTile(b, ctx('NYNH', '3'), { hex: 'G19', tile: '59', rotation: 0 }),
      /takes only tiles labelled NY/,
    );
    b.tiles.E19 = { tile: '57', copy: 0, rotation: 0 };
    refused(
      b,
      () => layTile(b, ctx('NYC', '3'), { hex: 'E19', tile: '53', rotation: 0 }),
      /only goes on hexes labelled B/,
    );
    const r = layTile(b, ctx('B&O', '3'), { hex: 'I15', tile: '53', rotation: 0 });
    expect(r.upgrade).toBe(true);
    expect(b.tokens.I15).toEqual([['B&O']]);
  });

  it('tile counts are limited by the manifest', () => {
    const b = newBoard();
    placeHomeToken(b, 'C&O'); // F6: track to G7 and G5
    b.tiles.G17 = { tile: '1', copy: 0, rotation: 0 };
    refused(
      b,
      () => layTile(b, ctx('C&O'), { hex: 'G7', tile: '1', rotation: 0 }),
      /All 1 copies of tile #1 are on the map/,
    );
  });

  it('private hexes are blocked while a player owns the private; C&SL and D&H abilities', () => {
    const b = baltimore();
    refused(
      b,
      () => layTile(b, ctx('B&O', '2', { playerPrivates: ['CS'] }), { hex: 'B20', tile: '4', rotation: 1 }),
      /blocked while a player owns the CS/,
    );
    // the C&SL: free of the turn's tile action and of connection, tiles 3/4/58 only
    refused(
      b,
      () => layTile(b, ctx('B&O', '2', { via: 'CS' }), { hex: 'B20', tile: '7', rotation: 1 }),
      /may only lay tile #3, #4, #58/,
    );
    const cs = layTile(b, ctx('B&O', '2', { via: 'CS', layUsed: true }), { hex: 'B20', tile: '4', rotation: 1 });
    expect(cs).toMatchObject({ cost: 0, consumesLay: false });
    // the D&H: tile 57 in F16 as the turn's tile action, mountain paid, then a station there
    refused(
      b,
      () => layTile(b, ctx('B&O', '2', { via: 'DH', layUsed: true }), { hex: 'F16', tile: '57', rotation: 0 }),
      /already laid/,
    );
    const dh = layTile(b, ctx('B&O', '2', { via: 'DH' }), { hex: 'F16', tile: '57', rotation: 0 });
    expect(dh).toMatchObject({ cost: 120, consumesLay: true });
    placeToken(b, { corp: 'B&O', tokensLeft: 0, via: 'DH' }, { hex: 'F16', city: 0 });
    expect(b.tokens.F16).toEqual([['B&O']]);
  });

  it('refuses malformed lays in words', () => {
    const b = baltimore();
    refused(b, () => layTile(b, ctx('B&O'), { hex: 'Z99', tile: '9', rotation: 0 }), /hex/);
    refused(b, () => layTile(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 7 } as never), /rotation from 0 to 5/);
    refused(b, () => layTile(b, ctx('B&O'), { hex: 'I17', tile: '5', rotation: 0 }), /no tile #5 in 1830/);
    refused(b, () => layTile(b, ctx('B&O'), { hex: 'F2', tile: '9', rotation: 0 }), /off-board area/);
    refused(b, () => layTile(b, ctx('B&O'), { hex: 'H12', tile: '57', rotation: 0 }), /grey hex/);
  });

  it('lists legal lays that all pass the check', () => {
    const b = baltimore();
    const lays = legalTileLays(b, ctx('B&O'));
    expect(lays.length).toBeGreaterThan(3);
    for (const l of lays) expect(() => checkTileLay(b, ctx('B&O'), l)).not.toThrow();
    expect(lays).toContainEqual({ hex: 'I17', tile: '9', rotation: 1 });
  });
});

describe('station tokens', () => {
  it('needs reach, an open slot, one per hex, and respects home reservations', () => {
    const b = baltimore();
    layTile(b, ctx('B&O'), { hex: 'J14', tile: '57', rotation: 0 });
    refused(
      b,
      () => placeToken(b, { corp: 'B&O', tokensLeft: 2 }, { hex: 'I15', city: 0 }),
      /already has a station in I15/,
    );
    refused(b, () => placeToken(b, { corp: 'B&O', tokensLeft: 0 }, { hex: 'J14', city: 0 }), /no station tokens left/);
    refused(b, () => placeToken(b, { corp: 'B&O', tokensLeft: 2 }, { hex: 'H10', city: 0 }), /does not reach/);
    placeToken(b, { corp: 'B&O', tokensLeft: 2 }, { hex: 'J14', city: 0 });
    expect(b.tokens.J14).toEqual([['B&O']]);
    // NYC's home city is kept for it; Erie's whole home hex too
    b.tiles.E19 = { tile: '57', copy: 1, rotation: 0 };
    placeHomeToken(b, 'PRR');
    refused(
      b,
      () => placeToken(b, { corp: 'PRR', tokensLeft: 3 }, { hex: 'E19', city: 0 }),
      /kept for NYC's home station/,
    );
    refused(
      b,
      () => placeToken(b, { corp: 'PRR', tokensLeft: 3 }, { hex: 'E11', city: 1 }),
      /kept for ERIE's home station/,
    );
    expect(legalTokens(b, { corp: 'B&O', tokensLeft: 1 })).toEqual([]);
  });

  it('Erie chooses its home city once E11 has track; a token on the printed hex is put back after the tile', () => {
    const b = newBoard();
    b.tiles.E11 = { tile: '59', copy: 0, rotation: 0 };
    expect(homeTokenChoices(b, 'ERIE')).toEqual([0, 1]);
    refused(b, () => placeHomeToken(b, 'ERIE'), /must choose which city/);
    placeHomeToken(b, 'ERIE', 1);
    expect(b.tokens.E11).toEqual([[], ['ERIE']]);

    const c = newBoard();
    placeHomeToken(c, 'ERIE');
    expect(c.tokens.E11).toEqual([['ERIE'], []]);
    layTile(c, ctx('ERIE', '3'), { hex: 'E11', tile: '59', rotation: 2 });
    expect(c.pending).toEqual([{ corp: 'ERIE', hex: 'E11' }]);
    placePendingToken(c, 'ERIE', { hex: 'E11', city: 0 });
    expect(c.tokens.E11).toEqual([['ERIE'], []]);
    expect(c.pending).toEqual([]);
  });
});

describe('routes', () => {
  /** B&O in I15; J14 and I17 built: Deep South (K13) - Washington (J14) - Baltimore (I15) - Atlantic City (I19). */
  function line(): Board {
    const b = baltimore();
    layTile(b, ctx('B&O'), { hex: 'J14', tile: '57', rotation: 0 });
    layTile(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 1 });
    return b;
  }
  const whole: RouteInput = {
    train: 'D-0',
    connections: [
      ['K13', 'J14'],
      ['J14', 'I15'],
      ['I15', 'I17', 'I19'],
    ],
  };

  it('counts every stop and pays off-boards by phase', () => {
    const b = line();
    expect(runRoutes(b, 'B&O', '4', [{ id: 'D-0', distance: 999 }], [whole]).revenue).toBe(30 + 20 + 30 + 10);
    expect(runRoutes(b, 'B&O', '5', [{ id: 'D-0', distance: 999 }], [whole]).revenue).toBe(40 + 20 + 30 + 10);
  });

  it('train length: towns count; D trains are unlimited', () => {
    const b = line();
    const r = { ...whole, train: '3-0' };
    refused(
      b,
      () => runRoutes(b, 'B&O', '4', [{ id: '3-0', distance: 3 }], [r]),
      /counts at most 3 stops \(towns count\); its route has 4/,
    );
    expect(
      runRoutes(b, 'B&O', '4', [{ id: '4-0', distance: 4 }], [{ ...whole, train: '4-0' }]).routes[0]?.stops,
    ).toHaveLength(4);
    const sug = suggestRoutes(b, 'B&O', '4', [{ id: 'D-0', distance: 999 }]);
    expect(sug.revenue).toBe(90);
  });

  it('no track used twice, no stop visited twice', () => {
    const b = line();
    const trains = [
      { id: '2-0', distance: 2 },
      { id: '2-1', distance: 2 },
    ];
    const a: RouteInput = { train: '2-0', connections: [['J14', 'I15']] };
    refused(b, () => runRoutes(b, 'B&O', '3', trains, [a, { ...a, train: '2-1' }]), /may not use the same track/);
    refused(b, () => runRoutes(b, 'B&O', '3', trains, [a, { ...a }]), /can run only one route/);
    expect(runRoutes(b, 'B&O', '3', trains, [a, { train: '2-1', connections: [['I15', 'I17', 'I19']] }]).revenue).toBe(
      50 + 40,
    );
    refused(
      b,
      () =>
        runRoutes(b, 'B&O', '3', trains, [
          {
            train: '2-0',
            connections: [
              ['J14', 'I15'],
              ['J14', 'I15'],
            ],
          },
        ]),
      /twice|join up/,
    );
    expect(suggestRoutes(b, 'B&O', '3', trains).revenue).toBe(90);
  });

  it('a route needs a station of the corporation and real track', () => {
    const b = line();
    refused(
      b,
      () => runRoutes(b, 'PRR', '3', [{ id: '2-0', distance: 2 }], [{ train: '2-0', connections: [['J14', 'I15']] }]),
      /does not include a PRR station/,
    );
    refused(
      b,
      () => runRoutes(b, 'B&O', '3', [{ id: '2-0', distance: 2 }], [{ train: '2-0', connections: [['I15', 'H16']] }]),
      /no track/,
    );
    refused(
      b,
      () => runRoutes(b, 'B&O', '3', [{ id: '2-0', distance: 2 }], [{ train: '3-0', connections: [['J14', 'I15']] }]),
      /has no train 3-0/,
    );
  });

  it("other companies' full cities block running through, not ending there", () => {
    const b = line();
    b.tokens.J14 = [['PRR']];
    refused(
      b,
      () => runRoutes(b, 'B&O', '3', [{ id: 'D-0', distance: 999 }], [whole]),
      /full of other companies' stations/,
    );
    expect(
      runRoutes(b, 'B&O', '3', [{ id: '2-0', distance: 2 }], [{ train: '2-0', connections: [['J14', 'I15']] }]).revenue,
    ).toBe(50);
    expect(suggestRoutes(b, 'B&O', '3', [{ id: 'D-0', distance: 999 }]).revenue).toBe(20 + 30 + 10);
  });

  it('off-boards only at the ends of a route', () => {
    const b = newBoard();
    // a C&O station in Toledo (F4) between Chicago (F2) and Cleveland (F6); G3 and H4 lead round to Chicago
    b.tiles.F4 = { tile: '57', copy: 0, rotation: 1 };
    b.tiles.G3 = { tile: '9', copy: 0, rotation: 2 };
    b.tiles.H4 = { tile: '57', copy: 1, rotation: 2 };
    b.tokens.F4 = [['C&O']];
    const through: RouteInput = {
      train: 'D-0',
      connections: [
        ['H4', 'G3', 'F2'],
        ['F2', 'F4'],
      ],
    };
    refused(
      b,
      () => runRoutes(b, 'C&O', '5', [{ id: 'D-0', distance: 999 }], [through]),
      /only start or end at an off-board/,
    );
    expect(
      runRoutes(b, 'C&O', '5', [{ id: '2-0', distance: 2 }], [{ train: '2-0', connections: [['F2', 'F4']] }]).revenue,
    ).toBe(70 + 20);
  });
});

describe('home hex exceptions of the rules', () => {
  it("under the seed's reading Erie may lay #59 on its home hex before green tiles are available; nobody else may", () => {
    const b = newBoard();
    placeHomeToken(b, 'ERIE');
    const early = { homeGreenEarly: true };
    refused(
      b,
      () => layTile(b, { ...ctx('PRR', '2'), ...early }, { hex: 'E11', tile: '59', rotation: 0 }),
      /Green tiles are not available before phase 3/,
    );
    expect(legalTileLays(b, { ...ctx('ERIE', '2'), ...early }).some((l) => l.hex === 'E11' && l.tile === '59')).toBe(
      true,
    );
    layTile(b, { ...ctx('ERIE', '2'), ...early }, { hex: 'E11', tile: '59', rotation: 0 });
    expect(b.pending).toEqual([{ corp: 'ERIE', hex: 'E11' }]);
  });

  it("without it (18xx.games) the Erie's #59 waits for green like any other green tile", () => {
    const b = newBoard();
    placeHomeToken(b, 'ERIE');
    refused(
      b,
      () => layTile(b, ctx('ERIE', '2'), { hex: 'E11', tile: '59', rotation: 0 }),
      /Green tiles are not available before phase 3/,
    );
    expect(legalTileLays(b, ctx('ERIE', '2')).some((l) => l.tile === '59')).toBe(false);
    layTile(b, ctx('ERIE', '3'), { hex: 'E11', tile: '59', rotation: 0 });
    expect(b.tiles.E11?.tile).toBe('59');
  });
});

describe('typed routes', () => {
  it('a route written as one hex chain through its stops is cut at the stops', () => {
    const b = newBoard();
    placeHomeToken(b, 'B&O');
    layTile(b, ctx('B&O'), { hex: 'J14', tile: '57', rotation: 0 });
    layTile(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 1 });
    const r = runRoutes(
      b,
      'B&O',
      '4',
      [{ id: '4-0', distance: 4 }],
      [{ train: '4-0', connections: [['I19', 'I17', 'I15', 'J14', 'K13']] }],
    );
    expect(r.revenue).toBe(10 + 30 + 20 + 30);
    expect(r.routes[0]?.hexes).toEqual(['I19', 'I15', 'J14', 'K13']);
  });
});

describe('routes as text', () => {
  it('reads and writes the typed notation', async () => {
    const { routesFromText, routesToText } = await import('../../../../rules/1830/track/index.ts');
    const routes = routesFromText('2-0: I15-J14; 4-0 i19 i17 i15 j14 k13');
    expect(routes).toEqual([
      { train: '2-0', connections: [['I15', 'J14']] },
      { train: '4-0', connections: [['I19', 'I17', 'I15', 'J14', 'K13']] },
    ]);
    expect(
      routesToText([
        {
          train: '6-1',
          connections: [
            ['E19', 'F18', 'G19'],
            ['E19', 'D18', 'D16', 'D14'],
          ],
        },
      ]),
    ).toBe('6-1: G19-F18-E19-D18-D16-D14');
    expect(() => routesFromText('fast: I15')).toThrow(RuleError);
    expect(() => routesFromText('2-0: I15-Z9')).toThrow(/not a hex/);
  });
});

describe('D trains run any number of stops', () => {
  // the board at the end of the real 3-player game (18xx.games fixture 1830_game_end_bank)
  const END: Board = {
    tiles: {
      I17: { tile: '43', copy: 1, rotation: 1 },
      F20: { tile: '69', copy: 0, rotation: 4 },
      H14: { tile: '41', copy: 0, rotation: 4 },
      J14: { tile: '14', copy: 0, rotation: 2 },
      E19: { tile: '15', copy: 0, rotation: 5 },
      H16: { tile: '63', copy: 0, rotation: 0 },
      H18: { tile: '65', copy: 0, rotation: 3 },
      G19: { tile: '62', copy: 0, rotation: 0 },
      I15: { tile: '61', copy: 0, rotation: 0 },
      F18: { tile: '43', copy: 0, rotation: 3 },
      G17: { tile: '1', copy: 0, rotation: 0 },
      H10: { tile: '63', copy: 1, rotation: 0 },
      G7: { tile: '55', copy: 0, rotation: 1 },
      E11: { tile: '66', copy: 0, rotation: 2 },
      D18: { tile: '8', copy: 0, rotation: 5 },
      D16: { tile: '24', copy: 0, rotation: 4 },
      B20: { tile: '58', copy: 0, rotation: 2 },
      H8: { tile: '23', copy: 0, rotation: 4 },
      D10: { tile: '64', copy: 0, rotation: 1 },
      E13: { tile: '47', copy: 0, rotation: 0 },
      E23: { tile: '61', copy: 1, rotation: 3 },
      F22: { tile: '15', copy: 1, rotation: 1 },
      G9: { tile: '8', copy: 3, rotation: 5 },
      F12: { tile: '24', copy: 2, rotation: 0 },
      D12: { tile: '26', copy: 0, rotation: 1 },
      G5: { tile: '23', copy: 1, rotation: 1 },
      G11: { tile: '9', copy: 4, rotation: 0 },
      H6: { tile: '23', copy: 2, rotation: 4 },
      G3: { tile: '24', copy: 1, rotation: 2 },
      E15: { tile: '8', copy: 6, rotation: 1 },
      H4: { tile: '63', copy: 2, rotation: 0 },
      G15: { tile: '7', copy: 2, rotation: 4 },
    },
    tokens: {
      I15: [['B&O']],
      G19: [['PRR'], ['NYNH', 'NYC']],
      H12: [['PRR']],
      J14: [['B&O']],
      H18: [['PRR'], []],
      E19: [['NYNH', 'NYC']],
      F6: [['C&O']],
      E11: [['ERIE'], ['NYC']],
      H16: [['C&O', 'B&O']],
      E23: [['B&M']],
    },
    homes: { CPR: { hex: 'A19', city: 0 } },
    pending: [],
  };

  it('an 11-stop route is fine for a D train and too long for a 6-train', () => {
    const b = structuredClone(END);
    const best = suggestRoutes(b, 'NYC', 'D', [{ id: 'D-0', distance: 999 }]);
    expect(best.details[0]?.stops.length).toBeGreaterThan(6);
    const run = runRoutes(b, 'NYC', 'D', [{ id: 'D-0', distance: 999 }], best.routes);
    expect(run.revenue).toBe(best.revenue);
    const six = best.routes.map((r) => ({ ...r, train: '6-0' }));
    refused(b, () => runRoutes(b, 'NYC', 'D', [{ id: '6-0', distance: 6 }], six), /counts at most 6 stops/);
    const sixBest = suggestRoutes(b, 'NYC', 'D', [{ id: '6-0', distance: 6 }]);
    expect(sixBest.details[0]?.stops.length).toBeLessThanOrEqual(6);
    expect(sixBest.revenue).toBeLessThanOrEqual(best.revenue);
  });
});

describe('move helpers', () => {
  it('groups legal lays by hex and tile for the form, and lists legal stations', async () => {
    const { tileLayOptions } = await import('../../../../rules/1830/track/index.ts');
    const b = baltimore();
    const opts = tileLayOptions(b, ctx('B&O'));
    expect(opts.I17?.['9']).toContain(1);
    expect(opts.J14?.['57']).toEqual([0]);
    layTile(b, ctx('B&O'), { hex: 'J14', tile: '57', rotation: 0 });
    expect(legalTokens(b, { corp: 'B&O', tokensLeft: 2 })).toEqual([{ hex: 'J14', city: 0 }]);
  });
});
