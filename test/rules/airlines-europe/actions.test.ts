// The opening, actions B (play shares), C (trade for Air Abacus), D (take money) and the bank going broke.
import { describe, expect, it } from 'vitest';
import { balanceShares, expectRefused, quietState, rules } from './helpers.ts';

describe('Airlines Europe opening', () => {
  it('all seats choose two shares of different airlines at once; they are revealed together', () => {
    const s = rules.setup(3, 'opening', {});
    s.hands = [
      ['red', 'red', 'blue', 'black', 'white', 'green', 'grey', 'orange'],
      ['red', 'blue', 'blue', 'black', 'white', 'green', 'grey', 'orange'],
      ['brown', 'blue', 'red', 'black', 'white', 'green', 'grey', 'orange'],
    ];
    expect(rules.toAct(s)).toEqual([0, 1, 2]);
    expectRefused(s, 0, { type: 'open', airlines: ['red', 'red'] }, /different airlines/);
    expectRefused(s, 0, { type: 'open', airlines: ['red', 'brown'] }, /no Brown share in your hand/);
    expectRefused(s, 0, { type: 'money' }, /First choose your two opening shares/);
    rules.apply(s, 1, { type: 'open', airlines: ['blue', 'white'] });
    expect(rules.toAct(s)).toEqual([0, 2]);
    expect(s.hands[1]).toHaveLength(6);
    expect(s.portfolios[1]).toEqual({});
    expectRefused(s, 1, { type: 'open', airlines: ['red', 'black'] }, /not your turn/);
    rules.apply(s, 2, { type: 'open', airlines: ['brown', 'red'] });
    expect(rules.describe({ type: 'open', airlines: ['red', 'grey'] }, s, 0)).toBe(
      "chose two opening shares; everyone's opening shares are now revealed",
    );
    rules.apply(s, 0, { type: 'open', airlines: ['red', 'grey'] });
    expect(s.portfolios).toEqual([
      { red: 1, grey: 1 },
      { blue: 1, white: 1 },
      { brown: 1, red: 1 },
    ]);
    expect(s.phase).toBe('play');
    expect(rules.toAct(s)).toEqual([0]);
    expect(s.money).toEqual([8, 8, 8]); // opening shares pay no dividend
  });
});

describe('Airlines Europe play shares (B)', () => {
  it('any number of one airline, 2 M each', () => {
    const s = quietState(4, { hands: [['red', 'red', 'red', 'blue'], [], [], []] });
    const bank = s.bank;
    rules.apply(s, 0, { type: 'play', shares: [{ airline: 'red', count: 3 }] });
    expect(s.portfolios[0]).toEqual({ red: 3 });
    expect(s.hands[0]).toEqual(['blue']);
    expect(s.money[0]).toBe(8 + 6);
    expect(s.bank).toBe(bank - 6);
  });

  it('or one share each of two airlines, Air Abacus included', () => {
    const s = quietState(4, { hands: [['red', 'red', 'abacus'], [], [], []] });
    rules.apply(s, 0, {
      type: 'play',
      shares: [
        { airline: 'red', count: 1 },
        { airline: 'abacus', count: 1 },
      ],
    });
    expect(s.portfolios[0]).toEqual({ red: 1, abacus: 1 });
    expect(s.money[0]).toBe(12);
  });

  it('not two of one and one of another, not three airlines, not shares one does not hold', () => {
    const s = quietState(4, { hands: [['red', 'red', 'blue', 'black'], [], [], []] });
    expectRefused(
      s,
      0,
      {
        type: 'play',
        shares: [
          { airline: 'red', count: 2 },
          { airline: 'blue', count: 1 },
        ],
      },
      /exactly one share of each/,
    );
    expectRefused(
      s,
      0,
      {
        type: 'play',
        shares: [
          { airline: 'red', count: 1 },
          { airline: 'blue', count: 1 },
          { airline: 'black', count: 1 },
        ],
      },
      /not three airlines/,
    );
    expectRefused(s, 0, { type: 'play', shares: [{ airline: 'red', count: 3 }] }, /only 2 Red shares/);
    expectRefused(s, 0, { type: 'play', shares: [{ airline: 'white', count: 1 }] }, /no White share/);
  });
});

describe('Airlines Europe trade for Air Abacus (C)', () => {
  it('1 share for 1 Air Abacus, into the hand; the share leaves the game', () => {
    const s = quietState(4, { hands: [['red'], [], [], []] });
    const removed = s.removed.red ?? 0;
    rules.apply(s, 0, { type: 'trade', get: 1, give: [{ airline: 'red', from: 'hand' }] });
    expect(s.hands[0]).toEqual(['abacus']);
    expect(s.removed.red).toBe(removed + 1);
    expect(s.abacusSupply).toBe(19);
    expect(rules.check!(s)).toEqual([]);
  });

  it('3 shares from hand and portfolio for 2 Air Abacus', () => {
    const s = quietState(4, { hands: [['red', 'blue'], [], [], []] });
    s.portfolios[0] = { black: 2 };
    balanceShares(s);
    rules.apply(s, 0, {
      type: 'trade',
      get: 2,
      give: [
        { airline: 'red', from: 'hand' },
        { airline: 'blue', from: 'hand' },
        { airline: 'black', from: 'portfolio' },
      ],
    });
    expect(s.hands[0]).toEqual(['abacus', 'abacus']);
    expect(s.portfolios[0]).toEqual({ black: 1 });
    expect(s.abacusSupply).toBe(18);
  });

  it('at most 2 Air Abacus a trade, the right number of shares, only while the supply lasts, never Air Abacus for Air Abacus', () => {
    const s = quietState(4, { hands: [['red', 'red', 'red', 'red', 'red', 'abacus'], [], [], []] });
    const five = Array(5).fill({ airline: 'red', from: 'hand' });
    expectRefused(s, 0, { type: 'trade', get: 3, give: five }, /at most 2 Air Abacus shares at a time/);
    expectRefused(s, 0, { type: 'trade', get: 2, give: five.slice(0, 2) }, /cost exactly 3 shares/);
    expectRefused(
      s,
      0,
      { type: 'trade', get: 1, give: [{ airline: 'abacus', from: 'hand' }] },
      /cannot be traded for Air Abacus/,
    );
    expectRefused(
      s,
      0,
      { type: 'trade', get: 1, give: [{ airline: 'red', from: 'portfolio' }] },
      /Red share in your portfolio/,
    );
    s.abacusSupply = 1;
    s.portfolios[1] = { abacus: 18 };
    balanceShares(s);
    expectRefused(s, 0, { type: 'trade', get: 2, give: five.slice(0, 3) }, /Only 1 Air Abacus share is left/);
    expect(
      rules
        .moves(s, 0)
        .filter((m) => m.type === 'trade')
        .every((m) => m.type === 'trade' && m.get === 1),
    ).toBe(true);
  });
});

describe('Airlines Europe take money (D) and the bank going broke', () => {
  it('takes 8 M from the bank', () => {
    const s = quietState(4);
    rules.apply(s, 0, { type: 'money' });
    expect(s.money[0]).toBe(16);
    expect(rules.autoMove!(s, 1)).toEqual({ type: 'money' });
  });

  it('a bank that cannot pay goes broke: players keep at most 8 M, the market is replaced, then the player is paid', () => {
    const s = quietState(4, {
      money: [3, 30, 8, 50],
      market: ['red', 'red', 'black', 'black', 'brown'],
      deck: ['white', 'white', 'green', 'green', 'grey', 'grey', 'scoring', 'orange', 'scoring', 'orange', 'scoring'],
    });
    expect(s.bank).toBe(120 - 91);
    s.money[3]! += s.bank - 5;
    s.bank = 5;
    const removed = { red: s.removed.red ?? 0, black: s.removed.black ?? 0 };
    expect(rules.describe({ type: 'money' }, s, 0)).toBe('took 8 M; the bank went broke');
    expect(rules.undoable!({ type: 'money' }, s)).toBe(false);
    rules.apply(s, 0, { type: 'money' });
    expect(s.money).toEqual([11, 8, 8, 8]);
    expect(s.bank).toBe(120 - 35);
    expect(s.market).toEqual(['white', 'white', 'green', 'green', 'grey']);
    expect(s.removed.red).toBe(removed.red + 2);
    expect(s.removed.black).toBe(removed.black + 2);
    expect(s.bankBroke).toBe(1);
    expect(rules.check!(s)).toEqual([]);
  });

  it('the bank also goes broke while paying dividends', () => {
    const s = quietState(4, { money: [8, 8, 8, 40], hands: [['red', 'red'], [], [], []] });
    s.money[3]! += s.bank - 1;
    s.bank = 1;
    rules.apply(s, 0, { type: 'play', shares: [{ airline: 'red', count: 2 }] });
    expect(s.money[0]).toBe(12);
    expect(s.money[3]).toBe(8);
    expect(rules.check!(s)).toEqual([]);
  });
});
