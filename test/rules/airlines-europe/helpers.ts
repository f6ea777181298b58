// Hand-set Airlines Europe states for the rule tests.
import { expect } from 'vitest';
import { RuleError } from '../../../rules/types.ts';
import { airlinesEurope as rules, type AEState } from '../../../rules/airlines-europe/index.ts';
import { board } from '../../../rules/airlines-europe/board.ts';
import { SCORING_CARD } from '../../../rules/airlines-europe/state.ts';

export { rules, board, SCORING_CARD };

/** A game past the opening, start player to move. */
export function playState(seats = 4, seed = 'hand-set'): AEState {
  const s = rules.setup(seats, seed, {});
  for (let seat = 0; seat < seats; seat++) rules.apply(s, seat, rules.moves(s, seat)[0]);
  return s;
}

/**
 * A quiet state: empty hands and portfolios, money as given, a market and a
 * draw pile as given (shares not placed elsewhere go out of the game so the
 * counts still add up).
 */
export function quietState(
  seats: number,
  opts: { deck?: string[]; market?: string[]; hands?: string[][]; money?: number[] } = {},
): AEState {
  const s = playState(seats);
  s.hands = opts.hands ?? Array.from({ length: seats }, () => []);
  s.portfolios = Array.from({ length: seats }, () => ({}));
  s.market = opts.market ?? ['red', 'red', 'black', 'black', 'brown'];
  s.deck = opts.deck ?? ['red', 'black', SCORING_CARD, 'brown', 'brown', SCORING_CARD, 'white', 'white', SCORING_CARD];
  if (opts.money) {
    const total = board.setup.bankPerPlayer * seats;
    s.money = [...opts.money];
    s.bank = total - s.money.reduce((a, b) => a + b, 0);
  }
  balanceShares(s);
  return s;
}

/** Puts every share not lying anywhere out of the game (or takes it back), so the conservation check holds. */
export function balanceShares(s: AEState): void {
  if (s.seats === 2) s.discard = [];
  const seen: Record<string, number> = {};
  const add = (a: string, n = 1) => {
    seen[a] = (seen[a] ?? 0) + n;
  };
  for (const c of s.deck) if (c !== SCORING_CARD) add(c);
  for (const c of [...s.market, ...s.discard, ...s.hands.flat(), ...s.opening.flatMap((o) => o ?? [])]) add(c);
  for (const p of s.portfolios) for (const [a, n] of Object.entries(p)) add(a, n);
  s.removed = {};
  for (const a of s.airlines) {
    const rest = board.airlineById[a]!.shares - (seen[a] ?? 0);
    if (rest < 0) throw new Error(`too many ${a} shares in the hand-set state`);
    if (rest > 0) s.removed[a] = rest;
  }
  s.abacusSupply = board.abacus.shares - (seen[board.abacus.id] ?? 0);
  if (s.seats === 2) {
    // Two players keep removed shares face down in the discard pile.
    for (const [a, n] of Object.entries(s.removed)) for (let k = 0; k < n; k++) s.discard.push(a);
    s.removed = {};
  }
}

/** Gives an airline licences along routes (by id), as if bought at their cheapest free price. */
export function giveLicences(s: AEState, airline: string, routes: string[]): void {
  for (const id of routes) {
    const index = board.routeIndex[id]!;
    const r = board.routes[index]!;
    const cost = r.costs[s.licences[index]!.length]!;
    s.licences[index]!.push(airline);
    s.planes[airline]! -= 1;
    s.track[airline] = Math.min(board.valueTrack.length, s.track[airline]! + cost);
    for (const c of [r.from, r.to]) if (!s.networks[airline]!.includes(c)) s.networks[airline]!.push(c);
  }
}

/**
 * Every airline flies all its planes but Red its last one, each on the first
 * free route it does not hold anywhere on the board, and takes the connection
 * bonus its network then reaches: Red's next licence leaves every airline blocked.
 */
export function allPlanesFlownButRedsLast(s: AEState): void {
  // Red last, so that a licence it can buy is still free.
  for (const a of [...s.airlines.filter((x) => x !== 'red'), 'red']) {
    const keep = a === 'red' ? 1 : 0;
    while (s.planes[a]! > keep) {
      const free = board.routes.findIndex(
        (r, i) => s.licences[i]!.length < r.costs.length && !s.licences[i]!.includes(a),
      );
      giveLicences(s, a, [board.routes[free]!.id]);
    }
  }
  for (const a of [...s.bonusesLeft]) {
    const bonus = board.airlineById[a]!.bonus!;
    if (!s.networks[a]!.includes(bonus.city)) continue;
    s.bonusesLeft.splice(s.bonusesLeft.indexOf(a), 1);
    s.track[a] = Math.min(board.valueTrack.length, s.track[a]! + bonus.value);
  }
}

/** `apply` refuses the move with a RuleError matching `message`, and the state is unchanged. */
export function expectRefused(s: AEState, seat: number, action: unknown, message: RegExp): void {
  const before = snapshot(s);
  expect(() => rules.apply(s, seat, action)).toThrow(RuleError);
  expect(() => rules.apply(s, seat, action)).toThrow(message);
  expect(snapshot(s)).toBe(before);
}

export function snapshot(s: AEState): string {
  return JSON.stringify(s);
}

export function expectChecked(s: AEState): string[] {
  return rules.check!(s);
}
