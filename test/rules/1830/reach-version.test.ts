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
  if (version >= 3) (s.map as Board).version = 3;
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

  it('a new game walks by version 3; a game of version 2 keeps its walk', () => {
    expect((g.setup(3, 'x', { rule_set: '18xx.games' }).map as Board).version).toBe(3);
    expect((g.setup(3, 'x', { rule_set: '18xx.games' }, 2).map as Board).version).toBeUndefined();
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
