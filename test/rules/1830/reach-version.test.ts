// Rules version 3: the network walk never leaves a town or city by the edge it came in by (it
// would come back along its own track), as 18xx.games walks track. Found by exporting a random
// game of ours (version 2) to 18xx.games: B&M was offered a station at B16, which 18xx.games's
// network for B&M does not reach (there the only way out of F20's town back towards D20 is the
// track the walk came in by, and E19 and G19 are full).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import {
  checkTileLay,
  legalTileLays,
  legalTokens,
  newBoard,
  reachOf,
  type Board,
} from '../../../rules/1830/track/index.ts';

/** The corpus's random 6-player game of version 2 after its 1150th move: B&M has just laid #57 on B16. */
function position(version: number): Game1830State {
  const game = JSON.parse(readFileSync(new URL('../../corpus/1830/v2/random-6p.json', import.meta.url), 'utf8')) as {
    seats: number;
    options: object;
    actions: [number, unknown, string][];
  };
  const s = g.setup(game.seats, 'x', game.options as never, 2);
  for (const [seat, action] of game.actions.slice(0, 1150)) g.apply(s, seat, action);
  if (version >= 3) (s.map as Board).version = version >= 4 ? 4 : 3;
  return s;
}

describe('the network walk by rules version', () => {
  it('version 3 reaches what 18xx.games reaches; version 2 turned back at a town', () => {
    const old = position(2);
    const r = old.round;
    expect(r.kind === 'operating' && r.current).toBe('B&M');
    expect(r.kind === 'operating' && r.step).toBe('token');
    expect(g.moves(old, g.toAct(old)[0]!)).toContainEqual({ type: 'placeToken', hex: 'B16', city: 0 });
    expect(reachOf(old.map as Board, 'B&M').hexes()).toContain('C21');

    const now = position(3);
    // 18xx.games's connected hexes for B&M here (recorded with the 18xx-oracle harness)
    expect(reachOf(now.map as Board, 'B&M').hexes()).toEqual(
      ['D20', 'D22', 'D24', 'E19', 'E21', 'E23', 'F20', 'F22', 'F24', 'G19'].sort(),
    );
    expect(legalTokens(now.map as Board, { corp: 'B&M', tokensLeft: 1 })).toEqual([]);
  });

  it('a new game walks by version 4; games of versions 3 and 2 keep their walks', () => {
    expect((g.setup(3, 'x', { rule_set: '18xx.games' }).map as Board).version).toBe(4);
    expect((g.setup(3, 'x', { rule_set: '18xx.games' }, 3).map as Board).version).toBe(3);
    expect((g.setup(3, 'x', { rule_set: '18xx.games' }, 2).map as Board).version).toBeUndefined();
  });

  it('version 4 reaches there too: the chain walk agrees with version 3 where no chain loops back', () => {
    const now = position(4);
    expect(reachOf(now.map as Board, 'B&M').hexes()).toEqual(reachOf(position(3).map as Board, 'B&M').hexes());
    expect(legalTokens(now.map as Board, { corp: 'B&M', tokensLeft: 1 })).toEqual([]);
  });
});

describe('the chain walk of rules version 4', () => {
  // A hand-set board: PRR's station at G11 (#57), track east into G13, a branch (#23: edges 4-1 and
  // 4-2), on into G15 (another #23: 1-4 and 1-5), a loop G15 -> G17 (#7) -> H16 (#7) -> back into
  // G15, and from G13's edge 2 (north-west) a city at F12 (#57). The only way to F12 leaves G13 by
  // its east side and comes back in by it after the loop: version 3's walk (by hex and edge entered,
  // with no memory of the chain) takes it; a chain may not cross one hex side twice, as 18xx.games
  // walks, so version 4 does not reach F12.
  const board = (version: 3 | 4): Board => {
    const b = newBoard();
    b.version = version;
    b.tiles.G11 = { tile: '57', copy: 0, rotation: 1 };
    b.tiles.G13 = { tile: '23', copy: 0, rotation: 4 };
    b.tiles.G15 = { tile: '23', copy: 1, rotation: 1 };
    b.tiles.G17 = { tile: '7', copy: 0, rotation: 0 };
    b.tiles.H16 = { tile: '7', copy: 1, rotation: 2 };
    b.tiles.F12 = { tile: '57', copy: 1, rotation: 2 };
    b.tokens.G11 = [['PRR']];
    return b;
  };

  it('does not reach a city only a chain crossing one hex side twice would reach; version 3 did', () => {
    const old = reachOf(board(3), 'PRR');
    expect(old.reaches('F12', 0)).toBe(true);
    expect(old.hexes()).toEqual(['E11', 'F12', 'G9', 'G11', 'G13', 'G15', 'G17', 'H16']);
    const chains = reachOf(board(4), 'PRR');
    expect(chains.reaches('F12', 0)).toBe(false);
    expect(chains.hexes()).toEqual(['G9', 'G11', 'G13', 'G15', 'G17', 'H16']);
    expect([...chains.nodes]).toEqual(['G11-0']);
    // what it does reach: every side of the station's hex, and the track of the loop
    expect(chains.edgesOf('G13')).toBe((1 << 1) | (1 << 4));
    expect(chains.edgesOf('G15')).toBe((1 << 1) | (1 << 4) | (1 << 5));
  });

  it('is the same walked from the other end: a station at F12 does not reach G11 by version 4', () => {
    const from = (version: 3 | 4) => {
      const b = board(version);
      b.tokens.F12 = [['PRR']];
      b.tokens.G11 = [[]];
      return reachOf(b, 'PRR');
    };
    expect(from(3).reaches('G11', 0)).toBe(true);
    expect(from(4).reaches('G11', 0)).toBe(false);
    // the loop is walked all the same
    expect(from(4).edgesOf('G15')).toBe((1 << 1) | (1 << 4) | (1 << 5));
  });
});

describe('a two-city upgrade by rules version', () => {
  // H18 holds #59 turned 1 (cities towards edges 1 and 3); #65 turned 3 keeps both exits, but in one city
  const board = (version?: 3): Board => {
    const b = newBoard();
    if (version) b.version = version;
    b.tiles.H18 = { tile: '59', copy: 0, rotation: 1 };
    b.tokens.H18 = [['B&O'], []];
    return b;
  };
  const lay = { hex: 'H18', tile: '65', rotation: 3 };
  const ctx = { corp: 'B&O', phase: '5' as const, layUsed: false, playerPrivates: [] };

  it('version 3 refuses to put the two cities into one (18xx.games: "not legally rotated"); version 2 took it', () => {
    expect(() => checkTileLay(board(3), ctx, lay)).toThrow(/does not keep the cities of .* apart/);
    expect(checkTileLay(board(), ctx, lay)).toMatchObject({ upgrade: true });
    // a rotation that keeps them apart is taken under both
    const apart = legalTileLays(board(3), ctx).filter((l) => l.hex === 'H18' && l.tile === '65');
    expect(apart.length).toBeGreaterThan(0);
    for (const l of apart) expect(checkTileLay(board(), ctx, l)).toMatchObject({ upgrade: true });
  });
});
