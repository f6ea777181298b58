// The seed's map rules that rules.test.ts does not decide on its own: each
// case is a hand-set board where exactly one rule says yes or no.
import { describe, expect, it } from 'vitest';
import {
  checkTileLay,
  checkToken,
  layTile,
  legalTileLays,
  newBoard,
  placeHomeToken,
  placeToken,
  reachOf,
  runRoutes,
  suggestRoutes,
  type Board,
} from '../../../../rules/1830/track/index.ts';
import { HEXES, NODE, TILES, rotatedTrack } from '../../../../rules/1830/track/data.ts';

import { baltimore, ctx, refused } from './helpers.ts';

/** PRR at home in Altoona (H12); Pittsburgh (H10) holds a #57 from H8 to H12. */
function pittsburgh(): Board {
  const b = newBoard();
  placeHomeToken(b, 'PRR');
  b.tiles.H10 = { tile: '57', copy: 0, rotation: 1 };
  return b;
}

describe('terrain costs', () => {
  it('river $80, mountain $120, paid only on the first tile; Erie home hex is a river-free exception, the other OO hexes are not', () => {
    const b = baltimore();
    expect(checkTileLay(b, ctx('B&O'), { hex: 'I17', tile: '9', rotation: 1 }).cost).toBe(80);
    // Erie lays #59 on E11 (its home, no river cost) ...
    const e = newBoard();
    placeHomeToken(e, 'ERIE');
    expect(checkTileLay(e, ctx('ERIE', '3'), { hex: 'E11', tile: '59', rotation: 0 }).cost).toBe(0);
    // ... while Detroit & Windsor (E5), also OO, costs the river
    const d = newBoard();
    d.tokens.E5 = [['C&O'], []];
    expect(checkTileLay(d, ctx('C&O', '3'), { hex: 'E5', tile: '59', rotation: 0 }).cost).toBe(80);
    expect(HEXES.G15?.cost).toBe(120);
    expect(HEXES.F16?.cost).toBe(120);
  });

  it('a corporation that cannot pay the terrain cost may not lay there', () => {
    const b = baltimore();
    refused(
      b,
      () => layTile(b, ctx('B&O', '2', { cash: 79 }), { hex: 'I17', tile: '9', rotation: 1 }),
      /cannot pay the \$80 river cost of I17 \(it has \$79\)/,
    );
    expect(legalTileLays(b, ctx('B&O', '2', { cash: 79 })).some((l) => l.hex === 'I17')).toBe(false);
    expect(layTile(b, ctx('B&O', '2', { cash: 80 }), { hex: 'I17', tile: '9', rotation: 1 }).cost).toBe(80);
  });
});

describe('what may go where', () => {
  it('tiles with towns or cities only on hexes with the same towns and cities', () => {
    const b = baltimore();
    // a city tile on plain track, plain track on a city, a double town on a single town, a town on a double town
    refused(
      b,
      () => layTile(b, ctx('B&O'), { hex: 'I17', tile: '57', rotation: 1 }),
      /does not have the towns and cities of I17/,
    );
    refused(
      b,
      () => layTile(b, ctx('B&O'), { hex: 'J14', tile: '9', rotation: 0 }),
      /does not have the towns and cities of J14/,
    );
    const n = newBoard();
    placeHomeToken(n, 'NYC');
    refused(
      n,
      () => layTile(n, ctx('NYC'), { hex: 'E19', tile: '9', rotation: 0 }),
      /does not have the towns and cities of E19/,
    );
    refused(
      b,
      () => layTile(b, ctx('B&O', '2', { via: 'CS' }), { hex: 'B20', tile: '1', rotation: 0 }),
      /may only lay tile #3, #4, #58/,
    );
    const h = newBoard();
    h.tokens.F20 = [];
    refused(
      h,
      () => checkTileLay(h, ctx('NYNH'), { hex: 'F20', tile: '3', rotation: 0 }),
      /does not have the towns and cities of F20/,
    );
  });

  it('brown tiles keep their labels: B on B, NY on NY, OO on OO, plain on plain', () => {
    const b = baltimore();
    b.tiles.I15 = { tile: '53', copy: 0, rotation: 0 };
    refused(
      b,
      () => layTile(b, ctx('B&O', '5'), { hex: 'I15', tile: '63', rotation: 0 }),
      /takes only tiles labelled B/,
    );
    expect(checkTileLay(b, ctx('B&O', '5'), { hex: 'I15', tile: '61', rotation: 0 }).upgrade).toBe(true);
    const e = newBoard();
    e.tiles.E11 = { tile: '59', copy: 0, rotation: 0 };
    e.tokens.E11 = [['ERIE'], []];
    delete e.homes.ERIE;
    refused(
      e,
      () => layTile(e, ctx('ERIE', '5'), { hex: 'E11', tile: '63', rotation: 0 }),
      /takes only tiles labelled OO/,
    );
    const p = pittsburgh();
    p.tiles.H10 = { tile: '14', copy: 0, rotation: 1 };
    refused(
      p,
      () => layTile(p, ctx('PRR', '5'), { hex: 'H10', tile: '64', rotation: 0 }),
      /only goes on hexes labelled OO/,
    );
    refused(
      p,
      () => layTile(p, ctx('PRR', '5'), { hex: 'H10', tile: '62', rotation: 0 }),
      /only goes on hexes labelled NY/,
    );
  });

  it('every upgrade path in the manifest is exactly the set of tiles that keep the old track', () => {
    const order = ['white', 'yellow', 'green', 'brown'];
    const kind = (t: (typeof TILES)[string], e: number) => (e < 6 ? `e${e}` : t.nodes[e - NODE]?.kind);
    const paths = (t: (typeof TILES)[string], r: number) =>
      rotatedTrack(t, r).map(([a, b]) => [kind(t, a), kind(t, b)].sort().join('|'));
    const faces = [
      ...Object.values(TILES),
      ...Object.values(HEXES)
        .filter((h) => h.color === 'white' || h.color === 'yellow')
        .map((h) => h.printed),
    ];
    for (const old of faces) {
      const fits = Object.values(TILES).filter(
        (t) =>
          order.indexOf(t.color) === order.indexOf(old.color) + 1 &&
          (t.label ?? null) === (old.label ?? null) &&
          t.cityCount === old.cityCount &&
          t.townCount === old.townCount &&
          [0, 1, 2, 3, 4, 5].some((r) => paths(old, 0).every((p) => paths(t, r).includes(p))),
      );
      expect([...old.upgrades].sort(), old.id).toEqual(fits.map((t) => t.id).sort());
    }
  });

  it('the manifest counts of 1830', () => {
    const counts = Object.fromEntries(Object.values(TILES).map((t) => [t.id, t.count]));
    expect(counts).toEqual({
      1: 1,
      2: 1,
      3: 2,
      4: 2,
      7: 4,
      8: 8,
      9: 7,
      14: 3,
      15: 2,
      16: 1,
      18: 1,
      19: 1,
      20: 1,
      23: 3,
      24: 3,
      25: 1,
      26: 1,
      27: 1,
      28: 1,
      29: 1,
      39: 1,
      40: 1,
      41: 2,
      42: 2,
      43: 2,
      44: 1,
      45: 2,
      46: 2,
      47: 1,
      53: 2,
      54: 1,
      55: 1,
      56: 1,
      57: 4,
      58: 2,
      59: 2,
      61: 2,
      62: 1,
      63: 3,
      64: 1,
      65: 1,
      66: 1,
      67: 1,
      68: 1,
      69: 1,
      70: 1,
    });
  });
});

describe('home hexes and private hexes', () => {
  it('NYC may lay #57 on Albany without a connection; another corporation needs one', () => {
    const b = newBoard();
    expect(layTile(b, ctx('NYC'), { hex: 'E19', tile: '57', rotation: 0 }).cost).toBe(0);
    const c = newBoard();
    placeHomeToken(c, 'PRR');
    refused(
      c,
      () => layTile(c, ctx('PRR'), { hex: 'E19', tile: '57', rotation: 0 }),
      /does not connect to PRR's network/,
    );
  });

  it('the B&O private blocks Baltimore and I13 while a player owns it', () => {
    const b = baltimore();
    refused(
      b,
      () => layTile(b, ctx('B&O', '3', { playerPrivates: ['BO'] }), { hex: 'I15', tile: '53', rotation: 0 }),
      /I15 \(Baltimore\) is blocked while a player owns the BO private/,
    );
    refused(
      b,
      () => layTile(b, ctx('B&O', '3', { playerPrivates: ['BO'] }), { hex: 'I13', tile: '9', rotation: 0 }),
      /blocked while a player owns the BO private/,
    );
    expect(layTile(b, ctx('B&O', '3'), { hex: 'I15', tile: '53', rotation: 0 }).upgrade).toBe(true);
  });
});

describe('a network closed by other stations', () => {
  it('new track must be reachable: not past a city full of other companies (tiles and stations alike)', () => {
    const p = pittsburgh();
    expect(reachOf(p, 'PRR').edgesOf('H8')).toBe(1 << 4);
    p.tokens.H10 = [['C&O']];
    delete p.homes['C&O'];
    // PRR reaches Pittsburgh but cannot pass it: H8 beyond is closed to PRR, open to C&O
    expect(reachOf(p, 'PRR').edgesOf('H8')).toBe(0);
    expect(reachOf(p, 'PRR').reaches('H10', 0)).toBe(true);
    refused(
      p,
      () => layTile(p, ctx('PRR'), { hex: 'H8', tile: '9', rotation: 1 }),
      /does not connect to PRR's network/,
    );
    expect(checkTileLay(p, ctx('C&O'), { hex: 'H8', tile: '9', rotation: 1 }).cost).toBe(0);
    // Columbus (H4) beyond: C&O may put a station there, PRR may not
    p.tiles.H8 = { tile: '9', copy: 0, rotation: 1 };
    p.tiles.H6 = { tile: '9', copy: 1, rotation: 1 };
    p.tiles.H4 = { tile: '57', copy: 1, rotation: 1 };
    expect(() => checkToken(p, { corp: 'C&O', tokensLeft: 2 }, { hex: 'H4', city: 0 })).not.toThrow();
    refused(
      p,
      () => placeToken(p, { corp: 'PRR', tokensLeft: 2 }, { hex: 'H4', city: 0 }),
      /PRR's track does not reach the city in H4 \(Columbus\)/,
    );
    // and the full city itself takes no PRR station
    refused(
      p,
      () => placeToken(p, { corp: 'PRR', tokensLeft: 2 }, { hex: 'H10', city: 0 }),
      /the city in H10 \(Pittsburgh\) has no open slot/i,
    );
  });
});

describe('stations', () => {
  it('a city with two slots takes a second company; never two stations of one company in a hex, not even in two cities', () => {
    const p = pittsburgh();
    p.tiles.H10 = { tile: '14', copy: 0, rotation: 1 };
    p.tokens.H10 = [['C&O']];
    placeToken(p, { corp: 'PRR', tokensLeft: 2 }, { hex: 'H10', city: 0 });
    expect(p.tokens.H10).toEqual([['C&O', 'PRR']]);
    // New York: NYNH at home in one city may not take the other
    const n = newBoard();
    n.tiles.G19 = { tile: '54', copy: 0, rotation: 0 };
    placeHomeToken(n, 'NYNH');
    refused(
      n,
      () => placeToken(n, { corp: 'NYNH', tokensLeft: 2 }, { hex: 'G19', city: 1 }),
      /NYNH already has a station in G19 \(New York & Newark\) \(one per hex\)/,
    );
  });
});

describe('routes', () => {
  /** New York (#54) with NYNH in city 0, G17 (#2) and F18 (#7) looping round to city 1. */
  function newYork(): Board {
    const b = newBoard();
    b.tiles.G19 = { tile: '54', copy: 0, rotation: 0 };
    placeHomeToken(b, 'NYNH');
    b.tiles.G17 = { tile: '2', copy: 0, rotation: 2 };
    b.tiles.F18 = { tile: '7', copy: 0, rotation: 5 };
    return b;
  }
  const D = [{ id: 'D-0', distance: 999 }];

  it('the two cities of New York are two stops of one route (the seed example)', () => {
    const b = newYork();
    const r = runRoutes(b, 'NYNH', '3', D, [
      {
        train: 'D-0',
        connections: [
          ['G19', 'G17'],
          ['G17', 'F18', 'G19'],
        ],
      },
    ]);
    expect(r.routes[0]?.stops).toEqual(['G19-0', 'G17-1', 'G19-1']);
    expect(r.revenue).toBe(60 + 10 + 60);
    expect(suggestRoutes(b, 'NYNH', '3', D).revenue).toBe(130);
  });

  it('one city twice is refused, by name', () => {
    const b = newBoard();
    b.tiles.G19 = { tile: '54', copy: 0, rotation: 0 };
    b.tokens.G19 = [[], ['NYNH']];
    delete b.homes.NYNH;
    b.tiles.F20 = { tile: '2', copy: 0, rotation: 5 };
    b.tiles.F18 = { tile: '7', copy: 0, rotation: 4 };
    refused(
      b,
      () =>
        runRoutes(b, 'NYNH', '3', D, [
          {
            train: 'D-0',
            connections: [
              ['G19', 'F18', 'F20'],
              ['F20', 'G19'],
            ],
          },
        ]),
      /visits G19 \(New York & Newark\) city 1 twice/,
    );
  });

  it('two different red areas may be both ends; one red area (two hexes) may not', () => {
    const b = newBoard();
    // Barrie (B10) with a CPR station, track to both Canadian West hexes (A9, A11) and on to B12
    b.tiles.B10 = { tile: '15', copy: 0, rotation: 2 };
    b.tokens.B10 = [['CPR']];
    refused(
      b,
      () =>
        runRoutes(b, 'CPR', '3', D, [
          {
            train: 'D-0',
            connections: [
              ['A9', 'B10'],
              ['B10', 'A11'],
            ],
          },
        ]),
      /visits the Canada off-board twice/,
    );
    expect(runRoutes(b, 'CPR', '3', D, [{ train: 'D-0', connections: [['A9', 'B10']] }]).revenue).toBe(30 + 30);
    expect(suggestRoutes(b, 'CPR', '5', D).revenue).toBe(50 + 30);
    // the Gulf is one area too (I1 and J2), as the seed reads: both ends only if two different red areas
    expect(HEXES.I1?.group).toBe('Gulf');
    expect(HEXES.J2?.group).toBe('Gulf');
  });

  it('a train must stop at every city on its way, except where printed track runs past (Altoona)', () => {
    const b = newBoard();
    b.tiles.H10 = { tile: '57', copy: 0, rotation: 1 };
    b.tiles.H14 = { tile: '8', copy: 0, rotation: 5 };
    b.tiles.I15 = { tile: '53', copy: 0, rotation: 0 };
    b.tokens.I15 = [['B&O']];
    delete b.homes['B&O'];
    const two = [{ id: '2-0', distance: 2 }];
    // past Altoona on the printed bypass: two stops
    expect(runRoutes(b, 'B&O', '3', two, [{ train: '2-0', connections: [['H10', 'H12', 'H14', 'I15']] }]).revenue).toBe(
      20 + 50,
    );
    // stopping there: three stops, too many for a 2-train
    const stop = [
      {
        train: '2-0',
        connections: [
          ['H10', 'H12'],
          ['H12', 'H14', 'I15'],
        ],
      },
    ];
    refused(b, () => runRoutes(b, 'B&O', '3', two, stop), /counts at most 2 stops/);
    expect(runRoutes(b, 'B&O', '3', [{ id: '2-0', distance: 3 }], stop).revenue).toBe(20 + 10 + 50);
    // a city in the middle of a typed chain is a stop: Pittsburgh cannot be run through uncounted
    refused(
      b,
      () => runRoutes(b, 'B&O', '3', two, [{ train: '2-0', connections: [['H8', 'H10', 'H12', 'H14', 'I15']] }]),
      /no track|counts at most/,
    );
  });

  it("routes sharing a town meet there as at a city (18xx.games's off-centre town check cannot matter in 1830)", () => {
    // 18xx.games also counts the stretch from an off-centre town to its far side as shared track. In
    // 1830 every town has exactly two track ends and its preferred side is one of them, so two
    // routes can only both use a town's far stretch by using the same hex side too, which is refused anyway.
    const faces = [...Object.values(TILES), ...Object.values(HEXES).map((h) => h.printed)];
    for (const t of faces) {
      t.nodes.forEach((n, i) => {
        if (n.kind !== 'town') return;
        const ends = t.track.filter(([a, b]) => a === NODE + i || b === NODE + i).length;
        expect(ends === 0 || ends === 2, `${t.id} town ${i}`).toBe(true);
      });
    }
    // two trains may end at the same town from its two sides
    const b = newYork();
    const two = [
      { id: '2-0', distance: 2 },
      { id: '2-1', distance: 2 },
    ];
    b.tokens.G19 = [['NYNH'], ['NYNH']];
    const r = runRoutes(b, 'NYNH', '3', two, [
      { train: '2-0', connections: [['G19', 'G17']] },
      { train: '2-1', connections: [['G17', 'F18', 'G19']] },
    ]);
    expect(r.routes.map((x) => x.stops)).toEqual([
      ['G19-0', 'G17-1'],
      ['G17-1', 'G19-1'],
    ]);
  });
});
