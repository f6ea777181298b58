// Isolated lines, the end of the game and the final scoring.
import { describe, expect, it } from 'vitest';
import { finalScoring } from '../../../rules/stephensons-rocket/end.ts';
import { isolateStuckLines } from '../../../rules/stephensons-rocket/extend.ts';
import { occupancy } from '../../../rules/stephensons-rocket/state.ts';
import {
  board,
  game,
  giveShares,
  giveTokens,
  H,
  id,
  isFree,
  L,
  nb,
  P,
  passVotes,
  putLoco,
  putStation,
  putTile,
  quietSpot,
  R,
  spotNextTo,
  targets,
} from './helpers.ts';

/** Hexes and facings from which every hex ahead is sea or a town: dead ends. */
function deadEnds(): { hex: string; facing: number }[] {
  const out: { hex: string; facing: number }[] = [];
  for (let h = 0; h < board.hexIds.length; h++) {
    if (!isFree(h)) continue;
    for (let d = 0; d < 6; d++) {
      const ahead = [(d + 5) % 6, d, (d + 1) % 6].map((k) => board.neighbour[h]![k]!);
      if (ahead.every((n) => n < 0 || board.placeAt[n]! >= 0) && board.neighbour[h]!.some((n) => n < 0)) {
        out.push({ hex: id(h), facing: d });
        break;
      }
    }
  }
  return out;
}
const deadEnd = () => deadEnds()[0]!;

describe('isolated lines', () => {
  it('a line that can reach no new town or city and cannot merge loses the shares in its supply; players keep theirs', () => {
    const s = game(2);
    const dead = deadEnd();
    putLoco(s, 'NR', dead.hex, dead.facing);
    for (const p of board.placesNear[H(dead.hex)]!) s.lines[L('NR')]!.connected.push(p);
    giveShares(s, 1, 'NR', 3);
    R.apply(s, 0, { type: 'extend', line: 'GWR', to: targets(s, 0, 'GWR')[0]! });
    const nr = s.lines[L('NR')]!;
    expect(nr.isolated).toBe(true);
    expect(nr.supply).toBe(0);
    expect(nr.held[1]).toBe(3);
    expect(nr.retired).toBe(13);
    expect(R.check!(s)).toEqual([]);
  });

  it('is not isolated while it can reach a hex next to two other lines: they may merge first and open it', () => {
    // NR on P7 facing west: track of the TVR half left and of the LNWR half right,
    // so straight ahead lies next to both lines and is closed for now.
    const s = game(2);
    putLoco(s, 'NR', 'P7', 3);
    putTile(s, 'TVR', nb('P7', 2));
    putTile(s, 'LNWR', nb('P7', 4));
    R.apply(s, 0, { type: 'extend', line: 'LMR', to: 'L6' });
    expect(targets(s, 0, 'NR')).toEqual([]);
    expect(s.lines[L('NR')]!.isolated).toBe(false);
    // once the two are one line, straight ahead merges the NR into it
    s.tiles.find((t) => t.line === L('LNWR'))!.line = L('TVR');
    expect(targets(s, 0, 'NR')).toEqual([nb('P7', 3)]);
  });

  it('once no locomotive can move at all, every line is isolated (nothing can open a closed hex any more)', () => {
    const s = game(2);
    putLoco(s, 'NR', 'P7', 3);
    putTile(s, 'TVR', nb('P7', 2));
    putTile(s, 'LNWR', nb('P7', 4));
    const [a, b] = deadEnds().filter((e) =>
      board.neighbour[H(e.hex)]!.every((n) => n < 0 || !board.neighbour[H('P7')]!.includes(n)),
    );
    putLoco(s, 'TVR', a!.hex, a!.facing);
    putLoco(s, 'LNWR', b!.hex, b!.facing);
    for (const line of ['GWR', 'LMR', 'SDR', 'HSR'])
      Object.assign(s.lines[L(line)]!, { absorbedInto: L('NR'), loco: -1, supply: 0, retired: 16 });
    const occ = occupancy(s);
    isolateStuckLines(s, occ, undefined);
    expect(['NR', 'TVR', 'LNWR'].map((line) => s.lines[L(line)]!.isolated)).toEqual([true, true, true]);
    // with one locomotive still free to move, the NR waits
    const t = game(2);
    putLoco(t, 'NR', 'P7', 3);
    putTile(t, 'TVR', nb('P7', 2));
    putTile(t, 'LNWR', nb('P7', 4));
    isolateStuckLines(t, occupancy(t), undefined);
    expect(t.lines[L('NR')]!.isolated).toBe(false);
  });

  it('an isolated line can still be extended, but gives no share', () => {
    const s = game(2);
    s.lines[L('LMR')]!.isolated = true;
    s.lines[L('LMR')]!.retired = 16;
    s.lines[L('LMR')]!.supply = 0;
    R.apply(s, 0, { type: 'extend', line: 'LMR', to: 'L6' });
    expect(s.lines[L('LMR')]!.held).toEqual([0, 0]);
    expect(id(s.lines[L('LMR')]!.loco)).toBe('L6');
  });
});

describe('end of the game', () => {
  it('ends at once, mid-turn, when only one line still has shares', () => {
    const s = game(3);
    for (const line of ['LNWR', 'GWR', 'SDR', 'TVR', 'HSR']) {
      s.lines[L(line)]!.isolated = true;
      s.lines[L(line)]!.retired = 16;
      s.lines[L(line)]!.supply = 0;
    }
    giveShares(s, 1, 'NR', 15);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: targets(s, 0, 'NR')[0]! });
    passVotes(s);
    expect(s.finished).toBe(true);
    expect(s.endReason).toBe('only one line still has shares');
    expect(R.toAct(s)).toEqual([]);
    expect(R.outcome(s)).not.toBeNull();
    expect(R.moves(s, 0)).toEqual([]);
  });

  it('ends when the 60th track tile is laid, after the scorings that move triggers', () => {
    const s = game(3);
    const spot = spotNextTo('city');
    const city = spot.place;
    putLoco(s, 'NR', spot.from, spot.facing);
    giveTokens(s, 1, city, 1);
    // 59 tiles elsewhere on the board, owned by the NR itself (so nothing merges)
    for (let h = 0; h < board.hexIds.length && s.tiles.length < 59; h++) {
      if (!isFree(h) || [spot.from, spot.target].includes(id(h))) continue;
      if (board.neighbour[h]!.includes(H(spot.target))) continue;
      if (board.lines.some((l) => board.neighbour[h]!.includes(board.places[l.start]!.hex))) continue;
      putTile(s, 'NR', id(h));
    }
    expect(s.tiles).toHaveLength(59);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(s.tiles).toHaveLength(60);
    expect(s.finished).toBe(true);
    expect(s.endReason).toBe('all 60 track tiles are laid');
    expect(s.ledger[0]).toMatchObject({ seat: 1, amount: 2000 });
    expect(R.toAct(s)).toEqual([]);
  });

  describe('the 60th tile laid during a merger', () => {
    const spot = quietSpot((near) => near.length === 0, 1);
    /** The NR about to merge into the GWR (track on spot.other), with `laid` tiles on the board. */
    function mergeWith(laid: number) {
      const s = game(3);
      putLoco(s, 'NR', spot.from, spot.facing);
      putTile(s, 'GWR', spot.other);
      giveShares(s, 1, 'NR', 4);
      const near = [spot.from, spot.target, spot.other].map(H);
      for (let h = 0; h < board.hexIds.length && s.tiles.length < laid; h++) {
        if (!isFree(h) || near.includes(h) || board.neighbour[h]!.some((n) => near.includes(n))) continue;
        if (board.lines.some((l) => board.neighbour[h]!.includes(board.places[l.start]!.hex))) continue;
        putTile(s, 'NR', id(h));
      }
      expect(s.tiles).toHaveLength(laid);
      R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
      passVotes(s);
      return s;
    }

    it('the joining tile is the 60th: the merger is scored and completed, then the game ends', () => {
      const s = mergeWith(58);
      expect(s.tiles).toHaveLength(60);
      expect(s.tiles.at(-1)).toMatchObject({ hex: H(spot.target), line: L('GWR') });
      expect(s.lines[L('NR')]!.absorbedInto).toBe(L('GWR'));
      expect(s.lines[L('GWR')]!.held[1]).toBe(2); // four NR shares exchanged for two GWR shares
      expect(s.ledger[0]!.reason).toMatch(/^merger: the NR was absorbed by the GWR/);
      expect(s.finished).toBe(true);
      expect(s.endReason).toBe('all 60 track tiles are laid');
      expect(s.finalScoring.some((l) => l.startsWith('final GWR shares'))).toBe(true);
    });

    it('the tile left behind is the 60th: the merger is still scored and completed, with no joining tile', () => {
      const s = mergeWith(59);
      expect(s.tiles).toHaveLength(60);
      expect(s.tiles.some((t) => t.hex === H(spot.target))).toBe(false);
      expect(s.lines[L('NR')]!.absorbedInto).toBe(L('GWR'));
      expect(s.lines[L('GWR')]!.held[1]).toBe(2);
      expect(s.ledger[0]!.reason).toMatch(/^merger: the NR was absorbed by the GWR/);
      expect(s.finished).toBe(true);
      expect(R.check!(s)).toEqual([]);
    });
  });

  it('names the player with the most money the winner', () => {
    const s = game(3);
    s.finished = true;
    s.money = [5000, 9000, 5000];
    expect(R.outcome(s)!.ranks).toEqual([2, 1, 2]);
  });
});

describe('final scoring', () => {
  it('discards tokens of unconnected cities, then pays each kind of token and passengers 6,000 and 3,000', () => {
    const s = game(3);
    s.lines[L('LMR')]!.connected.push(P('manchester'));
    giveTokens(s, 0, 'sheffield', 2); // steel, steel: Sheffield is joined to no line, so discarded
    giveTokens(s, 1, 'manchester', 3); // textiles, textiles, steel
    s.passengers = [2, 2, 1];
    s.passengerSupply = 4;
    finalScoring(s);
    const by = (reason: string) => s.ledger.filter((p) => p.reason === reason).map((p) => [p.seat, p.amount]);
    expect(by('final steel tokens')).toEqual([[1, 6000]]);
    expect(by('final textiles tokens')).toEqual([[1, 6000]]);
    expect(by('final passengers')).toEqual([
      [0, 4000],
      [1, 4000],
    ]);
    expect(by('final brewing tokens')).toEqual([]);
  });

  it('pays station and share majorities on every surviving line, 1,000 per town and city on it', () => {
    const s = game(3);
    const lmr = s.lines[L('LMR')]!;
    putLoco(s, 'LMR', 'L6', 2);
    putTile(s, 'LMR', 'B9');
    putTile(s, 'LMR', 'D8');
    putStation(s, 0, 'B9');
    putStation(s, 0, 'D8');
    putStation(s, 2, 'L6');
    lmr.connected.push(P('chester'), P('manchester'), P('preston')); // worth 4
    giveShares(s, 1, 'LMR', 4);
    giveShares(s, 2, 'LMR', 4);
    // an absorbed line pays nothing
    s.lines[L('NR')]!.absorbedInto = L('LMR');
    s.lines[L('NR')]!.retired = 16;
    s.lines[L('NR')]!.supply = 0;
    const history = finalScoring(s);
    const by = (prefix: string) => s.ledger.filter((p) => p.reason.startsWith(prefix)).map((p) => [p.seat, p.amount]);
    expect(by('final LMR stations')).toEqual([
      [0, 4000],
      [2, 2000],
    ]);
    expect(by('final LMR shares')).toEqual([
      [1, 3000],
      [2, 3000],
    ]); // tie: (4,000 + 2,000) / 2
    expect(by('final NR')).toEqual([]);
    expect(s.finalScoring.join('\n')).toMatch(
      /final LMR stations \(4 towns and cities\): seat 1 \$4,000, seat 3 \$2,000/,
    );
    // the history names the players ({seat:N}, 0-based, which the server replaces by names)
    expect(history).toContain('final LMR stations (4 towns and cities): {seat:0} $4,000, {seat:2} $2,000');
    expect(history).toContain('final LMR shares (4 towns and cities): {seat:1} $3,000, {seat:2} $3,000');
    expect(history).toContain('final brewing tokens: nobody');
  });
});
