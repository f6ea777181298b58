// Secret money, public history, text commands, SVG, undo and auto moves.
import { describe, expect, it } from 'vitest';
import { board, game, giveShares, giveTokens, H, L, passVotes, putLoco, R, spotNextTo } from './helpers.ts';
import { pay } from '../../../rules/stephensons-rocket/scoring.ts';
import { nameSeats } from '../../../server/game-log.ts';
import type { GameDoc } from '../../../server/store/types.ts';
import { PageRenderer } from '../../../server/render.ts';

const renderer = new PageRenderer();

function scoredGame() {
  const spot = spotNextTo('city');
  const city = spot.place;
  const s = game(3);
  putLoco(s, 'NR', spot.from, spot.facing);
  giveTokens(s, 1, city, 2);
  giveTokens(s, 2, city, 1);
  return {
    s,
    action: { type: 'extend' as const, line: 'NR', to: spot.target },
    cityName: board.places[board.placeIndex.get(city)!]!.name,
  };
}

describe('money is secret until the end', () => {
  it('each seat sees only its own money and payments; a spectator sees none', () => {
    const { s, action } = scoredGame();
    R.apply(s, 0, action);
    expect(s.money).toEqual([0, 2000, 1000]);
    const v1 = R.view(s, 1) as any;
    const v2 = R.view(s, 2) as any;
    const spectator = R.view(s, null) as any;
    expect(v1.you.money).toBe(2000);
    expect(v1.players.map((p: any) => p.money)).toEqual([null, 2000, null]);
    expect(v2.players.map((p: any) => p.money)).toEqual([null, null, 1000]);
    expect(spectator.players.map((p: any) => p.money)).toEqual([null, null, null]);
    expect(spectator.you).toBeNull();
    expect(v1.you.payments).toEqual([{ amount: 2000, reason: expect.stringMatching(/^city scoring/) }]);
    expect(JSON.stringify(v2)).not.toContain('2000');
    expect(JSON.stringify(spectator)).not.toMatch(/2000|1000/);
    expect(v1.payments).toBeNull();
    expect(R.svg!(v2).replace('http://www.w3.org/2000/svg', '')).not.toMatch(/2[,.]?000/);
  });

  it('the public history names who was paid what; the server writes names for {seat:N}', () => {
    const { s, action, cityName } = scoredGame();
    const line = R.describe(action, s, 0);
    expect(line).toMatch(/^extended the NR to /);
    expect(line).toContain(`city scoring for ${cityName} (goods-token majority): {seat:1} $2,000, {seat:2} $1,000`);
    expect(line).not.toMatch(/\bseat \d/i); // players only as {seat:N}
    const doc = { seats: [{ name: 'Ada' }, { name: 'Bob' }, { name: 'Cy' }] } as unknown as GameDoc;
    expect(nameSeats(line, doc)).toContain(
      `city scoring for ${cityName} (goods-token majority): Bob $2,000, Cy $1,000`,
    );
  });

  it("keeps the totals secret though each payment is public: not in another seat's view, the svg or the templates", () => {
    const { s, action } = scoredGame();
    R.apply(s, 0, action); // Bob is paid $2,000 and Cy $1,000 in the open
    pay(s, 1, 5000, 'a later scoring'); // Bob now holds 7,000, a figure no history line shows
    expect(s.money).toEqual([0, 7000, 1000]);
    const players = [
      { seat: 0, name: 'Ada' },
      { seat: 1, name: 'Bob' },
      { seat: 2, name: 'Cy' },
    ];
    const shown = (seat: number | null) => {
      const view = R.view(s, seat);
      const ctx = {
        view,
        players,
        you: seat,
        game: { id: 'g1', title: "Stephenson's Rocket", seq: 3 },
        moveUrl: '/play/k/move',
        seq: 3,
        moves: [],
      };
      return [
        JSON.stringify(view),
        R.svg!(view),
        renderer.gameView('stephensons-rocket', ctx)!,
        renderer.gameViewText('stephensons-rocket', ctx)!,
      ].join('\n');
    };
    expect(shown(1)).toMatch(/7,000/);
    for (const seat of [0, 2, null]) {
      expect(shown(seat)).not.toMatch(/7,?000|5,?000/);
      expect(JSON.stringify(R.view(s, seat))).not.toMatch(/a later scoring/);
    }
    expect(shown(0).replace('http://www.w3.org/2000/svg', '')).not.toMatch(/[12],?000/);
    expect(shown(2)).toMatch(/1,000/); // Cy's own
  });

  it('the end reveals everything', () => {
    const { s, action } = scoredGame();
    R.apply(s, 0, action);
    for (const i of [0, 1, 2, 3, 4, 5])
      if (i !== L('NR')) Object.assign(s.lines[i]!, { isolated: true, retired: 16, supply: 0 });
    giveShares(s, 2, 'NR', s.lines[L('NR')]!.supply - 1);
    const end = { type: 'token' as const, city: 'exeter', good: 'leather' as const };
    R.apply(s, 0, end); // any action ends it: only the NR still has shares
    expect(s.finished).toBe(true);
    const spectator = R.view(s, null) as any;
    expect(spectator.players.map((p: any) => p.money)).toEqual(s.money);
    expect(spectator.payments.length).toBe(s.ledger.length);
    expect(spectator.finalScoring.length).toBeGreaterThan(0);
  });
});

describe('describe, parse, undo, autoMove, svg', () => {
  it('describes moves in words', () => {
    const s = game(2);
    expect(R.describe({ type: 'token', city: 'manchester', good: 'steel' }, s, 0)).toBe(
      'took a steel token from Manchester',
    );
    expect(R.describe({ type: 'extend', line: 'LMR', to: 'L6' }, s, 0)).toMatch(
      /^extended the LMR to L6.*took a LMR share/,
    );
    expect(R.describe({ type: 'station', hex: 'J9' }, s, 0)).toBe('placed a station on J9 (by Manchester, Leeds)');
  });

  it('parses text commands', () => {
    const s = game(2);
    putLoco(s, 'LNWR', 'R12', 5);
    expect(R.parse!('extend LNWR straight', s, 0)).toEqual({
      type: 'extend',
      line: 'LNWR',
      to: board.hexIds[board.neighbour[H('R12')]![5]!],
    });
    expect(R.parse!('extend lnwr left', s, 0)).toEqual({
      type: 'extend',
      line: 'LNWR',
      to: board.hexIds[board.neighbour[H('R12')]![4]!],
    });
    expect(R.parse!('LMR sw', s, 0)).toEqual({ type: 'extend', line: 'LMR', to: 'L6' });
    expect(R.parse!('extend LMR to L6', s, 0)).toEqual({ type: 'extend', line: 'LMR', to: 'L6' });
    expect(() => R.parse!('extend LMR straight', s, 0)).toThrow(/start town has no facing/);
    expect(R.parse!('token Manchester', s, 0)).toEqual({ type: 'token', city: 'manchester', good: 'textiles' });
    expect(R.parse!('token burton brewing', s, 0)).toEqual({ type: 'token', city: 'burton', good: 'brewing' });
    expect(R.parse!('station j9', s, 0)).toEqual({ type: 'station', hex: 'J9' });
    expect(R.parse!('station J9 from Q12', s, 0)).toEqual({ type: 'station', hex: 'J9', from: 'Q12' });
    expect(R.parse!('move station Q12 to J9', s, 0)).toEqual({ type: 'station', hex: 'J9', from: 'Q12' });
    expect(R.parse!('pass', s, 0)).toEqual({ type: 'pass' });
    expect(() => R.parse!('fly to the moon', s, 0)).toThrow(/extend LNWR straight/);
    expect(() => R.parse!('token Atlantis', s, 0)).toThrow(/No city called/);
  });

  it('parses bids in a vote', () => {
    const s = game(2);
    putLoco(s, 'NR', 'P7', 3);
    giveShares(s, 1, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: board.hexIds[board.neighbour[H('P7')]![3]!]! });
    expect(R.parse!('bid 2 left', s, 1)).toEqual({
      type: 'bid',
      amount: 2,
      to: board.hexIds[board.neighbour[H('P7')]![2]!],
    });
    expect(R.parse!('pass', s, 1)).toEqual({ type: 'bid', amount: 0 });
    R.apply(s, 1, R.parse!('bid 1 right', s, 1));
    passVotes(s);
    expect(board.hexIds[s.lines[L('NR')]!.loco]).toBe(board.hexIds[board.neighbour[H('P7')]![4]!]);
  });

  it('does not take back a move that paid someone', () => {
    const { s, action } = scoredGame();
    expect(R.undoable!(action, s)).toBe(false);
  });

  it('lets simple moves be taken back, not bids or moves that open a vote', () => {
    const s = game(2);
    expect(R.undoable!({ type: 'token', city: 'manchester', good: 'steel' }, s)).toBe(true);
    expect(R.undoable!({ type: 'extend', line: 'LMR', to: 'L6' }, s)).toBe(true);
    giveShares(s, 1, 'LMR', 1);
    expect(R.undoable!({ type: 'extend', line: 'LMR', to: 'L6' }, s)).toBe(false);
    R.apply(s, 0, { type: 'extend', line: 'LMR', to: 'L6' });
    expect(R.undoable!({ type: 'bid', amount: 0 }, s)).toBe(false);
  });

  it('auto-moves a simple legal move on a turn', () => {
    const s = game(2);
    const m = R.autoMove!(s, 0)!;
    expect(R.moves(s, 0)).toContainEqual(m);
    expect(R.autoMove!(s, 1)).toBeNull();
  });

  it('draws the board as SVG with lines, locomotives, stations and goods', () => {
    const s = game(2);
    R.apply(s, 0, { type: 'station', hex: 'J9' });
    const svg = R.svg!(R.view(s, 0));
    expect(svg).toMatch(/^<svg[\s>]/);
    expect(svg).toContain('Manchester');
    expect(svg).toContain('#c62828'); // the LMR's red
    expect(svg.length).toBeLessThan(200_000);
  });
});
