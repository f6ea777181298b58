// Stock rounds and the market, from hand-set positions.
import { describe, expect, it } from 'vitest';
import { game1830 as g } from '../../../rules/1830/index.ts';
import { afterAuction, laterRound, parred, refuses } from './positions.ts';

describe('1830 stock rounds', () => {
  it('starts with the priority deal after the auction and pars at the allowed values only', () => {
    const s = afterAuction();
    expect(s.round.kind).toBe('stock');
    expect(g.toAct(s)).toEqual([2]); // the player after the last buyer of the auction
    refuses(
      s,
      2,
      { type: 'par', corp: 'PRR', price: 95 },
      /par value must be one of \$100, \$90, \$82, \$76, \$71, \$67/i,
    );
    g.apply(s, 2, { type: 'par', corp: 'PRR', price: 67 });
    expect(s.corps.PRR!.president).toBe(2);
    expect(s.cash[2]).toBe(600 - 70 - 134);
  });

  it('refuses sales in the first stock round and a second purchase in one turn', () => {
    const s = afterAuction();
    refuses(s, 2, { type: 'sell', corp: 'B&O', percent: 10 }, /first stock round/);
    g.apply(s, 2, { type: 'buy', corp: 'B&O', from: 'ipo' });
    expect(s.corps['B&O']!.held[2]).toBe(10);
    // seat 2 cannot do anything else this turn: the turn passed on automatically
    expect(g.toAct(s)).toEqual([3]);
  });

  it('floats at 60% sold and pays ten times par to the corporation', () => {
    const s = laterRound();
    g.apply(s, 0, { type: 'par', corp: 'NYC', price: 90 });
    for (const seat of [1, 2, 3, 0]) {
      if (g.toAct(s)[0] !== seat) g.apply(s, g.toAct(s)[0]!, { type: 'pass' });
      if (s.corps.NYC!.floated) break;
      g.apply(s, seat, { type: 'buy', corp: 'NYC', from: 'ipo' });
    }
    expect(s.corps.NYC!.floated).toBe(true);
    expect(s.corps.NYC!.ipo).toBe(40);
    expect(s.corps.NYC!.cash).toBe(900);
  });

  it('refuses buying past 60% outside the orange and brown zones, and allows it in orange', () => {
    const s = laterRound();
    parred(s, 'PRR', [0, 6], { 0: 60 });
    refuses(s, 0, { type: 'buy', corp: 'PRR', from: 'ipo' }, /already hold 60% of PRR/);
    const prr = s.corps.PRR!;
    s.stacks['0,6']!.splice(s.stacks['0,6']!.indexOf('PRR'), 1);
    prr.cell = [4, 1];
    (s.stacks['4,1'] ??= []).push('PRR'); // $41, orange
    g.apply(s, 0, { type: 'buy', corp: 'PRR', from: 'ipo' });
    expect(prr.held[0]).toBe(70);
  });

  it('refuses buying at the certificate limit', () => {
    const s = laterRound([5000, 1000, 1000, 1000]);
    // 4 players: limit 16; seat 0 holds SV and CA (2 certificates) and is given 14 more
    for (const sym of ['NYC', 'C&O']) {
      const c = s.corps[sym]!;
      c.ipoed = true;
      c.par = [0, 6];
      c.cell = [0, 6];
      (s.stacks['0,6'] ??= []).push(sym);
      c.ipo -= 60;
      c.held[0] = 60;
      c.president = 0;
    }
    const erie = s.corps.ERIE!;
    erie.ipoed = true;
    erie.par = [0, 6];
    erie.cell = [0, 6];
    s.stacks['0,6']!.push('ERIE');
    erie.ipo -= 40;
    erie.held[0] = 40;
    erie.president = 0;
    s.bank -= 0;
    refuses(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' }, /certificate limit of 16/);
  });

  it('moves the price down a row per share sold, pays the price before the drop, and refuses selling a company bought back', () => {
    const s = laterRound();
    const bo = s.corps['B&O']!;
    bo.ipo -= 30;
    bo.held[0] = 30;
    s.cash[0]! -= 300;
    s.bank += 300;
    g.apply(s, 0, { type: 'sell', corp: 'B&O', percent: 20 });
    expect(s.cash[0]).toBe(700 + 200);
    expect(bo.cell).toEqual([2, 6]);
    expect(bo.pool).toBe(20);
    refuses(s, 0, { type: 'buy', corp: 'B&O', from: 'pool' }, /sold B&O this round/);
  });

  it('swaps the presidency when the president sells below another holder, and refuses dumping the certificate on the pool', () => {
    const s = laterRound();
    const bo = s.corps['B&O']!; // seat 1 is president with 20%
    refuses(s, 0, { type: 'sell', corp: 'B&O', percent: 10 }, /hold only 0%/);
    g.apply(s, 0, { type: 'pass' });
    refuses(s, 1, { type: 'sell', corp: 'B&O', percent: 20 }, /no other player holds 20%/);
    bo.ipo -= 30;
    bo.held[2] = 30;
    s.cash[2]! -= 300;
    s.bank += 300;
    g.apply(s, 1, { type: 'sell', corp: 'B&O', percent: 20 });
    expect(bo.president).toBe(2);
    expect(bo.held[1]).toBe(0);
    expect(bo.pool).toBe(20);
  });

  it('keeps the presidency on a tie and passes it to the next player in seat order among equal holders', () => {
    const s = laterRound();
    const bo = s.corps['B&O']!;
    bo.ipo -= 60;
    bo.held[1] = 40;
    bo.held[2] = 20;
    bo.held[3] = 20;
    s.cash[1]! -= 200;
    s.cash[2]! -= 200;
    s.cash[3]! -= 200;
    s.bank += 600;
    g.apply(s, 0, { type: 'pass' });
    g.apply(s, 1, { type: 'sell', corp: 'B&O', percent: 30 });
    expect(bo.president).toBe(2);
  });

  it('moves sold-out companies up at the end of the round and gives priority to the player after the last to act', () => {
    const s = laterRound();
    parred(s, 'NYC', [1, 6], { 0: 40, 1: 20, 2: 20, 3: 10 });
    s.corps.NYC!.floated = true;
    g.apply(s, 0, { type: 'pass' });
    g.apply(s, 1, { type: 'pass' });
    g.apply(s, 2, { type: 'pass' });
    g.apply(s, 3, { type: 'buy', corp: 'NYC', from: 'ipo' }); // the last share: NYC is sold out
    g.apply(s, 3, { type: 'pass' }); // ends the turn (seat 3 could still sell)
    for (const seat of [0, 1, 2]) g.apply(s, seat, { type: 'pass' });
    expect(s.round.kind).toBe('stock');
    g.apply(s, 3, { type: 'pass' });
    expect(s.round.kind).toBe('operating');
    expect(s.corps.NYC!.cell).toEqual([0, 6]);
    expect(s.order[0]).toBe(0);
  });

  it('lets yellow-zone shares be bought at the certificate limit, and brown-zone shares be bought several at a time from the pool', () => {
    const s = laterRound([5000, 1000, 1000, 1000]);
    // seat 0 at the certificate limit of 16: SV, CA and 14 certificates of NYC and C&O at $100
    parred(s, 'NYC', [0, 6], { 0: 60 });
    parred(s, 'C&O', [0, 6], { 0: 60 });
    parred(s, 'ERIE', [0, 6], { 0: 40 });
    refuses(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' }, /certificate limit/);
    // B&O drops into the yellow zone ($60): its shares no longer count
    const bo = s.corps['B&O']!;
    s.stacks['0,6']!.splice(s.stacks['0,6']!.indexOf('B&O'), 1);
    bo.cell = [1, 1];
    (s.stacks['1,1'] ??= []).push('B&O');
    g.apply(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' });
    expect(bo.held[0]).toBe(10);
    // brown zone ($25): several pool shares in one turn
    const s2 = laterRound();
    parred(s2, 'PRR', [5, 0], { 1: 20 });
    const prr = s2.corps.PRR!;
    prr.ipo -= 30;
    prr.pool += 30;
    g.apply(s2, 0, { type: 'buy', corp: 'PRR', from: 'pool' });
    g.apply(s2, 0, { type: 'buy', corp: 'PRR', from: 'pool' });
    expect(prr.held[0]).toBe(30); // 10% from the C&A and two from the pool
    refuses(s2, 0, { type: 'buy', corp: 'PRR', from: 'ipo' }, /already bought this turn/);
  });
});
