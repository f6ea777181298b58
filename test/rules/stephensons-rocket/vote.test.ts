// The direction vote and passengers.
import { describe, expect, it } from 'vitest';
import { game, giveShares, H, id, L, nb, putLoco, putStation, R, refuses } from './helpers.ts';

// NR locomotive on P7 facing west: ahead are nb(P7, 2), nb(P7, 3), nb(P7, 4); nothing merges there.
const FROM = 'P7';
const LEFT = nb(FROM, 2);
const STRAIGHT = nb(FROM, 3);
const RIGHT = nb(FROM, 4);

function setUp(seats = 3) {
  const s = game(seats);
  putLoco(s, 'NR', FROM, 3);
  return s;
}

describe('direction vote', () => {
  it('is skipped when nobody else holds shares of the line', () => {
    const s = setUp();
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    expect(s.vote).toBeNull();
    expect(id(s.lines[L('NR')]!.loco)).toBe(STRAIGHT);
  });

  it("goes once round from the mover's left, each bid higher; the winner returns his shares, the others keep theirs", () => {
    const s = setUp();
    giveShares(s, 1, 'NR', 3);
    giveShares(s, 2, 'NR', 4);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    expect(R.toAct(s)).toEqual([1]);
    // a seat that must bid always has moves: pass, and bids
    const moves = R.moves(s, 1);
    expect(moves[0]).toEqual({ type: 'bid', amount: 0 });
    expect(moves).toContainEqual({ type: 'bid', amount: 3, to: LEFT });
    R.apply(s, 1, { type: 'bid', amount: 2, to: LEFT });
    expect(R.toAct(s)).toEqual([2]);
    refuses(s, 2, { type: 'bid', amount: 2, to: RIGHT }, /must beat the last bid/);
    refuses(s, 2, { type: 'bid', amount: 5, to: RIGHT }, /hold only 4/);
    refuses(s, 2, { type: 'bid', amount: 3, to: nb(FROM, 0) }, /Name where the locomotive goes/);
    refuses(s, 0, { type: 'bid', amount: 3, to: RIGHT }, /not your turn to bid/);
    R.apply(s, 2, { type: 'bid', amount: 3, to: RIGHT });
    // the mover holds a single share: he cannot match 3, so the vote ends
    expect(s.vote).toBeNull();
    const nr = s.lines[L('NR')]!;
    expect(id(nr.loco)).toBe(RIGHT);
    expect(nr.held).toEqual([1, 3, 1]);
    expect(nr.supply).toBe(16 - 8 + 3);
    expect(s.tiles).toContainEqual({ hex: H(FROM), line: L('NR'), sides: [0, 4] });
    expect(R.toAct(s)).toEqual([0]); // the mover's second action
  });

  it('lets the mover, bidding last, win by only matching', () => {
    const s = setUp();
    giveShares(s, 0, 'NR', 1);
    giveShares(s, 1, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    R.apply(s, 1, { type: 'bid', amount: 2, to: LEFT });
    expect(R.toAct(s)).toEqual([0]); // seat 2 holds nothing and is not asked
    refuses(s, 0, { type: 'bid', amount: 1, to: STRAIGHT }, /at least match the bid of 2/);
    R.apply(s, 0, { type: 'bid', amount: 2, to: STRAIGHT });
    const nr = s.lines[L('NR')]!;
    expect(id(nr.loco)).toBe(STRAIGHT);
    expect(nr.held).toEqual([0, 2, 0]);
  });

  it("keeps the mover's choice when everybody passes", () => {
    const s = setUp();
    giveShares(s, 1, 'NR', 2);
    giveShares(s, 2, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: LEFT });
    R.apply(s, 1, { type: 'bid', amount: 0 });
    R.apply(s, 2, { type: 'pass' });
    expect(s.vote).toBeNull();
    expect(id(s.lines[L('NR')]!.loco)).toBe(LEFT);
    expect(s.lines[L('NR')]!.held).toEqual([1, 2, 2]);
  });

  it("starts from the mover's left whoever moves", () => {
    const s = setUp(4);
    giveShares(s, 0, 'NR', 1);
    giveShares(s, 2, 'NR', 1);
    giveShares(s, 3, 'NR', 1);
    R.apply(s, 0, { type: 'token', city: 'exeter', good: 'leather' });
    R.apply(s, 0, { type: 'token', city: 'exeter', good: 'brewing' });
    R.apply(s, 1, { type: 'extend', line: 'NR', to: STRAIGHT });
    expect(s.vote!.order).toEqual([2, 3, 0, 1]);
    expect(R.toAct(s)).toEqual([2]);
  });

  it('refuses other actions while a vote is open', () => {
    const s = setUp();
    giveShares(s, 1, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    refuses(s, 1, { type: 'token', city: 'exeter', good: 'leather' }, /direction vote is going on/);
  });

  it('autoMove bids nothing', () => {
    const s = setUp();
    giveShares(s, 1, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    expect(R.autoMove!(s, 1)).toEqual({ type: 'bid', amount: 0 });
  });
});

describe('passengers', () => {
  it("go to the mover who enters another player's station", () => {
    const s = setUp();
    putStation(s, 1, STRAIGHT);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    expect(s.passengers).toEqual([1, 0, 0]);
    expect(s.passengerSupply).toBe(8);
  });

  it("not for the mover's own station", () => {
    const s = setUp();
    putStation(s, 0, STRAIGHT);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    expect(s.passengers).toEqual([0, 0, 0]);
  });

  it('not when another player won the vote, but yes when the mover won it', () => {
    const s = setUp();
    putStation(s, 2, LEFT);
    giveShares(s, 1, 'NR', 1);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    R.apply(s, 1, { type: 'bid', amount: 1, to: LEFT });
    R.apply(s, 0, { type: 'bid', amount: 0 });
    expect(id(s.lines[L('NR')]!.loco)).toBe(LEFT);
    expect(s.passengers).toEqual([0, 0, 0]);

    const t = setUp();
    putStation(t, 2, LEFT);
    giveShares(t, 1, 'NR', 1);
    R.apply(t, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    R.apply(t, 1, { type: 'bid', amount: 1, to: STRAIGHT });
    R.apply(t, 0, { type: 'bid', amount: 1, to: LEFT });
    expect(t.passengers).toEqual([1, 0, 0]);
  });

  it('only nine: none once they are gone', () => {
    const s = setUp();
    s.passengerSupply = 0;
    s.passengers = [9, 0, 0];
    putStation(s, 1, STRAIGHT);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: STRAIGHT });
    expect(s.passengers).toEqual([9, 0, 0]);
  });
});
