// Rules of the seed checked from hand-set positions: the seed's own auction example,
// presidency by buying, the pool limit, the certificate limit after a presidency swap,
// operating order ties, privates' revenue, final values, the forced train purchase
// (president's cash, share sales only as needed, no giving away the presidency, face
// value at most from another corporation), rusting, the D trade-in, and the bank breaking
// in a stock round.
import { describe, expect, it } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import { importExport } from '../../../rules/1830/import/replay.ts';
import { startOperatingSet } from '../../../rules/1830/rounds.ts';
import type { Action1830 } from '../../../rules/1830/actions.ts';
import { afterAuction, laterRound, realGame, refuses, through } from './positions.ts';

/** Par and hand out shares by hand (first seat listed is president); floated at 60% sold. */
function parred(
  s: Game1830State,
  sym: string,
  cell: [number, number],
  holdings: Record<number, number>,
  parCell: [number, number] = cell,
): void {
  const c = s.corps[sym]!;
  c.ipoed = true;
  c.par = [parCell[0], parCell[1]];
  c.cell = [cell[0], cell[1]];
  (s.stacks[`${cell[0]},${cell[1]}`] ??= []).push(sym);
  let first = true;
  for (const [seat, pct] of Object.entries(holdings)) {
    c.held[Number(seat)] = pct;
    c.ipo -= pct;
    if (first) {
      c.president = Number(seat);
      first = false;
    }
  }
  if (c.ipo <= 40) {
    c.floated = true;
    c.cash = 1000;
    s.bank -= 1000;
  }
}

describe('1830 private auction: the seed example', () => {
  it('RT, Kevin, Kathy, Skr and Edward: lone bids resolve at once, C&A and B&O go to bid wars won by Skr ($220) and Kathy ($235)', () => {
    const s = g.setup(5, 'seed', {});
    const [RT, Kevin, Kathy, Skr, Edward] = [0, 1, 2, 3, 4];
    const bid = (seat: number, company: string, price: number) => g.apply(s, seat, { type: 'bid', company, price });
    bid(RT, 'CA', 165);
    bid(Kevin, 'MH', 130);
    bid(Kathy, 'BO', 225);
    bid(Skr, 'CA', 170);
    bid(Edward, 'DH', 75);
    bid(RT, 'BO', 230);
    bid(Kevin, 'CA', 180);
    bid(Kathy, 'CS', 45);
    // a bid must be $5 above the highest bid so far
    refuses(s, Skr, { type: 'bid', company: 'CA', price: 184 }, /minimum bid for CA is \$185/);
    bid(Skr, 'SV', 20); // buys the cheapest outright; C&SL, D&H and M&H had one bid each
    expect([s.privates.SV!.owner, s.privates.CS!.owner, s.privates.DH!.owner, s.privates.MH!.owner]).toEqual([
      Skr,
      Kathy,
      Edward,
      Kevin,
    ]);
    expect(s.cash).toEqual([480, 480 - 130, 480 - 45, 480 - 20, 480 - 75]);
    // C&A: three bidders; the lowest bidder raises or passes; nobody else may act
    expect(s.round.kind === 'auction' && s.round.auctioning).toBe('CA');
    expect(g.toAct(s)).toEqual([RT]);
    refuses(s, Edward, { type: 'pass' }, /not your turn/);
    refuses(s, RT, { type: 'bid', company: 'BO', price: 240 }, /CA is being auctioned/);
    bid(RT, 'CA', 195);
    expect(g.toAct(s)).toEqual([Skr]);
    bid(Skr, 'CA', 200);
    expect(g.toAct(s)).toEqual([Kevin]);
    g.apply(s, Kevin, { type: 'pass' });
    bid(RT, 'CA', 205);
    bid(Skr, 'CA', 220);
    g.apply(s, RT, { type: 'pass' });
    expect(s.privates.CA!.owner).toBe(Skr);
    expect(s.cash[Skr]).toBe(480 - 20 - 220);
    expect(s.corps.PRR!.held[Skr]).toBe(10); // the C&A's free PRR share
    // B&O: Kathy (225) and RT (230)
    expect(g.toAct(s)).toEqual([Kathy]);
    bid(Kathy, 'BO', 235);
    g.apply(s, RT, { type: 'pass' });
    expect(s.privates.BO!.owner).toBe(Kathy);
    expect(s.cash[RT]).toBe(480); // losing bids come back
    expect(s.cash[Kathy]).toBe(480 - 45 - 235);
    // the B&O owner sets its par and holds its president's certificate
    expect(g.toAct(s)).toEqual([Kathy]);
    g.apply(s, Kathy, { type: 'par', corp: 'B&O', price: 90 });
    expect(s.corps['B&O']!.president).toBe(Kathy);
    expect(s.corps['B&O']!.held[Kathy]).toBe(20);
    expect(s.round.kind).toBe('stock');
  });
});

describe('1830 stock round limits', () => {
  it('gives the presidency to a buyer who holds more than the president, not to one who only ties', () => {
    const s = laterRound();
    parred(s, 'PRR', [0, 6], { 0: 30, 1: 10 });
    g.apply(s, 0, { type: 'pass' });
    g.apply(s, 1, { type: 'buy', corp: 'PRR', from: 'ipo' }); // seat 1: 20%
    for (const seat of [1, 2, 3, 0]) g.apply(s, seat, { type: 'pass' });
    g.apply(s, 1, { type: 'buy', corp: 'PRR', from: 'ipo' }); // 30%: a tie, the president keeps it
    expect(s.corps.PRR!.president).toBe(0);
    for (const seat of [1, 2, 3, 0]) g.apply(s, seat, { type: 'pass' });
    g.apply(s, 1, { type: 'buy', corp: 'PRR', from: 'ipo' }); // 40%
    expect(s.corps.PRR!.president).toBe(1);
  });

  it('refuses a sale that would put more than 50% of a corporation in the pool', () => {
    const s = laterRound();
    parred(s, 'PRR', [0, 6], { 1: 20, 0: 30, 2: 10 });
    s.corps.PRR!.pool = 40;
    s.corps.PRR!.ipo -= 40;
    refuses(s, 0, { type: 'sell', corp: 'PRR', percent: 20 }, /pool may not hold more than 50%/);
    g.apply(s, 0, { type: 'sell', corp: 'PRR', percent: 10 });
    expect(s.corps.PRR!.pool).toBe(50);
  });

  it('makes a player over the certificate limit sell before buying or passing', () => {
    const s = laterRound();
    // 16 certificates is the limit with four players; seat 0 holds SV, CA and 14 more
    parred(s, 'PRR', [0, 6], { 0: 60, 1: 20 });
    parred(s, 'NYC', [0, 6], { 0: 60, 2: 20 });
    parred(s, 'C&O', [0, 6], { 0: 30, 3: 20 });
    // PRR 60% (president) 5 + NYC 60% 5 + C&O 30% 2 + SV + CA = 14 certificates
    const certs = (g.view(s, 0).players as { certs: number }[])[0]!.certs;
    expect(certs).toBe(14);
    s.corps['C&O']!.held[0] = 50;
    s.corps['C&O']!.ipo -= 20; // 16: at the limit, not over
    refuses(s, 0, { type: 'buy', corp: 'C&O', from: 'ipo' }, /certificate limit of 16/);
    // a private is a certificate too: no buying another player's at the limit
    refuses(s, 0, { type: 'buyCompany', company: 'CS', price: 40 }, /certificate limit of 16, and a private counts/);
    expect(g.moves(s, 0).some((m) => m.type === 'buyCompany')).toBe(false);
    s.corps['C&O']!.held[0] = 60;
    s.corps['C&O']!.ipo -= 10; // 17: over (as after a presidency swap)
    refuses(s, 0, { type: 'pass' }, /must sell/);
    refuses(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' }, /must sell/);
    expect(g.moves(s, 0).every((m) => m.type === 'sell' || m.type === 'exchange')).toBe(true);
    g.apply(s, 0, { type: 'sell', corp: 'C&O', percent: 10 });
    expect(g.moves(s, 0).some((m) => m.type === 'pass')).toBe(true);
  });

  it('lets a player sell, buy and sell again in one turn, but not buy back what was sold', () => {
    const s = laterRound();
    parred(s, 'PRR', [0, 6], { 0: 30, 1: 20 });
    parred(s, 'NYC', [0, 6], { 1: 20, 0: 20 });
    g.apply(s, 0, { type: 'sell', corp: 'PRR', percent: 10 });
    refuses(s, 0, { type: 'buy', corp: 'PRR', from: 'pool' }, /sold PRR this round/);
    g.apply(s, 0, { type: 'buy', corp: 'NYC', from: 'ipo' });
    expect(g.toAct(s)).toEqual([0]);
    g.apply(s, 0, { type: 'sell', corp: 'PRR', percent: 10 });
    expect(s.corps.PRR!.held[0]).toBe(10);
    refuses(s, 0, { type: 'buy', corp: 'C&O', from: 'ipo' }, /no par value|already bought/);
  });
});

describe('1830 operating order, privates, final values', () => {
  it('runs the higher price first; at equal prices the one further right, then the one on top of the stack', () => {
    const s = afterAuction();
    s.turn = 2;
    parred(s, 'PRR', [0, 6], { 0: 60 }); // $100, column 6
    parred(s, 'NYC', [4, 10], { 2: 60 }, [0, 6]); // $100, column 10: further right
    parred(s, 'C&O', [2, 8], { 3: 60 }, [0, 6]); // $100, column 8
    parred(s, 'ERIE', [2, 8], { 0: 30, 3: 30 }, [0, 6]); // same cell as C&O, arrived later
    parred(s, 'B&M', [0, 7], { 2: 60 }, [0, 6]); // $112
    s.round = {
      kind: 'stock',
      index: 0,
      passed: [true, true, true, true],
      sold: [{}, {}, {}, {}],
      turnActions: [],
      boughtFromIpo: false,
    };
    startOperatingSet(s);
    const r = s.round as Game1830State['round'];
    expect(r.kind === 'operating' && r.order).toEqual(['B&M', 'NYC', 'C&O', 'ERIE', 'PRR']);
  });

  it("pays each private's revenue to its owner at the start of every operating round, a corporation's into its treasury", () => {
    const s = afterAuction();
    parred(s, 'PRR', [0, 6], { 0: 60 });
    s.privates.DH!.owner = 'PRR';
    s.corps.PRR!.companies.push('DH');
    s.privates.SV!.closed = true;
    s.privates.SV!.owner = null;
    const cash = [...s.cash];
    const prr = s.corps.PRR!.cash;
    startOperatingSet(s);
    expect(s.cash[0]! - cash[0]!).toBe(25); // C&A only (SV closed)
    expect(s.cash[1]! - cash[1]!).toBe(10 + 30); // C&SL and B&O
    expect(s.cash[2]! - cash[2]!).toBe(0); // D&H belongs to PRR now
    expect(s.cash[3]! - cash[3]!).toBe(20); // M&H
    expect(s.corps.PRR!.cash - prr).toBe(15);
  });

  it('values a player at cash, shares at market price and own privates at face value', () => {
    const s = afterAuction();
    parred(s, 'PRR', [2, 8], { 0: 40, 1: 20 }, [0, 6]); // market $100
    s.privates.SV!.owner = 'PRR';
    s.finished = true;
    s.endReason = 'the bank broke';
    const o = g.outcome(s)!;
    // seat 0: cash + 40% PRR at $100 + C&A 160 (SV now belongs to a corporation: nothing)
    expect(o.scores[0]).toBe(s.cash[0]! + 400 + 160);
    // seat 1: cash + 20% PRR + 20% B&O at $100 + C&SL 40 + B&O private 220
    expect(o.scores[1]).toBe(s.cash[1]! + 200 + 200 + 40 + 220);
    expect(o.ranks[0]! >= 1).toBe(true);
  });
});

describe('1830 forced train purchase', () => {
  it('the president pays the shortfall from cash, sells only as many shares as needed, never gives away the presidency, pays at most face value to another corporation', () => {
    const s = through('29133', 449); // NYNH: no train, $181, a route; only a D ($1100) in the bank
    const n = s.corps.NYNH!;
    const seat = n.president!;
    expect(seat).toBe(3);
    // another corporation's train: at most its face value even with the president's money
    refuses(s, seat, { type: 'buyTrain', train: '5-0', price: 451 }, /between \$\d+ and \$450/);
    // the president has $900: $19 short of the D
    s.cash[seat] = 900;
    s.bank -= 900 - 354;
    refuses(
      s,
      seat,
      { type: 'buyTrain', train: 'D-1', price: 1100 },
      /\$919 short and its president has \$900: the president must sell shares to raise the other \$19/,
    );
    refuses(s, seat, { type: 'sell', corp: 'NYC', percent: 20 }, /only as many shares as needed/i);
    // a tie keeps the presidency, falling below another holder would give it away
    n.held[0] = 50;
    n.ipo -= 40;
    refuses(s, seat, { type: 'sell', corp: 'NYNH', percent: 20 }, /give away the presidency of NYNH/);
    g.apply(s, seat, { type: 'sell', corp: 'NYNH', percent: 10 });
    expect(n.president).toBe(seat);
    const cash = s.cash[seat]!;
    g.apply(s, seat, { type: 'buyTrain', train: 'D-1', price: 1100 });
    expect(n.trains).toEqual(['D-1']);
    expect(n.cash).toBe(0);
    expect(cash - s.cash[seat]!).toBe(1100 - 181);
  });
});

describe('1830 the D trade-in at the train limit', () => {
  it('a corporation with two trains in phase D may trade one in for a D (it still owns two), but not buy one outright', () => {
    const s = through('29133', 449); // phase D, NYNH to buy a train, D-1 in the bank
    const n = s.corps.NYNH!;
    const seat = n.president!;
    for (const [id, from] of [
      ['5-0', 'B&M'],
      ['6-0', 'B&O'],
    ] as const) {
      const owner = s.corps[from]!;
      owner.trains.splice(owner.trains.indexOf(id), 1);
      s.trains.find((t) => t.id === id)!.owner = 'NYNH';
      n.trains.push(id);
    }
    s.bank += n.cash - 800;
    n.cash = 800;
    expect(s.phase).toBe(5);
    refuses(s, seat, { type: 'buyTrain', train: 'D-1', price: 1100 }, /at its train limit of 2/);
    g.apply(s, seat, { type: 'buyTrain', train: 'D-1', price: 800, exchange: '5-0' });
    expect(n.trains).toEqual(['6-0', 'D-1']);
    expect(n.cash).toBe(0);
    expect(s.trains.find((t) => t.id === '5-0')!.owner).toBe('pool');
  });
});

describe('1830 phases in a real game', () => {
  it('rusts the 2s at the first 4, the 3s at the first 6 and the 4s at the first D; the D costs $800 with a 4, 5 or 6 traded in; operating rounds per set and train limits follow the phase', () => {
    const exp = realGame('29133');
    const { seats, options, log } = importExport(exp);
    const s = g.setup(seats.length, 'r', options);
    const seen: string[] = [];
    for (const { seat, action } of log) {
      if (action.type === 'buyTrain' && action.exchange) {
        const probe = structuredClone(s);
        refuses(probe, seat, { ...action, price: 1100 }, /costs \$800/);
        refuses(
          probe,
          seat,
          { type: 'buyTrain', train: action.train, price: 800 } satisfies Action1830,
          /costs \$1100|cannot pay/,
        );
      }
      const phase = s.phase;
      const kind = s.round.kind;
      g.apply(s, seat, action);
      // one operating round per set in phase 2, two from the first 3-train, three from the first 5-train
      const now = s.round as Game1830State['round'];
      if (kind === 'stock' && now.kind === 'operating') expect(s.orCount).toBe([1, 2, 2, 3, 3, 3][s.phase]);
      const limit = [4, 4, 3, 2, 2, 2][s.phase]!;
      if (s.round.kind === 'operating' && !s.finished) {
        const r = s.round;
        const crowdedNow = Object.values(s.corps).some((c) => c.trains.length > limit);
        if (!crowdedNow && r.current) expect(s.corps[r.current]!.trains.length).toBeLessThanOrEqual(limit);
      }
      if (s.phase !== phase) {
        const name = ['2', '3', '4', '5', '6', 'D'][s.phase]!;
        seen.push(name);
        const alive = (t: string) =>
          s.trains.filter((x) => x.name === t && x.owner !== 'gone' && x.owner !== 'depot').length;
        if (name === '4') expect(alive('2')).toBe(0);
        if (name === '6') expect(alive('3')).toBe(0);
        if (name === 'D') expect(alive('4')).toBe(0);
        if (name === '5') expect(Object.values(s.privates).every((p) => p.closed)).toBe(true);
        if (name === '4') expect(alive('3')).toBeGreaterThan(0);
      }
    }
    expect(seen).toEqual(['3', '4', '5', '6', 'D']);
  });
});

describe('1830 the bank breaking in a stock round', () => {
  it('plays the following set of operating rounds to its end, then ends', () => {
    const s = laterRound();
    parred(s, 'NYC', [0, 6], { 0: 50 });
    s.cash[1]! += s.bank - 500;
    s.bank = 500; // $500 left: NYC's float capital breaks it
    g.apply(s, 0, { type: 'buy', corp: 'NYC', from: 'ipo' });
    expect(s.corps.NYC!.floated).toBe(true);
    expect(s.bankBroken).toBe(true);
    expect(s.finished).toBe(false);
    let guard = 0;
    while (s.round.kind === 'stock' && guard++ < 20) g.apply(s, g.toAct(s)[0]!, { type: 'pass' });
    expect(s.round.kind).toBe('operating');
    const ors = s.orCount;
    let sawLast = false;
    while (!s.finished && guard++ < 300) {
      if (s.round.kind === 'operating' && s.round.num === ors) sawLast = true;
      expect(s.round.kind).toBe('operating');
      const seat = g.toAct(s)[0]!;
      const ms = g.moves(s, seat);
      g.apply(
        s,
        seat,
        ms.find((m) => m.type === 'pass') ??
          ms.find((m) => m.type === 'buyTrain') ??
          ms.find((m) => m.type === 'dividend') ??
          ms[0]!,
      );
    }
    expect(sawLast).toBe(true);
    expect(g.outcome(s)!.reason).toBe('the bank broke');
  });
});

describe('1830 privates change hands only at a price both sides agree', () => {
  it('in a stock round the owner accepts or declines an offer before anything moves', () => {
    const s = laterRound();
    const cash = [...s.cash];
    g.apply(s, 0, { type: 'buyCompany', company: 'CS', price: 0 }); // seat 1 owns the C&SL
    expect(s.privates.CS!.owner).toBe(1);
    expect(g.toAct(s)).toEqual([1]);
    expect(g.view(s, null).status).toMatch(/offers \$0 for CS; its owner accepts or declines/);
    refuses(s, 0, { type: 'pass' }, /not your turn/);
    refuses(s, 1, { type: 'buyCompany', company: 'CS', price: 10 }, /accept \("buy CS 0"\) or decline \("pass"\)/);
    expect(g.moves(s, 1)).toEqual([{ type: 'buyCompany', company: 'CS', price: 0 }, { type: 'pass' }]);
    expect(g.describe({ type: 'pass' }, s, 1)).toBe('declines to sell Champlain & St.Lawrence (CS) for $0');
    g.apply(s, 1, { type: 'pass' });
    expect(s.offer).toBeUndefined();
    expect(s.cash).toEqual(cash);
    expect(g.toAct(s)).toEqual([0]); // still seat 0's turn, nothing bought yet
    expect(g.describe({ type: 'buyCompany', company: 'CS', price: 60 }, s, 0)).toMatch(
      /^offers \$60 for Champlain & St\.Lawrence \(CS\); its owner accepts or declines$/,
    );
    g.apply(s, 0, { type: 'buyCompany', company: 'CS', price: 60 });
    expect(g.describe({ type: 'buyCompany', company: 'CS', price: 60 }, s, 1)).toBe(
      'accepts $60 for their Champlain & St.Lawrence (CS)',
    );
    g.apply(s, 1, { type: 'buyCompany', company: 'CS', price: 60 });
    expect(s.privates.CS!.owner).toBe(0);
    expect(s.cash[0]).toBe(cash[0]! - 60);
    expect(s.cash[1]).toBe(cash[1]! + 60);
    // that was the turn's purchase: with nothing to sell, the turn passes on
    expect(g.toAct(s)).toEqual([1]);
  });

  it("a corporation buys its president's private at once, another player's only when that player accepts", () => {
    const e = realGame('1830_game_end_bank');
    const i = e.actions.findIndex((a) => a.id === 74);
    const s = importExport({ ...e, actions: e.actions.slice(0, i) }).state;
    const bo = s.corps['B&O']!;
    const seat = bo.president!;
    const other = Object.values(s.privates).find(
      (p) => typeof p.owner === 'number' && p.owner !== seat && !p.closed && p.sym !== 'BO',
    )!;
    const owner = other.owner as number;
    const cash = bo.cash;
    g.apply(s, seat, { type: 'buyCompany', company: other.sym, price: Math.ceil(PRICE[other.sym]! / 2) });
    expect(other.owner).toBe(owner);
    expect(g.toAct(s)).toEqual([owner]);
    g.apply(s, owner, { type: 'buyCompany', company: other.sym, price: Math.ceil(PRICE[other.sym]! / 2) });
    expect(other.owner).toBe('B&O');
    expect(bo.cash).toBe(cash - Math.ceil(PRICE[other.sym]! / 2));
    expect(g.toAct(s)).toEqual([seat]);
  });
});

const PRICE: Record<string, number> = { SV: 20, CS: 40, DH: 70, MH: 110, CA: 160, BO: 220 };
