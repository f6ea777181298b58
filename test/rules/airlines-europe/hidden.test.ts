// Hidden information: hands, the opening choice before all have chosen, the
// draw pile's order and victory points never reach another seat's view or a history line.
import { describe, expect, it } from 'vitest';
import { playState, quietState, rules, SCORING_CARD } from './helpers.ts';
import type { AEAction } from '../../../rules/airlines-europe/index.ts';

const seatsAndSpectator = (n: number, except: number) => [
  null,
  ...Array.from({ length: n }, (_, i) => i).filter((i) => i !== except),
];

function viewsOf(s: any, seats: (number | null)[]): string[] {
  return seats.map((seat) => JSON.stringify(rules.view(s, seat)));
}

describe('Airlines Europe hidden information', () => {
  it("a seat's opening choice is invisible to the others and to the history until all have chosen", () => {
    const a = rules.setup(4, 'hidden-opening', {});
    const b = rules.setup(4, 'hidden-opening', {});
    const options = rules.moves(a, 1);
    const first = options[0]!;
    const last = options[options.length - 1]!;
    expect(first).not.toEqual(last);
    expect(rules.describe(first, a, 1)).toBe(rules.describe(last, b, 1));
    expect(rules.describe(first, a, 1)).toBe('chose two opening shares');
    rules.apply(a, 1, first);
    rules.apply(b, 1, last);
    expect(viewsOf(a, seatsAndSpectator(4, 1))).toEqual(viewsOf(b, seatsAndSpectator(4, 1)));
    const own = rules.view(a, 1) as any;
    expect(own.myOpening).toEqual((first as any).airlines);
    expect((rules.view(a, 0) as any).myOpening).toBeNull();
    expect((rules.view(a, 0) as any).players[1].openingChosen).toBe(true);
    expect((rules.view(a, 0) as any).players[2].openingChosen).toBe(false);
  });

  it('hands are seen only by their owner; hand sizes are public', () => {
    const a = quietState(3, { hands: [['red'], ['black', 'black', 'brown'], []] });
    const b = quietState(3, { hands: [['red'], ['white', 'green', 'grey'], []] });
    expect(viewsOf(a, seatsAndSpectator(3, 1))).toEqual(viewsOf(b, seatsAndSpectator(3, 1)));
    const view = rules.view(a, 0) as any;
    expect(view.players[1].handSize).toBe(3);
    expect(view.players[1].hand).toBeUndefined();
    expect((rules.view(a, 1) as any).hand).toEqual([
      { airline: 'black', name: 'Black', colour: expect.any(String), count: 2 },
      { airline: 'brown', name: 'Brown', colour: expect.any(String), count: 1 },
    ]);
    expect((rules.view(a, null) as any).hand).toBeNull();
  });

  it("the draw pile's order is seen by nobody", () => {
    const a = quietState(3, { deck: ['white', 'green', SCORING_CARD, 'grey', SCORING_CARD, SCORING_CARD] });
    const b = quietState(3, { deck: ['grey', SCORING_CARD, 'green', SCORING_CARD, 'white', SCORING_CARD] });
    expect(viewsOf(a, [null, 0, 1, 2])).toEqual(viewsOf(b, [null, 0, 1, 2]));
    expect((rules.view(a, 0) as any).deckSize).toBe(6);
  });

  it('victory points are face down: each seat sees only its own, a spectator none, everyone after the end', () => {
    const a = playState(4, 'vp');
    const b = playState(4, 'vp');
    b.vp[2] = 57;
    expect(viewsOf(a, [null, 0, 1, 3])).toEqual(viewsOf(b, [null, 0, 1, 3]));
    expect((rules.view(b, 2) as any).players[2].vp).toBe(57);
    expect((rules.view(b, 0) as any).players.map((p: any) => p.vp)).toEqual([1, null, null, null]);
    expect((rules.view(b, null) as any).players.map((p: any) => p.vp)).toEqual([null, null, null, null]);
    // A seat that does not exist (out of range, fractional, negative) sees what a spectator sees.
    for (const odd of [4, 1.5, -1, NaN])
      expect(JSON.stringify(rules.view(b, odd))).toBe(JSON.stringify(rules.view(b, null)));
    b.phase = 'over';
    b.endReason = 'the third scoring';
    expect((rules.view(b, null) as any).players.map((p: any) => p.vp)).toEqual([1, 2, 57, 4]);
  });

  it('a scoring shows each seat its own points only', () => {
    const s = quietState(3, {
      money: [20, 8, 8],
      deck: [SCORING_CARD, 'white', 'green', 'grey', 'orange', 'orange', 'grey', 'grey', SCORING_CARD, SCORING_CARD],
    });
    s.portfolios = [{ red: 2 }, { red: 1 }, {}];
    s.removed.red! -= 3;
    rules.apply(s, 0, {
      type: 'buy',
      licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
      take: { from: 'deck' },
    });
    for (const seat of [1, 2, 0]) rules.apply(s, seat, { type: 'take', take: { from: 'deck' } });
    expect(s.scoringsDone).toBe(1);
    const v0 = rules.view(s, 0) as any;
    expect(v0.lastScoring.mine.red).toBe(2);
    expect(v0.lastScoring.all).toBeNull();
    expect((rules.view(s, null) as any).lastScoring.mine).toBeNull();
  });

  it('history lines do not say which share was drawn blind or traded from the hand', () => {
    const a = quietState(3, {
      money: [20, 8, 8],
      hands: [['red'], [], []],
      deck: ['white', SCORING_CARD, SCORING_CARD, SCORING_CARD],
    });
    const b = quietState(3, {
      money: [20, 8, 8],
      hands: [['black'], [], []],
      deck: ['green', SCORING_CARD, SCORING_CARD, SCORING_CARD],
    });
    const draw: AEAction = {
      type: 'buy',
      licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
      take: { from: 'deck' as const },
    };
    expect(rules.describe(draw, a, 0)).toBe(rules.describe(draw, b, 0));
    expect(rules.describe(draw, a, 0)).toBe('bought Red Frankfurt-Zurich for 1 M, drew a share from the pile');
    const tradeA = rules.describe({ type: 'trade', get: 1, give: [{ airline: 'red', from: 'hand' }] }, a, 0);
    const tradeB = rules.describe({ type: 'trade', get: 1, give: [{ airline: 'black', from: 'hand' }] }, b, 0);
    expect(tradeA).toBe(tradeB);
    expect(tradeA).toBe('traded 1 share from the hand for 1 Air Abacus share');
  });

  it('move labels (describe before the move) are the same whatever lies on the pile, scoring card on top or not', () => {
    // The page labels each listed move with describe(move, state, seat) before it is made.
    const pileA = [SCORING_CARD, 'white', 'green', 'grey', 'orange', SCORING_CARD, 'grey', SCORING_CARD];
    const pileB = ['white', 'green', 'grey', 'orange', 'grey', SCORING_CARD, SCORING_CARD, SCORING_CARD];
    const set = (deck: string[], bank: number | null) => {
      const s = quietState(3, { money: [20, 8, 8], hands: [['red', 'red'], [], []], deck });
      if (bank !== null) {
        s.money[1]! += s.bank - bank;
        s.bank = bank;
      } // the bank goes broke on the next payment
      return s;
    };
    for (const bank of [null, 1]) {
      const a = set(pileA, bank);
      const b = set(pileB, bank);
      const moves = rules.moves(a, 0);
      expect(moves).toEqual(rules.moves(b, 0));
      expect(moves.some((m) => m.type === 'buy' && m.take.from === 'deck')).toBe(true);
      for (const m of moves) expect(rules.describe(m, a, 0)).toBe(rules.describe(m, b, 0));
    }
    // The clear-out: a blind draw reads the same too.
    const a = set(pileA, null);
    const b = set(pileB, null);
    for (const s of [a, b]) {
      s.phase = 'clearout';
      s.scoringQueue = [1];
      s.clearout = { seat: 1, left: 3 };
    }
    for (const m of rules.moves(a, 1)) expect(rules.describe(m, a, 1)).toBe(rules.describe(m, b, 1));
  });
});
