// One test per rule of the turn: actions, stations, extending, shares.
import { describe, expect, it } from 'vitest';
import {
  approach,
  board,
  game,
  giveShares,
  H,
  id,
  L,
  nb,
  P,
  passVotes,
  putLoco,
  putStation,
  putTile,
  R,
  refuses,
  targets,
} from './helpers.ts';

describe('turn structure', () => {
  it('gives two actions a turn, then passes clockwise', () => {
    const s = game(3);
    R.apply(s, 0, { type: 'token', city: 'manchester', good: 'textiles' });
    expect(R.toAct(s)).toEqual([0]);
    R.apply(s, 0, { type: 'token', city: 'manchester', good: 'textiles' });
    expect(R.toAct(s)).toEqual([1]);
    expect(s.actionsLeft).toBe(2);
  });

  it('refuses to end a turn early while an action is possible (the rules list no "pass")', () => {
    const s = game(3);
    refuses(s, 0, { type: 'pass' }, /A turn is two actions/);
    R.apply(s, 0, { type: 'token', city: 'manchester', good: 'textiles' });
    refuses(s, 0, { type: 'pass' }, /A turn is two actions/);
    expect(R.moves(s, 0).some((m) => m.type === 'pass')).toBe(false);
  });

  it('in a game set up under rules version 1 a turn may still be ended at any time', () => {
    const s = R.setup(3, 'old', { rulesVersion: 1 });
    R.apply(s, 0, { type: 'pass' });
    expect(R.toAct(s)).toEqual([1]);
  });

  it('ends the turn early when no action is possible, and only then offers it', () => {
    const s = game(3);
    for (const goods of s.cityGoods) goods.length = 0;
    s.extended = s.lines.map((_, i) => i); // every line already moved this turn
    s.stations[1] = board.hexIds.map((_, h) => h).filter((h) => board.placeAt[h]! < 0); // no hex left for a station
    expect(R.moves(s, 0)).toEqual([{ type: 'pass' }]);
    R.apply(s, 0, { type: 'pass' });
    expect(R.toAct(s)).toEqual([1]);
  });

  it('allows the same action twice but never extends one line twice in a turn', () => {
    const s = game(3);
    R.apply(s, 0, { type: 'extend', line: 'LMR', to: 'L6' });
    refuses(s, 0, { type: 'extend', line: 'LMR', to: nb('L6', 2) }, /already extended the LMR this turn/);
    R.apply(s, 0, { type: 'extend', line: 'GWR', to: nb(id(board.places[P('bristol')]!.hex), 1) });
    expect(R.toAct(s)).toEqual([1]);
  });

  it('refuses moves out of turn', () => {
    const s = game(3);
    refuses(s, 1, { type: 'token', city: 'manchester', good: 'steel' }, /not your turn/);
  });
});

describe('take a city token', () => {
  it('moves a token from the city to the player, face up', () => {
    const s = game(2);
    R.apply(s, 0, { type: 'token', city: 'sheffield', good: 'brewing' });
    expect(s.cityGoods[P('sheffield')]).toEqual(['steel', 'steel']);
    expect(s.tokens[0]).toEqual([{ city: P('sheffield'), good: 'brewing' }]);
    expect((R.view(s, 1).players as any[])[0].tokens.brewing).toBe(1);
  });

  it('refuses a good the city does not hold', () => {
    const s = game(2);
    refuses(s, 0, { type: 'token', city: 'burton', good: 'steel' }, /Burton upon Trent has no steel token/);
    refuses(
      s,
      0,
      { type: 'token', city: 'leeds', good: 'steel' },
      /leeds is not a city: the cities are Manchester, .*Burton upon Trent/,
    );
  });

  it('knows a city by its id or its name, in any case', () => {
    const s = game(2);
    R.apply(s, 0, { type: 'token', city: 'Burton upon Trent', good: 'brewing' });
    R.apply(s, 0, { type: 'token', city: 'BURTON', good: 'brewing' });
    expect(s.tokens[0]).toEqual([
      { city: P('burton'), good: 'brewing' },
      { city: P('burton'), good: 'brewing' },
    ]);
  });
});

describe('stations', () => {
  it('places a station on an empty space and may move it later', () => {
    const s = game(2);
    R.apply(s, 0, { type: 'station', hex: 'J9' });
    expect(s.stations[0]!.filter((h) => h >= 0)).toEqual([H('J9')]);
    R.apply(s, 0, { type: 'station', hex: 'Q12', from: 'J9' });
    expect(s.stations[0]!.filter((h) => h >= 0)).toEqual([H('Q12')]);
  });

  it('never on a town, a city or track', () => {
    const s = game(2);
    putTile(s, 'GWR', 'Q12');
    refuses(s, 0, { type: 'station', hex: 'I9' }, /may not stand on Leeds/);
    refuses(s, 0, { type: 'station', hex: 'K8' }, /may not stand on Manchester/);
    refuses(s, 0, { type: 'station', hex: 'Q12' }, /not be placed on track/);
  });

  it('never next to a locomotive or another station', () => {
    const s = game(2);
    refuses(s, 0, { type: 'station', hex: 'K7' }, /next to a locomotive/); // beside Liverpool, where the LMR stands
    putStation(s, 1, 'Q12');
    refuses(s, 0, { type: 'station', hex: nb('Q12', 0) }, /next to another station/);
    refuses(s, 0, { type: 'station', hex: 'Q12' }, /already a station/);
  });

  it('only moves your own stations; one on a line may be moved off it, leaving the track', () => {
    const s = game(2);
    putStation(s, 1, 'Q12');
    refuses(s, 0, { type: 'station', hex: 'J9', from: 'Q12' }, /no station on Q12/);
    putStation(s, 0, 'R10');
    putTile(s, 'LNWR', 'R10');
    refuses(s, 0, { type: 'station', hex: 'R10', from: 'R10' }, /^The station is already there\.$/); // not "on track"
    R.apply(s, 0, { type: 'station', hex: 'J9', from: 'R10' });
    expect(s.stations[0]).toContain(H('J9'));
    expect(s.stations[0]).not.toContain(H('R10'));
    expect(s.tiles.map((t) => id(t.hex))).toContain('R10');
  });

  it('has seven stations a player; then only moves', () => {
    const s = game(2);
    s.stations[0] = ['B9', 'D8', 'G8', 'H12', 'N15', 'Q7', 'W4'].map(H);
    refuses(s, 0, { type: 'station', hex: 'J9' }, /All your stations are on the board/);
  });
});

describe('extending a line', () => {
  it('leaves the start town to any free neighbour, laying no track', () => {
    const s = game(2);
    const moves = R.moves(s, 0)
      .filter((m) => m.type === 'extend' && m.line === 'LMR')
      .map((m: any) => m.to)
      .sort();
    expect(moves).toEqual(['K7', 'L6']); // the others are sea, Preston and Chester
    R.apply(s, 0, { type: 'extend', line: 'LMR', to: 'L6' });
    expect(s.tiles).toHaveLength(0);
    expect(id(s.lines[L('LMR')]!.loco)).toBe('L6');
  });

  it('otherwise goes only straight, half left or half right, laying track behind', () => {
    const s = game(2);
    putLoco(s, 'GWR', 'U8', 0);
    expect(
      R.moves(s, 0)
        .filter((m) => m.type === 'extend' && m.line === 'GWR')
        .map((m: any) => m.to)
        .sort(),
    ).toEqual([nb('U8', 5), nb('U8', 0), nb('U8', 1)].sort());
    refuses(
      s,
      0,
      { type: 'extend', line: 'GWR', to: nb('U8', 3) },
      /only move straight ahead, half left or half right/,
    );
    refuses(s, 0, { type: 'extend', line: 'GWR', to: nb('U8', 2) }, /only move straight ahead/);
    R.apply(s, 0, { type: 'extend', line: 'GWR', to: nb('U8', 1) });
    expect(s.tiles).toEqual([{ hex: H('U8'), line: L('GWR'), sides: [3, 1] }]);
    expect(s.lines[L('GWR')]!.facing).toBe(1);
  });

  it('never into a town or city', () => {
    const s = game(2);
    refuses(s, 0, { type: 'extend', line: 'LMR', to: 'J7' }, /may not move into Preston/);
    const { from } = approach(s, 'SDR', 'K8');
    void from;
    refuses(s, 0, { type: 'extend', line: 'SDR', to: 'K8' }, /may not move into Manchester/);
  });

  it('never back over track or onto another locomotive', () => {
    const s = game(2);
    putLoco(s, 'GWR', 'U8', 0);
    putTile(s, 'TVR', nb('U8', 0));
    refuses(s, 0, { type: 'extend', line: 'GWR', to: nb('U8', 0) }, /already has track/);
    putLoco(s, 'HSR', nb('U8', 1), 3);
    refuses(s, 0, { type: 'extend', line: 'GWR', to: nb('U8', 1) }, /Another locomotive stands/);
  });

  it('never back onto its own track', () => {
    const s = game(2);
    // the GWR has come round in a curve: its own track lies half left ahead
    putLoco(s, 'GWR', 'U8', 0);
    putTile(s, 'GWR', nb('U8', 5));
    refuses(s, 0, { type: 'extend', line: 'GWR', to: nb('U8', 5) }, /already has track/);
    expect(targets(s, 0, 'GWR')).not.toContain(nb('U8', 5));
  });

  it('lays straight or curved track depending on the turn', () => {
    const s = game(2);
    putLoco(s, 'GWR', 'U8', 0);
    R.apply(s, 0, { type: 'extend', line: 'GWR', to: nb('U8', 0) });
    const v = R.view(s, 0) as any;
    expect(v.tiles).toEqual([{ hex: 'U8', line: 'GWR', sides: [3, 0], kind: 'straight' }]);
  });

  it('may move onto a station, and lays the track under it when it moves on', () => {
    const s = game(2);
    putLoco(s, 'GWR', 'U8', 0);
    const ahead = nb('U8', 0);
    putStation(s, 0, ahead);
    R.apply(s, 0, { type: 'extend', line: 'GWR', to: ahead });
    R.apply(s, 0, { type: 'token', city: 'exeter', good: 'leather' });
    R.apply(s, 1, { type: 'extend', line: 'GWR', to: nb(ahead, 0) });
    passVotes(s);
    expect(s.tiles.map((t) => id(t.hex))).toContain(ahead);
    expect(s.stations[0]).toContain(H(ahead));
  });

  it('gives the mover a share while any are left, and never again once they ran out', () => {
    const s = game(2);
    const l = s.lines[L('NR')]!;
    giveShares(s, 1, 'NR', 15);
    putLoco(s, 'NR', 'P7', 3);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: nb('P7', 3) });
    expect(l.held[0]).toBe(1);
    expect(l.supply).toBe(0);
    expect(l.exhausted).toBe(true);
    // the vote's winner hands 3 shares back to the supply, but none is taken again
    R.apply(s, 1, { type: 'bid', amount: 3, to: nb('P7', 2) });
    expect(l.supply).toBe(3);
    R.apply(s, 0, { type: 'token', city: 'manchester', good: 'steel' });
    R.apply(s, 1, { type: 'extend', line: 'NR', to: targets(s, 1, 'NR')[0]! });
    passVotes(s);
    expect(l.held).toEqual([1, 12]);
    expect(l.supply).toBe(3);
  });

  it('no move next to two other lines', () => {
    const s = game(2);
    putLoco(s, 'GWR', 'U8', 0);
    const ahead = nb('U8', 0);
    putTile(s, 'TVR', nb(ahead, 5));
    putTile(s, 'LNWR', nb(ahead, 1));
    refuses(s, 0, { type: 'extend', line: 'GWR', to: ahead }, /next to two other lines/);
  });
});

describe('bad input is refused with a clear message, the state byte for byte unchanged', () => {
  const long = 'x'.repeat(100_000);

  it('odd shapes', () => {
    const s = game(3);
    for (const raw of [null, 7, 'extend', [], [{ type: 'pass' }]])
      refuses(s, 0, raw, /send an object whose type is token, station, extend, bid or pass/);
    refuses(s, 0, {}, /no type: use token, station/);
    refuses(s, 0, Object.create({ type: 'pass' }), /no type/);
    refuses(s, 0, { type: 'fly' }, /"fly" is not a move/);
    refuses(s, 0, { type: 7 }, /type of a move is a word: use token/);
    refuses(s, 0, { type: 'token' }, /Bad city in the token move/);
    refuses(
      s,
      0,
      { type: 'token', city: 'manchester', good: 'gold' },
      /Bad good .* one of steel, textiles, brewing, leather/,
    );
    refuses(s, 0, { type: 'station', hex: 5 }, /Bad hex .* a hex label/);
    refuses(s, 0, { type: 'extend', line: 'LMR' }, /Bad to in the extend move/);
    refuses(s, 0, { type: 'pass', now: true }, /The pass move has no field "now"/);
    refuses(s, 0, { type: 'token', city: long, good: 'steel' }, /Bad city/);
  });

  it('unknown ids and seats', () => {
    const s = game(3);
    refuses(s, 0, { type: 'token', city: '__proto__', good: 'steel' }, /__proto__ is not a city/);
    refuses(s, 0, { type: 'token', city: 'leeds', good: 'steel' }, /not a city/);
    refuses(s, 0, { type: 'station', hex: 'Z99' }, /not on the map/);
    refuses(s, 0, { type: 'station', hex: 'J9', from: 'K9' }, /no station on K9/);
    refuses(s, 0, { type: 'extend', line: 'constructor', to: 'L6' }, /no such line: the lines are LNWR/);
    refuses(s, 0, { type: 'extend', line: 'LMR', to: 'toString' }, /Name a hex on the map/);
    for (const seat of [3, -1, 1e30, NaN, 0.5]) refuses(s, seat, { type: 'pass' }, /No such seat/);
    refuses(s, 1, { type: 'pass' }, /not your turn/);
    refuses(s, 0, { type: 'bid', amount: 1, to: 'L6' }, /no vote going on/);
  });

  it('huge or broken numbers in a vote', () => {
    const s = game(3);
    putLoco(s, 'NR', 'P7', 3);
    giveShares(s, 1, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: nb('P7', 3) });
    for (const amount of [1e12, -1, 1.5, '2', Infinity])
      refuses(s, 1, { type: 'bid', amount, to: nb('P7', 3) }, /Bad amount .* a whole number of shares, 0 to pass/);
    refuses(s, 1, { type: 'bid', amount: 3, to: nb('P7', 3) }, /hold only 2/);
    refuses(s, 1, { type: 'bid', amount: 1 }, /Name where the locomotive goes/);
    refuses(s, 1, { type: 'extend', line: 'LMR', to: 'L6' }, /direction vote is going on/);
  });

  it('after the end every move is refused', () => {
    const s = game(3);
    s.finished = true;
    refuses(s, 0, { type: 'pass' }, /game is over/);
  });

  it('text commands quote long words back cut short', () => {
    const s = game(3);
    expect(() => R.parse!(`token ${long}`, s, 0)).toThrow(/No city called "x{30}…"\. The cities/);
    expect(() => R.parse!(`extend LMR ${long}`, s, 0)).toThrow(/^"x{30}…" is not a direction or a hex/);
    expect(() => R.parse!('station J9 from', s, 0)).toThrow(/which of your stations to move/);
  });

  it('text commands with words left over are refused, not cut short', () => {
    const s = game(3);
    putStation(s, 0, 'Q12');
    // "station J9 Q12" once placed a new station on J9, ignoring the Q12 the player meant to move
    expect(() => R.parse!('station J9 Q12', s, 0)).toThrow(
      /^"Q12" is more than the command takes: write "station F7", or "station F7 from G8"/,
    );
    expect(() => R.parse!('station J9 from Q12 now', s, 0)).toThrow(/"now" is more than/);
    expect(() => R.parse!('move station Q12 to J9 K9', s, 0)).toThrow(/"K9" is more than .*"move station G8 to F7"/);
    expect(() => R.parse!('extend LMR L6 L5', s, 0)).toThrow(/"L5" is more than .*a line moves once a turn/);
    expect(() => R.parse!('LMR to L6 please', s, 0)).toThrow(/"please" is more than/);
    expect(R.parse!('move station Q12 J9', s, 0)).toEqual({ type: 'station', hex: 'J9', from: 'Q12' });
    putLoco(s, 'NR', 'P7', 3);
    giveShares(s, 1, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: nb('P7', 3) });
    expect(() => R.parse!('bid 2 left right', s, 1)).toThrow(/"right" is more than .*"bid 2 left"/);
    expect(R.parse!('bid 0', s, 1)).toEqual({ type: 'bid', amount: 0 });
  });

  it('a seat that does not exist gets the spectator view', () => {
    const s = game(3);
    s.money = [1000, 2000, 3000];
    expect(R.view(s, 7)).toEqual(R.view(s, null));
    expect(R.view(s, -1)).toEqual(R.view(s, null));
  });
});
