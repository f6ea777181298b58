// The private auction, from hand-set positions.
import { describe, expect, it } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import { refuses } from './positions.ts';

function fresh(seats = 3, ruleSet = 'seed'): Game1830State {
  return g.setup(seats, 'auction', { rule_set: ruleSet });
}

describe('1830 private auction', () => {
  it('buys the cheapest private at face value and passes the turn on', () => {
    const s = fresh();
    g.apply(s, 0, { type: 'bid', company: 'SV', price: 20 });
    expect(s.privates.SV!.owner).toBe(0);
    expect(s.cash[0]).toBe(780);
    expect(g.toAct(s)).toEqual([1]);
  });

  it('refuses to buy the cheapest at another price and bids below face + $5', () => {
    const s = fresh();
    refuses(s, 0, { type: 'bid', company: 'SV', price: 25 }, /bought at its price of \$20/);
    refuses(s, 0, { type: 'bid', company: 'CA', price: 160 }, /minimum bid for CA is \$165/);
    refuses(s, 1, { type: 'bid', company: 'CA', price: 165 }, /not your turn/);
  });

  it('locks bid money: a player may not bid more than the cash not committed to other bids', () => {
    const s = fresh();
    g.apply(s, 0, { type: 'bid', company: 'BO', price: 700 });
    g.apply(s, 1, { type: 'pass' });
    g.apply(s, 2, { type: 'pass' });
    refuses(s, 0, { type: 'bid', company: 'CA', price: 165 }, /only \$100 is not committed/);
  });

  it('resolves bids when the cheaper privates are gone: one bid buys, two start a bid war led by the lowest bidder', () => {
    const s = fresh();
    g.apply(s, 0, { type: 'bid', company: 'CS', price: 45 });
    g.apply(s, 1, { type: 'bid', company: 'CS', price: 50 });
    g.apply(s, 2, { type: 'bid', company: 'DH', price: 75 });
    g.apply(s, 0, { type: 'bid', company: 'SV', price: 20 });
    // CS has two bids: a bid war, the lower bidder (seat 0) acts
    expect(s.round.kind === 'auction' && s.round.auctioning).toBe('CS');
    expect(g.toAct(s)).toEqual([0]);
    refuses(s, 0, { type: 'bid', company: 'CS', price: 52 }, /minimum bid for CS is \$55/);
    g.apply(s, 0, { type: 'bid', company: 'CS', price: 55 });
    expect(g.toAct(s)).toEqual([1]);
    g.apply(s, 1, { type: 'pass' });
    expect(s.privates.CS!.owner).toBe(0);
    expect(s.cash[0]).toBe(800 - 20 - 55);
    // DH had a single bid and is bought at once by seat 2
    expect(s.privates.DH!.owner).toBe(2);
    expect(s.cash[2]).toBe(725);
    // the turn goes on with the player after the one who bought SV
    expect(g.toAct(s)).toEqual([1]);
  });

  it('under 18xx.games SV drops on to $0 when everyone passes it at $5, and the next player takes it for nothing', () => {
    const s = fresh(2, '18xx.games');
    for (let i = 0; i < 6; i++) g.apply(s, g.toAct(s)[0]!, { type: 'pass' });
    expect(s.privates.SV!.discount).toBe(15);
    const first = g.toAct(s)[0]!;
    g.apply(s, first, { type: 'pass' });
    g.apply(s, 1 - first, { type: 'pass' });
    expect(s.privates.SV!.discount).toBe(20);
    expect(s.privates.SV!.owner).toBe(first);
    expect(s.cash[first]).toBe(1200);
  });

  it('drops SV by $5 when everyone passes, and when everyone passes it at $5 the next player must take it at $5 (the seed)', () => {
    const s = fresh(2);
    for (let round = 0; round < 3; round++) {
      g.apply(s, g.toAct(s)[0]!, { type: 'pass' });
      g.apply(s, g.toAct(s)[0]!, { type: 'pass' });
    }
    expect(s.privates.SV!.discount).toBe(15);
    expect(g.moves(s, g.toAct(s)[0]!)).toContainEqual({ type: 'bid', company: 'SV', price: 5 });
    const first = g.toAct(s)[0]!;
    g.apply(s, first, { type: 'pass' });
    g.apply(s, 1 - first, { type: 'pass' });
    expect(s.privates.SV!.owner).toBe(first);
    expect(s.cash[first]).toBe(1200 - 5);
    expect(s.privates.SV!.discount).toBe(15);
  });

  it('a player made to take SV at $5 pays only what his bids leave free', () => {
    const s = fresh(2);
    for (let i = 0; i < 6; i++) g.apply(s, g.toAct(s)[0]!, { type: 'pass' });
    expect(s.privates.SV!.discount).toBe(15);
    const first = g.toAct(s)[0]!;
    // by hand: the player who passes first at $5 has all but $3 of his $1200 in a bid on BO
    (s.round as { bids: Record<string, { seat: number; price: number }[]> }).bids.BO = [{ seat: first, price: 1197 }];
    g.apply(s, first, { type: 'pass' });
    g.apply(s, 1 - first, { type: 'pass' });
    expect(s.privates.SV!.owner).toBe(first);
    expect(s.cash[first]).toBe(1200 - 3);
  });

  it('pays the privates when everyone passes after SV is sold', () => {
    const s = fresh(2);
    g.apply(s, 0, { type: 'bid', company: 'SV', price: 20 });
    g.apply(s, 1, { type: 'pass' });
    g.apply(s, 0, { type: 'pass' });
    expect(s.cash[0]).toBe(1200 - 20 + 5);
    expect(s.bank).toBe(12000 - 2400 + 20 - 5);
  });

  it('gives the C&A buyer a free 10% of PRR and the B&O buyer the B&O presidency with a par value to set', () => {
    const s = fresh(2);
    s.cash = [2000, 2000];
    s.bank = 12000 - 4000;
    for (const [seat, sym, price] of [
      [0, 'SV', 20],
      [1, 'CS', 40],
      [0, 'DH', 70],
      [1, 'MH', 110],
      [0, 'CA', 160],
      [1, 'BO', 220],
    ] as const) {
      expect(g.toAct(s)).toEqual([seat]);
      g.apply(s, seat, { type: 'bid', company: sym, price });
    }
    expect(s.corps.PRR!.held[0]).toBe(10);
    expect(s.corps.PRR!.president).toBeNull();
    expect(g.toAct(s)).toEqual([1]);
    refuses(s, 1, { type: 'par', corp: 'B&O', price: 80 }, /par value must be one of/i);
    g.apply(s, 1, { type: 'par', corp: 'B&O', price: 67 });
    expect(s.corps['B&O']!.president).toBe(1);
    expect(s.corps['B&O']!.held[1]).toBe(20);
    expect(s.round.kind).toBe('stock');
  });
});
