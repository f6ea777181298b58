// Action A: buying licences, their five rules, connection bonuses, blocked airlines, taking a share.
import { describe, expect, it } from 'vitest';
import { isBlocked } from '../../../rules/airlines-europe/licences.ts';
import {
  allPlanesFlownButRedsLast,
  board,
  expectRefused,
  giveLicences,
  quietState,
  rules,
  SCORING_CARD,
} from './helpers.ts';

const route = (id: string) => board.routeIndex[id]!;
const deckTake = { from: 'deck' as const };

describe('Airlines Europe licences', () => {
  it('buying pays the bank the price, puts a plane on the route and moves the airline that far on the value track', () => {
    const s = quietState(4, { money: [20, 8, 8, 8] });
    const bank = s.bank;
    rules.apply(s, 0, { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-zurich' }], take: deckTake });
    expect(s.money[0]).toBe(19);
    expect(s.bank).toBe(bank + 1);
    expect(s.planes.red).toBe(14);
    expect(s.licences[route('frankfurt-zurich')]).toEqual(['red']);
    expect(s.track.red).toBe(board.airlineById.red!.start + 1);
    expect(s.networks.red).toEqual(['frankfurt', 'zurich']);
    expect(s.hands[0]).toEqual(['red']); // the top of the pile
    expect(s.turn).toBe(1);
    expect(rules.check!(s)).toEqual([]);
  });

  it('one needs no shares of an airline to buy its licences', () => {
    const s = quietState(4, { money: [20, 8, 8, 8] });
    expect(s.portfolios[0]).toEqual({});
    rules.apply(s, 0, { type: 'buy', licences: [{ airline: 'grey', route: 'london-paris' }], take: deckTake });
    expect(s.licences[route('london-paris')]).toEqual(['grey']);
  });

  it('licences on a route go cheapest first: the second airline pays the second price and moves that far', () => {
    const s = quietState(4, { money: [20, 20, 8, 8] });
    rules.apply(s, 0, { type: 'buy', licences: [{ airline: 'red', route: 'paris-frankfurt' }], take: deckTake });
    expect(s.money[0]).toBe(18);
    const blueStart = s.track.blue!;
    rules.apply(s, 1, { type: 'buy', licences: [{ airline: 'blue', route: 'frankfurt-paris' }], take: deckTake });
    expect(s.money[1]).toBe(17);
    expect(s.track.blue).toBe(blueStart + 3);
    expect(s.licences[route('paris-frankfurt')]).toEqual(['red', 'blue']);
  });

  it("a route must touch the airline's network; it may branch anywhere from it", () => {
    const s = quietState(4, { money: [20, 8, 8, 8] });
    expectRefused(
      s,
      0,
      { type: 'buy', licences: [{ airline: 'red', route: 'sofia-athens' }], take: deckTake },
      /not connected to Red's network/,
    );
    giveLicences(s, 'red', ['frankfurt-zurich', 'zurich-milan']);
    rules.apply(s, 0, { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-munich' }], take: deckTake });
    rules.apply(s, 1, { type: 'buy', licences: [{ airline: 'red', route: 'milan-rome' }], take: deckTake });
    expect(s.networks.red).toContain('rome');
  });

  it('an airline holds at most one licence per route; a full route has none left', () => {
    const s = quietState(4, { money: [20, 20, 8, 8] });
    giveLicences(s, 'red', ['paris-frankfurt']);
    expectRefused(
      s,
      0,
      { type: 'buy', licences: [{ airline: 'red', route: 'paris-frankfurt' }], take: deckTake },
      /Red already flies Paris-Frankfurt/,
    );
    rules.apply(s, 0, { type: 'buy', licences: [{ airline: 'red', route: 'london-frankfurt' }], take: deckTake });
    expectRefused(
      s,
      1,
      { type: 'buy', licences: [{ airline: 'grey', route: 'london-frankfurt' }], take: deckTake },
      /London-Frankfurt has no free licence/,
    );
  });

  it('an airline without planes buys no licence, and Air Abacus never does', () => {
    const s = quietState(4, { money: [20, 8, 8, 8] });
    s.planes.red = 0;
    expectRefused(
      s,
      0,
      { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-zurich' }], take: deckTake },
      /Red has no planes left/,
    );
    expectRefused(
      s,
      0,
      { type: 'buy', licences: [{ airline: 'abacus', route: 'frankfurt-zurich' }], take: deckTake },
      /Air Abacus has no planes/,
    );
  });

  it('the second licence follows the same rules, may extend the first and may be for another airline', () => {
    const s = quietState(4, { money: [20, 20, 8, 8] });
    rules.apply(s, 0, {
      type: 'buy',
      licences: [
        { airline: 'red', route: 'frankfurt-zurich' },
        { airline: 'red', route: 'zurich-milan' },
      ],
      take: deckTake,
    });
    expect(s.networks.red).toEqual(['frankfurt', 'zurich', 'milan']);
    expect(s.track.red).toBe(board.airlineById.red!.start + 2);
    expect(s.money[0]).toBe(18);
    rules.apply(s, 1, {
      type: 'buy',
      licences: [
        { airline: 'black', route: 'berlin-warsaw' },
        { airline: 'grey', route: 'london-paris' },
      ],
      take: deckTake,
    });
    expect(s.planes.black).toBe(12);
    expect(s.planes.grey).toBe(7);
    // The same licence twice in one move is still one licence per airline and route.
    expectRefused(
      s,
      2,
      {
        type: 'buy',
        licences: [
          { airline: 'brown', route: 'vienna-budapest' },
          { airline: 'brown', route: 'vienna-budapest' },
        ],
        take: deckTake,
      },
      /Brown already flies Vienna-Budapest/,
    );
    // Money counts both licences together.
    s.money[2] = 1;
    s.bank += 7;
    expectRefused(
      s,
      2,
      {
        type: 'buy',
        licences: [
          { airline: 'brown', route: 'vienna-budapest' },
          { airline: 'brown', route: 'munich-vienna' },
        ],
        take: deckTake,
      },
      /2 M in all\) and you have only 1 M/,
    );
  });

  it('connection bonus: Orange reaching London moves on by the licence and then by the bonus, only the first time', () => {
    const s = quietState(4, { money: [20, 20, 8, 8] });
    giveLicences(s, 'orange', ['rome-athens', 'milan-rome']);
    const before = s.track.orange!;
    rules.apply(s, 0, { type: 'buy', licences: [{ airline: 'orange', route: 'london-milan' }], take: deckTake });
    expect(s.track.orange).toBe(before + 4 + board.airlineById.orange!.bonus!.value);
    expect(s.bonusesLeft).not.toContain('orange');
    const after = s.track.orange!;
    rules.apply(s, 1, { type: 'buy', licences: [{ airline: 'orange', route: 'london-paris' }], take: deckTake });
    expect(s.track.orange).toBe(after + 1);
    expect(rules.check!(s)).toEqual([]);
  });

  it('each of the four bonus airlines gets its bonus on reaching its city', () => {
    const paths: Record<string, string[]> = {
      green: ['stockholm-warsaw', 'warsaw-budapest', 'budapest-belgrade', 'belgrade-athens'],
      grey: ['london-milan', 'milan-rome', 'rome-athens', 'athens-ankara'],
      white: ['warsaw-moscow', 'berlin-warsaw', 'paris-berlin', 'paris-madrid'],
    };
    for (const [airline, path] of Object.entries(paths)) {
      const s = quietState(4, { money: [40, 8, 8, 8] });
      giveLicences(s, airline, path.slice(0, -1));
      const last = path[path.length - 1]!;
      const cost = board.routes[route(last)]!.costs[0]!;
      const before = s.track[airline]!;
      rules.apply(s, 0, { type: 'buy', licences: [{ airline, route: last }], take: deckTake });
      expect(s.track[airline], airline).toBe(before + cost + board.airlineById[airline]!.bonus!.value);
      expect(s.bonusesLeft).not.toContain(airline);
    }
  });

  it('an airline with planes but no licence left to buy is blocked and offers no licence', () => {
    const s = quietState(4, { money: [40, 8, 8, 8] });
    for (const r of board.routesByCity.athens!) {
      const holders = s.licences[r]!;
      while (holders.length < board.routes[r]!.costs.length) {
        const other = ['red', 'black', 'brown'].find((a) => !holders.includes(a))!;
        giveLicences(s, other, [board.routes[r]!.id]);
      }
    }
    expect(isBlocked(s, 'orange')).toBe(true);
    expect(rules.view(s, 0).airlines).toContainEqual(expect.objectContaining({ id: 'orange', blocked: true }));
    expect(rules.moves(s, 0).some((m) => m.type === 'buy' && m.licences.some((l) => l.airline === 'orange'))).toBe(
      false,
    );
    expectRefused(
      s,
      0,
      { type: 'buy', licences: [{ airline: 'orange', route: 'sofia-athens' }], take: deckTake },
      /Sofia-Athens has no free licence/,
    );
  });

  it('when a licence leaves every airline blocked, the game ends at once with the final scoring', () => {
    const s = quietState(4, { money: [40, 8, 8, 8] });
    allPlanesFlownButRedsLast(s);
    expect(rules.check!(s)).toEqual([]);
    s.portfolios[0] = { abacus: 1 };
    s.abacusSupply -= 1;
    const move = rules.moves(s, 0).find((m) => m.type === 'buy' && m.licences.length === 1)!;
    expect(move).toBeDefined();
    expect(rules.describe(move, s, 0)).toMatch(/every airline is now blocked and the game ends/);
    const hand = [...s.hands[0]!];
    const market = [...s.market];
    rules.apply(s, 0, move);
    expect(s.market).toEqual(market);
    expect(s.phase).toBe('over');
    expect(s.allBlocked).toBe(true);
    expect(s.hands[0]).toEqual(hand); // no share is taken: the game ended at once
    expect(s.lastScoring!.number).toBe(3);
    expect(s.lastScoring!.points[0]!.abacus).toBe(16); // the final Air Abacus row
    expect(rules.outcome(s)!.reason).toBe('every airline is blocked');
    expect(rules.toAct(s)).toEqual([]);
    expect(rules.check!(s)).toEqual([]); // the scoring cards still in the pile are not counted against the final scoring
  });

  it('two players: when every airline is blocked the final scoring counts the third hand', () => {
    const s = quietState(2, { money: [40, 8] });
    allPlanesFlownButRedsLast(s);
    s.portfolios = [{ abacus: 1 }, {}];
    s.abacusSupply -= 1;
    expect(rules.check!(s)).toEqual([]);
    const move = rules.moves(s, 0).find((m) => m.type === 'buy' && m.licences.length === 1)!;
    rules.apply(s, 0, move);
    expect(s.phase).toBe('over');
    expect(s.allBlocked).toBe(true);
    expect(s.lastScoring!.number).toBe(3);
    // The third hand holds the 19 Air Abacus left in the supply: 16 to it, 8 to seat 0.
    expect(s.lastScoring!.points.map((p) => p.abacus)).toEqual([8, 0]);
    expect(rules.check!(s)).toEqual([]);
  });

  it('listed moves show, for each open connection bonus, the licence leading nearest its city (round a full route)', () => {
    const s = quietState(4, { money: [20, 8, 8, 8] });
    const listed = () =>
      rules.moves(s, 0).flatMap((m) => (m.type === 'buy' ? m.licences.map((l) => `${l.airline} ${l.route}`) : []));
    // Orange's cheapest licences are Sofia, Istanbul and Belgrade; Rome (4 M) is on the way to London.
    expect(listed()).toContain('orange rome-athens');
    expect(listed()).toContain('grey london-milan');
    expect(listed()).toContain('white warsaw-moscow');
    // Rome-Athens full: Orange's way now leads through Belgrade.
    giveLicences(s, 'purple', ['rome-athens']);
    giveLicences(s, 'red', ['rome-athens']);
    expect(listed()).not.toContain('orange rome-athens');
    expect(listed()).toContain('orange belgrade-athens');
    for (const m of rules.moves(s, 0)) expect(() => rules.apply(structuredClone(s), 0, m)).not.toThrow();
  });

  it('after the licences the player takes one share: from the market (refilled at once) or blind from the pile', () => {
    const s = quietState(4, {
      money: [20, 20, 8, 8],
      market: ['red', 'red', 'black', 'black', 'brown'],
      deck: ['white', 'green', SCORING_CARD, 'grey', SCORING_CARD, 'grey', SCORING_CARD],
    });
    rules.apply(s, 0, {
      type: 'buy',
      licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
      take: { from: 'market', airline: 'black' },
    });
    expect(s.hands[0]).toEqual(['black']);
    expect(s.market).toEqual(['red', 'red', 'black', 'brown', 'white']);
    rules.apply(s, 1, { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-munich' }], take: deckTake });
    expect(s.hands[1]).toEqual(['green']);
    expectRefused(
      s,
      2,
      {
        type: 'buy',
        licences: [{ airline: 'brown', route: 'vienna-budapest' }],
        take: { from: 'market', airline: 'orange' },
      },
      /no Orange share in the market/,
    );
  });

  it('a licence must be bought to take a share this way', () => {
    const s = quietState(4, { money: [20, 8, 8, 8] });
    expectRefused(s, 0, { type: 'buy', licences: [], take: deckTake }, /Buy one or two licences/);
    expectRefused(s, 0, { type: 'take', take: deckTake }, /only for the clear-out/);
  });
});
