// Scoring cards, the market clear-out, airline scoring, the tie rule, Air Abacus rows and the end.
import { describe, expect, it } from 'vitest';
import { rankPoints } from '../../../rules/airlines-europe/scoring.ts';
import type { AEState } from '../../../rules/airlines-europe/index.ts';
import { balanceShares, board, quietState, rules, SCORING_CARD } from './helpers.ts';

const deckTake = { from: 'deck' as const };
const buyRed = (route: string, take: unknown = deckTake) => ({
  type: 'buy',
  licences: [{ airline: 'red', route }],
  take,
});
/** Four players, seat 0 to move with 20 M, the market red, red, black, brown, brown; the draw pile as given (top first). */
const seat0ToBuy = (deck: string[]) =>
  quietState(4, { money: [20, 8, 8, 8], market: ['red', 'red', 'black', 'brown', 'brown'], deck });
/** In the clear-out, the seat takes the first share in the market. */
const takeFirstInMarket = (s: AEState, seat: number) =>
  rules.apply(s, seat, { type: 'take', take: { from: 'market', airline: s.market[0]! } });

describe('Airlines Europe scoring', () => {
  it('tie rule: 3 / 2 / 2 / 0 shares on a 6-3-2-1-0 row gives 6, 3, 3, 0', () => {
    expect(rankPoints([3, 2, 2, 0], [6, 3, 2, 1, 0])).toEqual([6, 3, 3, 0]);
    expect(rankPoints([1, 1, 1, 1], [6, 3, 2, 1, 0])).toEqual([3, 3, 3, 3]); // (6+3+2+1)/4
    expect(rankPoints([0, 4, 0, 4], [4, 2, 1, 0])).toEqual([0, 3, 0, 3]);
    expect(rankPoints([2, 1, 0], [2, 1, 0, 0, 0])).toEqual([2, 1, 0]);
  });

  it('a scoring card turned up while refilling the market goes to the next player, the market is filled, and the clear-out begins with that player', () => {
    const s = quietState(4, {
      money: [20, 8, 8, 8],
      deck: [SCORING_CARD, 'white', 'green', 'grey', SCORING_CARD, 'grey', SCORING_CARD],
    });
    expect(rules.describe(buyRed('frankfurt-zurich', { from: 'market', airline: 'brown' }) as any, s, 0)).toBe(
      'bought Red Frankfurt-Zurich for 1 M, took Brown from the market',
    ); // the line labels the button too: it never peeks at the pile
    rules.apply(s, 0, buyRed('frankfurt-zurich', { from: 'market', airline: 'brown' }));
    expect(s.scoringQueue).toEqual([1]);
    expect(s.market).toEqual(['red', 'red', 'black', 'black', 'white']);
    expect(s.phase).toBe('clearout');
    expect(rules.toAct(s)).toEqual([1]);
    expect(rules.view(s, 2).scoringCardsWaiting).toEqual([1]);
  });

  it('a scoring card drawn blind goes to the next player and the drawer draws again', () => {
    const s = quietState(4, {
      money: [20, 8, 8, 8],
      deck: [SCORING_CARD, 'white', 'green', 'grey', SCORING_CARD, 'grey', SCORING_CARD],
    });
    expect(rules.describe(buyRed('frankfurt-zurich') as any, s, 0)).toBe(
      'bought Red Frankfurt-Zurich for 1 M, drew a share from the pile',
    );
    rules.apply(s, 0, buyRed('frankfurt-zurich'));
    expect(s.hands[0]).toEqual(['white']);
    expect(s.scoringQueue).toEqual([1]);
    expect(rules.toAct(s)).toEqual([1]);
  });

  it('clear-out: from the card holder on, each takes one share (market or pile), the market is not refilled, the rest leaves play, then refill and scoring', () => {
    const s = seat0ToBuy([
      SCORING_CARD,
      'white',
      'green',
      'grey',
      'orange',
      'orange',
      'grey',
      'grey',
      'white',
      SCORING_CARD,
      'grey',
      SCORING_CARD,
    ]);
    const removed = { red: s.removed.red ?? 0, brown: s.removed.brown ?? 0 };
    rules.apply(s, 0, buyRed('frankfurt-zurich', { from: 'market', airline: 'brown' }));
    expect(s.market).toEqual(['red', 'red', 'black', 'brown', 'white']);
    expect(rules.toAct(s)).toEqual([1]);
    const refuse = (seat: number, action: unknown, message: RegExp) =>
      expect(() => rules.apply(s, seat, action)).toThrow(message);
    refuse(1, { type: 'money' }, /scoring is under way/);
    refuse(2, { type: 'take', take: deckTake }, /not your turn/);
    rules.apply(s, 1, { type: 'take', take: { from: 'market', airline: 'red' } });
    expect(s.market).toEqual(['red', 'black', 'brown', 'white']); // not refilled
    rules.apply(s, 2, { type: 'take', take: deckTake });
    expect(s.hands[2]).toEqual(['green']);
    rules.apply(s, 3, { type: 'take', take: { from: 'market', airline: 'black' } });
    expect(s.scoringsDone).toBe(0);
    rules.apply(s, 0, { type: 'take', take: { from: 'market', airline: 'white' } });
    expect(s.removed.red).toBe(removed.red + 1);
    expect(s.removed.brown).toBe(removed.brown + 1);
    expect(s.market).toEqual(['grey', 'orange', 'orange', 'grey', 'grey']);
    expect(s.scoringsDone).toBe(1);
    expect(s.phase).toBe('play');
    expect(rules.toAct(s)).toEqual([1]);
    expect(rules.check!(s)).toEqual([]);
  });

  it('a scoring card drawn blind in the clear-out brings a second scoring at once; then the player after the one on turn plays', () => {
    const s = seat0ToBuy([
      SCORING_CARD,
      'white',
      SCORING_CARD,
      'green',
      'grey',
      'orange',
      'orange',
      'grey',
      'grey',
      'white',
      'green',
      'green',
      'orange',
      'grey',
      'white',
      SCORING_CARD,
    ]);
    rules.apply(s, 0, buyRed('frankfurt-zurich', { from: 'market', airline: 'brown' }));
    expect(rules.toAct(s)).toEqual([1]);
    rules.apply(s, 1, { type: 'take', take: deckTake }); // the second scoring card: to seat 2; seat 1 draws green
    expect(s.hands[1]).toEqual(['green']);
    expect(s.scoringQueue).toEqual([1, 2]);
    for (const seat of [2, 3, 0]) takeFirstInMarket(s, seat);
    expect(s.scoringsDone).toBe(1);
    expect(s.phase).toBe('clearout');
    expect(rules.toAct(s)).toEqual([2]);
    for (const seat of [2, 3, 0, 1]) takeFirstInMarket(s, seat);
    expect(s.scoringsDone).toBe(2);
    expect(s.phase).toBe('play');
    expect(rules.toAct(s)).toEqual([1]);
    expect(rules.check!(s)).toEqual([]);
  });

  it('a scoring card turning up while the market is refilled after a clear-out lies in front of the player on turn next; a second scoring follows at once', () => {
    const s = seat0ToBuy([
      SCORING_CARD,
      'white',
      'green',
      SCORING_CARD,
      'grey',
      'orange',
      'orange',
      'grey',
      'white',
      'grey',
      'white',
      'green',
      'orange',
      'grey',
      SCORING_CARD,
    ]);
    rules.apply(s, 0, buyRed('frankfurt-zurich', { from: 'market', airline: 'brown' }));
    expect(s.scoringQueue).toEqual([1]);
    for (const seat of [1, 2, 3, 0]) takeFirstInMarket(s, seat);
    // The rest of the market left play; the refill turned up the second card, for seat 1 (next to play).
    expect(s.scoringsDone).toBe(1);
    expect(s.market).toEqual(['green', 'grey', 'orange', 'orange', 'grey']);
    expect(s.phase).toBe('clearout');
    expect(rules.toAct(s)).toEqual([1]);
    for (const seat of [1, 2, 3, 0]) takeFirstInMarket(s, seat);
    expect(s.scoringsDone).toBe(2);
    expect(s.phase).toBe('play');
    expect(rules.toAct(s)).toEqual([1]);
    expect(rules.check!(s)).toEqual([]);
  });

  it('a scoring card turning up while the market is laid out anew after the bank went broke lies in front of the next player; the player who broke it is paid first', () => {
    const s = quietState(4, {
      money: [3, 30, 8, 50],
      market: ['red', 'red', 'black', 'black', 'brown'],
      deck: [
        'white',
        'white',
        SCORING_CARD,
        'green',
        'green',
        'grey',
        'grey',
        'orange',
        SCORING_CARD,
        'orange',
        SCORING_CARD,
      ],
    });
    s.money[3]! += s.bank - 5;
    s.bank = 5;
    rules.apply(s, 0, { type: 'money' });
    expect(s.money).toEqual([11, 8, 8, 8]);
    expect(s.market).toEqual(['white', 'white', 'green', 'green', 'grey']);
    expect(s.scoringQueue).toEqual([1]);
    expect(s.phase).toBe('clearout');
    expect(rules.toAct(s)).toEqual([1]);
    expect(rules.check!(s)).toEqual([]);
  });

  it('airlines score by their value track row, most shares first, ties sharing rounded up; hands do not count; then Air Abacus 4-2-1-0', () => {
    const s = quietState(4, {
      money: [20, 8, 8, 8],
      hands: [[], [], [], ['red', 'red', 'red', 'red']],
      deck: [
        'white',
        SCORING_CARD,
        'green',
        'grey',
        'orange',
        'orange',
        'grey',
        'grey',
        'white',
        SCORING_CARD,
        'grey',
        SCORING_CARD,
      ],
    });
    s.portfolios = [{ red: 3, abacus: 2 }, { red: 2, abacus: 1 }, { red: 2, abacus: 1 }, { black: 1 }];
    balanceShares(s);
    s.track.red = 12;
    s.track.black = 0;
    expect(board.rowAt(13)).toEqual([6, 3, 2, 1, 0]);
    rules.apply(s, 0, buyRed('frankfurt-zurich')); // red to 13; seat 0 draws the white
    rules.apply(s, 1, { type: 'buy', licences: [{ airline: 'black', route: 'berlin-warsaw' }], take: deckTake });
    // Seat 1 drew the scoring card blind: it lies in front of seat 2, who starts the clear-out.
    expect(rules.toAct(s)).toEqual([2]);
    const vp = [...s.vp];
    for (const seat of [2, 3, 0, 1]) rules.apply(s, seat, { type: 'take', take: deckTake });
    const got = s.vp.map((v, i) => v - vp[i]!);
    expect(s.lastScoring!.points.map((p) => p.red)).toEqual([6, 3, 3, 0]);
    expect(s.lastScoring!.points.map((p) => p.abacus)).toEqual([4, 2, 2, 0]);
    expect(s.lastScoring!.points.map((p) => p.black)).toEqual([0, 0, 0, board.rowAt(s.track.black!)[0]]);
    expect(got).toEqual([10, 5, 5, board.rowAt(s.track.black!)[0]]);
    expect(s.lastScoring!.order[0]).toBe('red');
    expect(s.lastScoring!.order[s.lastScoring!.order.length - 1]).toBe('abacus');
  });

  it('Air Abacus scores 8-4-2-1-0 at the second scoring and 16-8-4-2-1 at the third', () => {
    expect(board.abacus.rows).toEqual([
      [4, 2, 1, 0],
      [8, 4, 2, 1, 0],
      [16, 8, 4, 2, 1],
    ]);
    for (const [done, row] of [
      [1, [8, 4, 2, 1, 0]],
      [2, [16, 8, 4, 2, 1]],
    ] as const) {
      const s = quietState(5, {
        money: [20, 8, 8, 8, 8],
        deck: [SCORING_CARD, 'white', 'green', 'grey', 'orange', 'orange', 'grey', 'grey', 'white', 'grey'],
      });
      s.scoringsDone = done;
      s.deck.push(...(done === 1 ? [SCORING_CARD] : []));
      s.portfolios = [{ abacus: 5 }, { abacus: 4 }, { abacus: 3 }, { abacus: 2 }, { abacus: 1 }];
      balanceShares(s);
      rules.apply(s, 0, buyRed('frankfurt-zurich'));
      for (const seat of [1, 2, 3, 4, 0]) rules.apply(s, seat, { type: 'take', take: deckTake });
      expect(s.lastScoring!.number).toBe(done + 1);
      expect(s.lastScoring!.points.map((p) => p.abacus)).toEqual(row);
    }
  });

  it('the game ends after the third scoring; most points wins, ties go to more Air Abacus shares, then shared', () => {
    const s = quietState(3, { money: [20, 8, 8], deck: [SCORING_CARD, 'white', 'green', 'grey', 'orange'] });
    s.scoringsDone = 2;
    s.portfolios = [{ abacus: 1 }, { abacus: 2 }, {}];
    balanceShares(s);
    rules.apply(s, 0, buyRed('frankfurt-zurich'));
    // Abacus 16 / 8 for seats 1 and 0; set the rest so that seats 0 and 1 tie on points.
    for (const seat of [1, 2, 0]) rules.apply(s, seat, { type: 'take', take: deckTake });
    expect(s.phase).toBe('over');
    expect(rules.toAct(s)).toEqual([]);
    expect(s.scoringsDone).toBe(3);
    const out = rules.outcome(s)!;
    expect(out.reason).toBe('the third scoring');
    s.vp = [30, 30, 30];
    expect(rules.outcome(s)!.ranks).toEqual([2, 1, 3]); // seat 1 holds 2 Air Abacus, seat 0 one, seat 2 none
    s.portfolios[0]!.abacus = 2;
    s.abacusSupply -= 1;
    expect(rules.outcome(s)!.ranks).toEqual([1, 1, 3]);
    s.vp = [31, 30, 30];
    expect(rules.outcome(s)!.ranks).toEqual([1, 2, 3]);
  });

  it('two players: at the third scoring a third player holds the Air Abacus supply, the market, the pile and the discard pile', () => {
    const s = quietState(2, {
      money: [20, 8],
      market: ['white', 'white', 'white', 'white', 'black'],
      deck: [SCORING_CARD, 'white', 'white', 'white', 'black'],
    });
    s.scoringsDone = 2;
    s.portfolios = [{ red: 3, abacus: 1 }, { red: 1 }];
    balanceShares(s);
    expect(s.discard.filter((a) => a === 'red')).toHaveLength(11);
    s.track.red = 12;
    rules.apply(s, 0, buyRed('frankfurt-zurich', { from: 'market', airline: 'black' }));
    rules.apply(s, 1, { type: 'take', take: { from: 'market', airline: 'white' } });
    rules.apply(s, 0, { type: 'take', take: { from: 'market', airline: 'white' } });
    expect(s.phase).toBe('over');
    // The third player has 11 red (discard pile): 6 points; seat 0 with 3 gets 3, seat 1 with 1 gets 2.
    expect(s.lastScoring!.points.map((p) => p.red)).toEqual([3, 2]);
    // 19 Air Abacus in the supply beat seat 0's one: 16 to the third player, 8 to seat 0.
    expect(s.lastScoring!.points.map((p) => p.abacus)).toEqual([8, 0]);
  });

  it('two players: shares leaving play in the clear-out, a trade or a broken bank go face down onto the discard pile', () => {
    const s = quietState(2, {
      money: [20, 8],
      market: ['white', 'white', 'red', 'red', 'black'],
      deck: [
        SCORING_CARD,
        'white',
        'green',
        'grey',
        'grey',
        'grey',
        'grey',
        'orange',
        'orange',
        'orange',
        'orange',
        'green',
        'green',
        'green',
        SCORING_CARD,
        SCORING_CARD,
      ],
    });
    s.hands[0] = ['black'];
    balanceShares(s);
    const discard = s.discard.length;
    rules.apply(s, 0, buyRed('frankfurt-zurich', { from: 'market', airline: 'black' }));
    rules.apply(s, 1, { type: 'take', take: { from: 'market', airline: 'red' } });
    rules.apply(s, 0, { type: 'take', take: deckTake });
    expect(s.discard.length).toBe(discard + 4); // white, white, red, white left in the market
    expect(s.removed).toEqual({});
    s.money[1]! += s.bank - 3;
    s.bank = 3;
    rules.apply(s, 1, { type: 'money' }); // the bank goes broke: the market of 5 goes too
    expect(s.discard.length).toBe(discard + 9);
    rules.apply(s, 0, { type: 'trade', get: 1, give: [{ airline: 'black', from: 'hand' }] });
    expect(s.discard.length).toBe(discard + 10);
    expect(rules.view(s, 1).discardSize).toBe(discard + 10);
    expect(rules.check!(s)).toEqual([]);
  });
});
