// Setting up: airlines by player count, money, points, hands, the market and the three-stack draw pile.
import { describe, expect, it } from 'vitest';
import { seedRandom } from '../../../rules/random.ts';
import { isUniformHand, redealUniformHands } from '../../../rules/airlines-europe/setup.ts';
import { board, rules, SCORING_CARD } from './helpers.ts';

describe('Airlines Europe setup', () => {
  it('the board: 112 shares and planes over ten airlines, Air Abacus 20 shares without planes or home', () => {
    expect(board.airlines).toHaveLength(10);
    expect(board.airlines.reduce((t, a) => t + a.shares, 0)).toBe(112);
    expect(board.airlines.reduce((t, a) => t + a.planes, 0)).toBe(112);
    expect(board.abacus.shares).toBe(20);
    expect(board.airlineById.green!.shares).toBe(9);
    expect(board.airlineById.blue!.shares).toBe(15);
    const smallest = [...board.airlines]
      .sort((a, b) => a.shares - b.shares)
      .slice(0, 4)
      .map((a) => a.id)
      .sort();
    expect(smallest).toEqual(['green', 'grey', 'orange', 'white']);
    const fifth = [...board.airlines].sort((a, b) => a.shares - b.shares)[4]!;
    expect(fifth.shares).toBeGreaterThan(
      Math.max(...board.airlines.filter((a) => smallest.includes(a.id)).map((a) => a.shares)),
    );
    const bonuses = Object.fromEntries(
      board.airlines.filter((a) => a.bonus).map((a) => [a.id, `${a.home}>${a.bonus!.city}`]),
    );
    expect(bonuses).toEqual({
      orange: 'athens>london',
      green: 'stockholm>athens',
      grey: 'london>ankara',
      white: 'moscow>madrid',
    });
  });

  it.each([
    [5, []],
    [4, ['yellow']],
    [3, ['yellow', 'purple']],
    [2, ['yellow', 'purple', 'blue']],
  ])('with %i players leaves out %j', (seats, out) => {
    const s = rules.setup(seats as number, 'setup', {});
    const all = board.airlines.map((a) => a.id);
    expect(s.airlines).toEqual(all.filter((a) => !(out as string[]).includes(a)));
    const cards = [...s.deck, ...s.market, ...s.hands.flat()];
    for (const a of out as string[]) expect(cards).not.toContain(a);
  });

  it('gives 8 M each from a bank of 30 M per player, points 1, 2, 3... by seat, hands of 8 and a market of 5', () => {
    for (const seats of [2, 3, 4, 5]) {
      const s = rules.setup(seats, `money-${seats}`, {});
      expect(s.money).toEqual(Array(seats).fill(8));
      expect(s.bank + s.money.reduce((a, b) => a + b, 0)).toBe(30 * seats);
      expect(s.vp).toEqual(Array.from({ length: seats }, (_, i) => i + 1));
      expect(s.hands.every((h) => h.length === 8)).toBe(true);
      expect(s.market).toHaveLength(5);
      expect(s.abacusSupply).toBe(20);
      expect(s.hands.flat()).not.toContain('abacus');
      expect(rules.toAct(s)).toEqual(Array.from({ length: seats }, (_, i) => i));
    }
  });

  it('builds the draw pile from three stacks: early (scoring card at its bottom), middle (card in the middle), final (card among the last ten)', () => {
    for (const seats of [2, 3, 4, 5]) {
      const s = rules.setup(seats, 'pile', {});
      const deck = s.deck;
      const others = deck.length - 3 - 10;
      const at = deck.flatMap((c, i) => (c === SCORING_CARD ? [i] : []));
      expect(at).toHaveLength(3);
      // roughly a quarter: a fifth to three tenths of the shares above the final stack
      expect(at[0]).toBeGreaterThanOrEqual(Math.ceil(others * 0.2));
      expect(at[0]).toBeLessThanOrEqual(Math.floor(others * 0.3));
      // in the middle third of the middle stack
      const middle = others - at[0]!;
      expect(at[1]! - at[0]! - 1).toBeGreaterThanOrEqual(Math.ceil(middle / 3));
      expect(at[1]! - at[0]! - 1).toBeLessThanOrEqual(Math.floor((2 * middle) / 3));
      expect(at[2]).toBeGreaterThanOrEqual(deck.length - 11);
      // Setups differ by seed, not by chance inside one seed.
      expect(JSON.stringify(rules.setup(seats, 'pile', {}))).toBe(JSON.stringify(s));
    }
  });

  it('puts the first two scoring cards at positions that vary from seed to seed, for every player count', () => {
    for (const seats of [2, 3, 4, 5]) {
      const early = new Set<number>();
      const middle = new Set<number>();
      for (let g = 0; g < 30; g++) {
        const at = rules.setup(seats, `vary-${g}`, {}).deck.flatMap((c, i) => (c === SCORING_CARD ? [i] : []));
        early.add(at[0]!);
        middle.add(at[1]!);
      }
      expect(early.size, `${seats} players`).toBeGreaterThanOrEqual(4);
      expect(middle.size, `${seats} players`).toBeGreaterThanOrEqual(6);
    }
  });

  it('keeps the fixed places (exactly a quarter, exactly the middle) for a game set up under rules version 1', () => {
    const s = rules.setup(4, 'pile', { rulesVersion: 1 });
    const others = s.deck.length - 3 - 10;
    const early = Math.round(others / 4);
    const at = s.deck.flatMap((c, i) => (c === SCORING_CARD ? [i] : []));
    expect(at[0]).toBe(early);
    expect(at[1]).toBe(early + 1 + Math.floor((others - early) / 2));
  });

  it('shows no one where the scoring cards lie: moving them in the pile changes no view', () => {
    const s = rules.setup(4, 'hidden-scoring', {});
    const moved = structuredClone(s);
    for (const k of moved.deck.flatMap((c, i) => (c === SCORING_CARD && i < moved.deck.length - 11 ? [i] : []))) {
      [moved.deck[k], moved.deck[k + 1]] = [moved.deck[k + 1]!, moved.deck[k]!];
    }
    expect(moved.deck).not.toEqual(s.deck);
    for (const seat of [null, 0, 1, 2, 3]) expect(rules.view(moved, seat)).toEqual(rules.view(s, seat));
  });

  it('redeals a hand of 8 shares of one airline: back into the pile, shuffled, 8 new shares', () => {
    const random = seedRandom('redeal');
    const pile = ['black', 'brown', 'white', 'green', 'grey', 'orange', 'black', 'brown', 'red', 'red'];
    const hands = [
      Array(8).fill('red') as string[],
      ['black', 'brown', 'black', 'brown', 'white', 'white', 'grey', 'grey'],
    ];
    const before = [...pile, ...hands.flat()].sort();
    redealUniformHands(random, pile, hands);
    expect(isUniformHand(hands[0]!)).toBe(false);
    expect(hands[0]).toHaveLength(8);
    expect(hands[1]).toEqual(['black', 'brown', 'black', 'brown', 'white', 'white', 'grey', 'grey']);
    expect([...pile, ...hands.flat()].sort()).toEqual(before);
  });
});
