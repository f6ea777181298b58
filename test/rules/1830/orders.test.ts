// Standing orders (rules/1830/orders.ts) on hand-set positions, through the rules' own entry
// points: game1830.orders.arm / decide / describe / offers, and apply for what the order plays.
import { describe, expect, it } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import { importExport } from '../../../rules/1830/import/replay.ts';
import { RuleError, type StandingOrder } from '../../../rules/types.ts';
import { laterRound, parred, realGame } from './positions.ts';

const orders = g.orders!;

/** Arms, then decides at once and again after `apply`-ing what the order plays, as the server does. */
function decide(s: Game1830State, seat: number, order: StandingOrder) {
  const before = JSON.stringify(s);
  const d = orders.decide(s, seat, order);
  expect(JSON.stringify(s)).toBe(before); // pure: the position is only read
  return d;
}

function play(s: Game1830State, seat: number, order: StandingOrder) {
  const d = decide(s, seat, order);
  if (!('play' in d)) throw new Error(`expected a move, got ${JSON.stringify(d)}`);
  g.apply(s, seat, d.play);
  return d;
}

const armRefused = (s: Game1830State, seat: number, spec: unknown, words: RegExp) => {
  expect(() => orders.arm(s, seat, spec)).toThrow(RuleError);
  expect(() => orders.arm(s, seat, spec)).toThrow(words);
};

describe('1830 standing orders: the private auction', () => {
  it('passes unless somebody bids on the private named, then stops', () => {
    const s = g.setup(4, 'orders', {});
    const order = orders.arm(s, 1, { kind: 'auctionPass', unless: 'DH' });
    expect(orders.describe(order)).toBe('Pass in the private auction unless somebody bids on DH');
    g.apply(s, 0, { type: 'bid', company: 'SV', price: 20 }); // seat 0 buys SV
    expect(g.toAct(s)).toEqual([1]);
    expect(play(s, 1, order)).toEqual({ play: { type: 'pass' } });
    g.apply(s, 2, { type: 'bid', company: 'CA', price: 165 }); // a bid elsewhere changes nothing
    g.apply(s, 3, { type: 'pass' });
    g.apply(s, 0, { type: 'pass' });
    expect(play(s, 1, order)).toEqual({ play: { type: 'pass' } });
    g.apply(s, 2, { type: 'bid', company: 'DH', price: 75 });
    g.apply(s, 3, { type: 'pass' });
    g.apply(s, 0, { type: 'pass' });
    expect(decide(s, 1, order)).toEqual({ stop: 'somebody bid on DH' });
  });

  it('bids on a private up to the limit: raises by the minimum, passes while on top, stops past the limit', () => {
    const s = g.setup(4, 'orders', {});
    const order = orders.arm(s, 1, { kind: 'auctionBid', company: 'CA', upTo: '175' });
    expect(orders.describe(order)).toBe('Bid on CA up to $175');
    g.apply(s, 0, { type: 'bid', company: 'CA', price: 165 });
    expect(play(s, 1, order)).toEqual({ play: { type: 'bid', company: 'CA', price: 170 } });
    g.apply(s, 2, { type: 'pass' });
    g.apply(s, 3, { type: 'pass' });
    g.apply(s, 0, { type: 'pass' });
    expect(play(s, 1, order)).toEqual({ play: { type: 'pass' } }); // on top: nothing to do
    g.apply(s, 2, { type: 'bid', company: 'CA', price: 180 }); // (everybody had passed once: SV is at $15)
    g.apply(s, 3, { type: 'pass' });
    g.apply(s, 0, { type: 'pass' });
    expect(decide(s, 1, order)).toEqual({ stop: 'the bids for CA passed your limit of $175' });
  });

  it('stops when a full round of passes made the cheapest private cheaper, and refuses orders it cannot keep', () => {
    const s = g.setup(3, 'orders', {});
    const order = orders.arm(s, 1, { kind: 'auctionPass', unless: 'BO' });
    g.apply(s, 0, { type: 'pass' });
    play(s, 1, order);
    g.apply(s, 2, { type: 'pass' }); // everybody passed: SV drops to $15
    g.apply(s, 0, { type: 'pass' });
    expect(decide(s, 1, order)).toEqual({ stop: 'everybody passed and SV dropped to $15' });
    armRefused(s, 1, { kind: 'auctionBid', company: 'CA', upTo: 100 }, /at least \$165/);
    armRefused(s, 1, { kind: 'auctionPass', unless: 'XX' }, /no private company XX/);
    armRefused(s, 1, { kind: 'stockPass' }, /stock round/);
    armRefused(s, 1, { kind: 'sellEverything' }, /not understood/);
  });
});

/** A later stock round: PRR parred at $67 (seat 0 president with 30%, seat 1 10%), seat 0 to act. */
function stockPosition(): Game1830State {
  const s = laterRound();
  parred(s, 'PRR', [0, 6], { 0: 30, 1: 10 });
  return s;
}

describe('1830 standing orders: passing in a stock round until something changes', () => {
  it('passes while nothing changes, and ends quietly with the round', () => {
    const s = stockPosition();
    const order = orders.arm(s, 1, { kind: 'stockPass' });
    expect(orders.describe(order)).toMatch(/^Pass in stock round 2 until something changes \(a sale in a corporation/);
    g.apply(s, 0, { type: 'pass' });
    expect(play(s, 1, order)).toEqual({ play: { type: 'pass' } });
    g.apply(s, 2, { type: 'pass' });
    g.apply(s, 3, { type: 'pass' }); // the round ends (nothing floated operates: the next stock round)
    expect(s.turn).toBe(3);
    expect(decide(s, 1, order)).toEqual({ expire: true });
  });

  it('stops on a sale in a corporation I hold', () => {
    const s = stockPosition();
    const order = orders.arm(s, 1, { kind: 'stockPass', stops: ['sale'] });
    g.apply(s, 0, { type: 'sell', corp: 'PRR', percent: 10 });
    g.apply(s, 0, { type: 'pass' });
    expect(decide(s, 1, order)).toEqual({ stop: 'somebody sold PRR' });
  });

  it('stops on a new float', () => {
    const s = stockPosition();
    parred(s, 'NYC', [0, 5], { 0: 50 });
    const order = orders.arm(s, 1, { kind: 'stockPass', stops: ['float'] });
    g.apply(s, 0, { type: 'buy', corp: 'NYC', from: 'ipo' }); // 60% sold: NYC floats
    if (g.toAct(s)[0] === 0) g.apply(s, 0, { type: 'pass' });
    expect(s.corps.NYC!.floated).toBe(true);
    expect(decide(s, 1, order)).toEqual({ stop: 'NYC floated' });
  });

  it('stops on a price change of a corporation I hold', () => {
    const s = stockPosition();
    const order = orders.arm(s, 1, { kind: 'stockPass', stops: ['price'] });
    g.apply(s, 0, { type: 'sell', corp: 'PRR', percent: 10 }); // a sale moves the price down a row
    g.apply(s, 0, { type: 'pass' });
    const now = (g.view(s, 1).corporations as { sym: string; price: number }[]).find((c) => c.sym === 'PRR')!.price;
    expect(now).toBeLessThan(100);
    expect(decide(s, 1, order)).toEqual({ stop: `the price of PRR moved from $100 to $${now}` });
  });

  it('stops when a share I could not buy becomes buyable, and not on changes it was not asked to watch', () => {
    const s = stockPosition();
    parred(s, 'C&O', [0, 6], { 0: 60, 2: 40 }); // nothing left in the IPO or the pool
    const order = orders.arm(s, 1, { kind: 'stockPass', stops: ['buyable', 'float'] });
    const quiet = orders.arm(s, 1, { kind: 'stockPass', stops: [] });
    g.apply(s, 0, { type: 'sell', corp: 'C&O', percent: 10 }); // a C&O share in the pool
    g.apply(s, 0, { type: 'pass' });
    expect(decide(s, 1, order)).toEqual({ stop: 'you can now buy C&O' });
    expect(decide(s, 1, quiet)).toEqual({ play: { type: 'pass' } });
  });
});

describe('1830 standing orders: buying each turn', () => {
  it('buys a share each turn, ends the turn, and is done at the percentage asked for', () => {
    const s = stockPosition();
    const order = orders.arm(s, 1, { kind: 'stockBuy', corp: 'PRR', percent: 30 });
    expect(orders.describe(order)).toBe('Buy a share of PRR each stock turn until you hold 30%');
    g.apply(s, 0, { type: 'pass' });
    expect(play(s, 1, order)).toEqual({ play: { type: 'buy', corp: 'PRR', from: 'ipo' } });
    if (g.toAct(s)[0] === 1) expect(play(s, 1, order)).toEqual({ play: { type: 'pass' } });
    for (const seat of [2, 3, 0]) g.apply(s, seat, { type: 'pass' });
    expect(play(s, 1, order)).toEqual({ play: { type: 'buy', corp: 'PRR', from: 'ipo' } });
    expect(s.corps.PRR!.held[1]).toBe(30);
    expect(play(s, 1, order)).toEqual({ play: { type: 'pass' }, done: 'you hold 30% of PRR' });
  });

  it('stops when the corporation floats, and when no share can be bought', () => {
    const s = stockPosition();
    parred(s, 'NYC', [0, 5], { 0: 50 });
    const order = orders.arm(s, 1, { kind: 'stockBuy', corp: 'NYC', percent: 60, untilFloat: 'on' });
    expect(orders.describe(order)).toMatch(/until you hold 60% or it floats$/);
    g.apply(s, 0, { type: 'buy', corp: 'NYC', from: 'ipo' });
    if (g.toAct(s)[0] === 0) g.apply(s, 0, { type: 'pass' });
    expect(decide(s, 1, order)).toEqual({ stop: 'NYC has floated' });

    const t = stockPosition();
    parred(t, 'C&O', [0, 6], { 0: 60, 2: 40 });
    const none = orders.arm(t, 1, { kind: 'stockBuy', corp: 'C&O', percent: 20 });
    g.apply(t, 0, { type: 'pass' });
    expect(decide(t, 1, none)).toEqual({ stop: 'no share of C&O can be bought for you now' });
    armRefused(t, 1, { kind: 'stockBuy', corp: 'NYC', percent: 20 }, /no par value yet/);
    armRefused(t, 1, { kind: 'stockBuy', corp: 'PRR', percent: 10 }, /already hold 10% of PRR/);
  });
});

describe('1830 standing orders: passing on privates in an operating round', () => {
  // 1830_game_end_bank after 73 actions: operating round 3.1, B&O (seat 2) may buy a private.
  const exp = realGame('1830_game_end_bank');
  const atCompanyStep = () => importExport({ ...exp, actions: exp.actions.slice(0, 73) }).state;

  it('passes at the private step only, and ends with the round', () => {
    const s = atCompanyStep();
    expect(s.round.kind === 'operating' && s.round.step).toBe('company');
    const order = orders.arm(s, 2, { kind: 'noPrivates' });
    expect(orders.describe(order)).toBe('Pass on buying privates in operating round 3.1');
    expect(decide(s, 2, order)).toEqual({ play: { type: 'pass' } });
    const earlier = importExport({ ...exp, actions: exp.actions.slice(0, 70) }).state;
    if (earlier.round.kind === 'operating' && earlier.round.step !== 'company')
      expect(decide(earlier, 2, { ...order })).toEqual({ idle: true });
    const next = structuredClone(s);
    next.round = { ...(next.round as object), num: 2 } as Game1830State['round'];
    expect(decide(next, 2, order)).toEqual({ expire: true });
    armRefused(stockPosition(), 0, { kind: 'noPrivates' }, /operating round/);
  });

  it('offers the kinds of order that fit the round', () => {
    expect(orders.offers(g.setup(4, 'o', {}), 0).map((o) => o.kind)).toEqual(['auctionPass', 'auctionBid']);
    expect(orders.offers(stockPosition(), 1).map((o) => o.kind)).toEqual(['stockPass', 'stockBuy']);
    expect(orders.offers(atCompanyStep(), 2).map((o) => o.kind)).toEqual(['noPrivates', 'stockBuy']);
  });
});
