// The market's edges and ledges (seed D.6), and the two optional rules, on hand-set positions.
import { describe, expect, it } from 'vitest';
import { game1830 as g, sharePrice, type Game1830State } from '../../../rules/1830/index.ts';
import { laterRound, parred, refuses, through } from './positions.ts';

/** Puts a corporation's token on a market cell by hand (keeping the stacks right). */
function setCell(s: Game1830State, sym: string, cell: [number, number]): void {
  const c = s.corps[sym]!;
  if (c.cell) {
    const old = s.stacks[`${c.cell[0]},${c.cell[1]}`]!;
    old.splice(old.indexOf(sym), 1);
  }
  c.cell = cell;
  (s.stacks[`${cell[0]},${cell[1]}`] ??= []).push(sym);
}

/** 29133 after action 96: B&O has run and now pays out or withholds (its revenue is above zero). */
function dividendStep(cell: [number, number]): { s: Game1830State; seat: number } {
  const s = through('29133', 96);
  expect(s.round.kind === 'operating' && s.round.current).toBe('B&O');
  setCell(s, 'B&O', cell);
  return { s, seat: s.corps['B&O']!.president! };
}

describe('1830 market edges and ledges (D.6)', () => {
  it('a payout at the right edge moves the price up; at the top right corner it stays', () => {
    const a = dividendStep([4, 10]); // $100, the end of its row
    g.apply(a.s, a.seat, { type: 'dividend', kind: 'payout' });
    expect(a.s.corps['B&O']!.cell).toEqual([3, 10]);
    const b = dividendStep([0, 18]); // $350
    g.apply(b.s, b.seat, { type: 'dividend', kind: 'payout' });
    expect(b.s.corps['B&O']!.cell).toEqual([0, 18]);
  });

  it('withholding at the left edge moves the price down; on a ledge with nothing below it stays', () => {
    const a = dividendStep([0, 0]); // $60
    g.apply(a.s, a.seat, { type: 'dividend', kind: 'withhold' });
    expect(a.s.corps['B&O']!.cell).toEqual([1, 0]);
    const b = dividendStep([8, 1]); // $10, no cell to the left or below
    g.apply(b.s, b.seat, { type: 'dividend', kind: 'withhold' });
    expect(b.s.corps['B&O']!.cell).toEqual([8, 1]);
  });

  it('a sale moves the price down a row, but not off a ledge or the bottom; the seller gets the price before', () => {
    const s = laterRound();
    parred(s, 'PRR', [7, 7], { 1: 20, 0: 10 }); // $68, no cell below
    parred(s, 'NYC', [10, 4], { 2: 20, 0: 10 }); // $20, the bottom row
    parred(s, 'C&O', [2, 6], { 3: 20, 0: 10 }); // $82
    const cash = s.cash[0]!;
    g.apply(s, 0, { type: 'sell', corp: 'PRR', percent: 10 });
    g.apply(s, 0, { type: 'sell', corp: 'NYC', percent: 10 });
    g.apply(s, 0, { type: 'sell', corp: 'C&O', percent: 10 });
    expect([s.corps.PRR!.cell, s.corps.NYC!.cell, s.corps['C&O']!.cell]).toEqual([
      [7, 7],
      [10, 4],
      [3, 6],
    ]);
    expect(s.cash[0]).toBe(cash + 68 + 20 + 82);
  });

  it('buying from the pool leaves the price where it is', () => {
    const s = laterRound();
    parred(s, 'C&O', [2, 6], { 3: 20 });
    s.corps['C&O']!.ipo -= 10;
    s.corps['C&O']!.pool += 10;
    g.apply(s, 0, { type: 'buy', corp: 'C&O', from: 'pool' });
    expect(sharePrice(s.corps['C&O']!)).toBe(82);
  });
});

describe('1830 options', () => {
  it('multiple_brown_from_ipo lets several brown shares come from the IPO in one turn; without it only from the pool', () => {
    for (const option of [false, true]) {
      const s = laterRound([1000, 1000, 1000, 1000], '18xx.games');
      s.options.multipleBrownFromIpo = option;
      parred(s, 'NYC', [5, 0], { 1: 20 }); // $25, brown
      g.apply(s, 0, { type: 'buy', corp: 'NYC', from: 'ipo' });
      if (option) {
        g.apply(s, 0, { type: 'buy', corp: 'NYC', from: 'ipo' });
        expect(s.corps.NYC!.held[0]).toBe(20);
      } else {
        refuses(s, 0, { type: 'buy', corp: 'NYC', from: 'ipo' }, /already bought this turn/);
      }
    }
  });

  it('optional_6_train puts three 6-trains in the depot instead of two', () => {
    const sixes = (o: Record<string, boolean>) =>
      g.setup(4, 'x', { rule_set: '18xx.games', ...o }).trains.filter((t) => t.name === '6').length;
    expect(sixes({})).toBe(2);
    expect(sixes({ optional_6_train: true })).toBe(3);
  });
});
