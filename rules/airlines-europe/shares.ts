// Action B (play shares for dividends) and action C (trade for Air Abacus).
import type { Seat } from '../types.ts';
import { board, airlineName } from './board.ts';
import { removeShares } from './deck.ts';
import type { AEState } from './state.ts';

export interface SharePlay {
  airline: string;
  count: number;
}

function countIn(hand: readonly string[], airline: string): number {
  let n = 0;
  for (const a of hand) if (a === airline) n++;
  return n;
}

/** Any number of shares of one airline, or one share each of two airlines. */
export function playProblem(s: AEState, seat: Seat, plays: readonly SharePlay[]): string | null {
  if (plays.length === 0) return 'Play at least one share.';
  if (plays.length > 2) return 'Play shares of one airline, or one share each of two airlines, not three airlines.';
  if (plays.length === 2) {
    if (plays[0]!.airline === plays[1]!.airline)
      return `Name ${airlineName(plays[0]!.airline)} once with the number of shares.`;
    if (plays[0]!.count !== 1 || plays[1]!.count !== 1) {
      return 'With two airlines you play exactly one share of each; several shares must all be of one airline.';
    }
  }
  const hand = s.hands[seat]!;
  for (const p of plays) {
    if (p.count < 1) return 'Play at least one share.';
    const have = countIn(hand, p.airline);
    if (have < p.count) {
      return have === 0
        ? `You hold no ${airlineName(p.airline)} share in your hand.`
        : `You hold only ${have} ${airlineName(p.airline)} share${have === 1 ? '' : 's'} in your hand.`;
    }
  }
  return null;
}

/** Plays the shares into the portfolio; the dividend is paid by the caller. Returns the number played. */
export function playShares(s: AEState, seat: Seat, plays: readonly SharePlay[]): number {
  const hand = s.hands[seat]!;
  const portfolio = s.portfolios[seat]!;
  let n = 0;
  for (const p of plays) {
    for (let k = 0; k < p.count; k++) hand.splice(hand.indexOf(p.airline), 1);
    portfolio[p.airline] = (portfolio[p.airline] ?? 0) + p.count;
    n += p.count;
  }
  return n;
}

export interface TradeGive {
  airline: string;
  from: 'hand' | 'portfolio';
}

/** 1 share for 1 Air Abacus, or 3 shares for 2; at most 2 per trade and only while the supply lasts. */
export function tradeProblem(s: AEState, seat: Seat, get: number, give: readonly TradeGive[]): string | null {
  if (get > 2) return 'You may trade for at most 2 Air Abacus shares at a time.';
  if (get < 1) return 'Trade for 1 or 2 Air Abacus shares.';
  const need = get === 1 ? 1 : 3;
  if (give.length !== need) {
    return get === 1 ? 'One Air Abacus share costs exactly 1 share.' : 'Two Air Abacus shares cost exactly 3 shares.';
  }
  if (s.abacusSupply < get) {
    return s.abacusSupply === 0 ? 'No Air Abacus shares are left.' : `Only ${s.abacusSupply} Air Abacus share is left.`;
  }
  const fromHand: Record<string, number> = {};
  const fromPortfolio: Record<string, number> = {};
  for (const g of give) {
    if (g.airline === board.abacus.id) return 'Air Abacus shares cannot be traded for Air Abacus shares.';
    if (!board.airlineById[g.airline]) return `There is no airline called ${g.airline}.`;
    const tally = g.from === 'hand' ? fromHand : fromPortfolio;
    tally[g.airline] = (tally[g.airline] ?? 0) + 1;
  }
  for (const [a, n] of Object.entries(fromHand)) {
    if (countIn(s.hands[seat]!, a) < n)
      return `You do not have ${n} ${airlineName(a)} share${n === 1 ? '' : 's'} in your hand.`;
  }
  for (const [a, n] of Object.entries(fromPortfolio)) {
    if (!Object.hasOwn(s.portfolios[seat]!, a) || s.portfolios[seat]![a]! < n)
      return `You do not have ${n} ${airlineName(a)} share${n === 1 ? '' : 's'} in your portfolio.`;
  }
  return null;
}

/** Discards the shares face down (out of the game; onto the discard pile with two players) and takes Air Abacus into the hand. */
export function tradeForAbacus(s: AEState, seat: Seat, get: number, give: readonly TradeGive[]): void {
  const hand = s.hands[seat]!;
  const portfolio = s.portfolios[seat]!;
  for (const g of give) {
    if (g.from === 'hand') hand.splice(hand.indexOf(g.airline), 1);
    else {
      portfolio[g.airline]! -= 1;
      if (portfolio[g.airline] === 0) delete portfolio[g.airline];
    }
  }
  removeShares(
    s,
    give.map((g) => g.airline),
  );
  for (let k = 0; k < get; k++) hand.push(board.abacus.id);
  s.abacusSupply -= get;
}
