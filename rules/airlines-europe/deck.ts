// The draw pile and the market: blind draws, refills, scoring cards turning up,
// and where shares go when they leave play.
import type { Seat } from '../types.ts';
import type { Take } from './actions.ts';
import { board, airlineName } from './board.ts';
import { SCORING_CARD, type AEState } from './state.ts';

export function nextSeat(s: AEState, seat: Seat): Seat {
  return (seat + 1) % s.seats;
}

/** A scoring card turned up by `seat`: it goes in front of the next player and waits for its scoring. */
function scoringCardTurnedUp(s: AEState, seat: Seat): void {
  s.scoringQueue.push(nextSeat(s, seat));
}

/**
 * Fills the market to its size from the top of the pile. A scoring card that
 * turns up goes in front of the player after `seat`, and filling goes on.
 */
export function refillMarket(s: AEState, seat: Seat): void {
  while (s.market.length < board.setup.marketSize && s.deck.length > 0) {
    const card = s.deck.shift()!;
    if (card === SCORING_CARD) scoringCardTurnedUp(s, seat);
    else s.market.push(card);
  }
}

/**
 * `seat` draws the top share blind into the hand. A scoring card drawn goes in
 * front of the next player, and the player draws again. Returns the share, or
 * null when the pile ran out.
 */
export function drawBlind(s: AEState, seat: Seat): string | null {
  while (s.deck.length > 0) {
    const card = s.deck.shift()!;
    if (card === SCORING_CARD) {
      scoringCardTurnedUp(s, seat);
      continue;
    }
    s.hands[seat]!.push(card);
    return card;
  }
  return null;
}

/** Takes one share of `airline` from the market into the hand (no refill). */
export function takeFromMarket(s: AEState, seat: Seat, airline: string): void {
  s.market.splice(s.market.indexOf(airline), 1);
  s.hands[seat]!.push(airline);
}

/** Shares leaving play: out of the game, or face down on the discard pile with two players. */
export function removeShares(s: AEState, airlines: string[]): void {
  for (const a of airlines) {
    if (s.seats === 2) s.discard.push(a);
    else s.removed[a] = (s.removed[a] ?? 0) + 1;
  }
}

/** Does taking `take` work now? Returns a message if not. */
export function takeProblem(s: AEState, take: Take): string | null {
  if (take.from === 'deck') return s.deck.length > 0 ? null : 'The draw pile is empty.';
  if (take.airline === board.abacus.id) return 'Air Abacus shares never come to the market: trade shares for them.';
  if (!s.market.includes(take.airline)) return `There is no ${airlineName(take.airline)} share in the market.`;
  return null;
}

/** Can anything be taken at all (market or pile)? */
export function anythingToTake(s: AEState): boolean {
  return s.market.length > 0 || s.deck.some((c) => c !== SCORING_CARD);
}
