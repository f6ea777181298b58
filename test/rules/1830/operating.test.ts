// Operating rounds, from positions of a real game (18xx.games export) changed by hand.
import { describe, expect, it } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import { importExport } from '../../../rules/1830/import/replay.ts';
import { realGame, refuses } from './positions.ts';

const exp = realGame('1830_game_end_bank');
function positionAfter(n: number): Game1830State {
  return importExport({ ...exp, actions: exp.actions.slice(0, n) }).state;
}
const bo = (s: Game1830State) => s.corps['B&O']!;

describe('1830 operating rounds', () => {
  it('starts with the privates paying, the home station placed, and the corporation with the highest price first', () => {
    const s = positionAfter(27);
    expect(s.round.kind).toBe('operating');
    // all three at $100: the first to arrive in the market cell goes first
    expect(s.round.kind === 'operating' && s.round.order).toEqual(['B&O', 'NYNH', 'PRR']);
    expect(s.corps['B&O']!.tokensUsed).toBe(1);
    expect(g.toAct(s)).toEqual([bo(s).president!]);
    expect(g.view(s, null).status).toMatch(/B&O/);
  });

  it('refuses a dividend before the run, a train out of order, and a private bought before phase 3', () => {
    const s = positionAfter(27);
    const seat = bo(s).president!;
    refuses(s, seat, { type: 'dividend', kind: 'payout' }, /not possible now/);
    g.apply(s, seat, { type: 'pass' }); // no tile
    refuses(s, seat, { type: 'buyTrain', train: '3-0', price: 180 }, /bought in order/);
    refuses(s, seat, { type: 'buyTrain', train: '2-0', price: 70 }, /costs \$80/);
    refuses(s, seat, { type: 'buyCompany', company: 'SV', price: 20 }, /only in phases 3 and 4/);
    g.apply(s, seat, { type: 'buyTrain', train: '2-0', price: 80 });
    expect(bo(s).trains).toEqual(['2-0']);
    // the B&O private closes when the B&O buys its first train
    expect(s.privates.BO!.closed).toBe(true);
  });

  it('pays dividends to players and, for pool shares, to the corporation; the price moves right', () => {
    const s = positionAfter(44);
    const b = bo(s);
    const seat = b.president!;
    // put 20% of B&O in the pool, taken from its president
    b.held[seat]! -= 20;
    b.pool += 20;
    const cash = [...s.cash];
    const corpCash = b.cash;
    const cell = [...b.cell!];
    g.apply(s, seat, { type: 'dividend', kind: 'payout' });
    expect(s.cash[seat]! - cash[seat]!).toBe((b.held[seat]! / 10) * 9);
    expect(b.cash - corpCash).toBe(18);
    expect(b.cell).toEqual([cell[0], cell[1]! + 1]);
  });

  it('withholding keeps the revenue in the treasury and moves the price left', () => {
    const s = positionAfter(44);
    const b = bo(s);
    const corpCash = b.cash;
    const cell = [...b.cell!];
    g.apply(s, b.president!, { type: 'dividend', kind: 'withhold' });
    expect(b.cash - corpCash).toBe(90);
    expect(b.cell).toEqual([cell[0], cell[1]! - 1]);
  });

  it('ends the game when the bank breaks, after the current set of operating rounds', () => {
    const s = positionAfter(44);
    const b = bo(s);
    s.cash[0]! += s.bank - 10;
    s.bank = 10; // the bank has $10 left
    g.apply(s, b.president!, { type: 'dividend', kind: 'payout' });
    expect(s.bankBroken).toBe(true);
    expect(s.finished).toBe(false);
    let guard = 0;
    while (!s.finished && guard++ < 200) {
      const seat = g.toAct(s)[0]!;
      const moves = g.moves(s, seat);
      g.apply(s, seat, moves.find((m) => m.type === 'pass') ?? moves.find((m) => m.type === 'dividend') ?? moves[0]!);
      if (s.round.kind === 'stock') break;
    }
    expect(s.finished).toBe(true);
    expect(g.outcome(s)!.reason).toBe('the bank broke');
  });

  it('lets the M&H owner exchange it for an NYC share at any time, closing the M&H', () => {
    const i = exp.actions.findIndex((a) => a.id === 193);
    const s = importExport({ ...exp, actions: exp.actions.slice(0, i) }).state;
    const owner = s.privates.MH!.owner as number;
    expect(typeof owner).toBe('number');
    const other = (owner + 1) % 3;
    refuses(s, other, { type: 'exchange', company: 'MH', from: 'ipo' }, /do not own the Mohawk/);
    const nyc = s.corps.NYC!;
    const before = nyc.held[owner]!;
    g.apply(s, owner, { type: 'exchange', company: 'MH', from: 'ipo' });
    expect(nyc.held[owner]).toBe(before + 10);
    expect(s.privates.MH!.closed).toBe(true);
    refuses(s, owner, { type: 'exchange', company: 'MH', from: 'ipo' }, /do not own the Mohawk/);
  });

  it("lets corporations buy players' privates in phase 3 for half to twice the face value", () => {
    const i = exp.actions.findIndex((a) => a.id === 74);
    const s = importExport({ ...exp, actions: exp.actions.slice(0, i) }).state;
    const b = bo(s);
    const seat = b.president!;
    refuses(s, seat, { type: 'buyCompany', company: 'SV', price: 9 }, /\$10 to \$40/);
    refuses(s, seat, { type: 'buyCompany', company: 'SV', price: 41 }, /\$10 to \$40/);
    const seller = s.privates.SV!.owner as number;
    const cash = s.cash[seller]!;
    g.apply(s, seat, { type: 'buyCompany', company: 'SV', price: 40 });
    expect(s.privates.SV!.owner).toBe('B&O');
    expect(s.cash[seller]).toBe(cash + 40);
    expect(b.companies).toContain('SV');
  });
});
