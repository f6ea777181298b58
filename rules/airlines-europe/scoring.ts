// Scoring: the market clear-out, then every airline by its value track row
// (furthest first), then Air Abacus; ties share the summed places rounded up.
import type { Seat } from '../types.ts';
import type { Take } from './actions.ts';
import { board } from './board.ts';
import { anythingToTake, drawBlind, nextSeat, refillMarket, removeShares, takeFromMarket } from './deck.ts';
import type { AEState, ScoringLine } from './state.ts';

/**
 * Points by rank for holders with these share counts: the most shares gets the
 * first value, the next the second, and so on; players tied share the values
 * of the places they cover, summed and divided, rounding up. No shares, no points.
 * rankPoints([3, 2, 2, 0], [6, 3, 2, 1, 0]) is [6, 3, 3, 0].
 */
export function rankPoints(counts: readonly number[], row: readonly number[]): number[] {
  const out = counts.map(() => 0);
  const holders = counts
    .map((_, i) => i)
    .filter((i) => counts[i]! > 0)
    .sort((a, b) => counts[b]! - counts[a]!);
  let place = 0;
  while (place < holders.length) {
    let end = place;
    while (end + 1 < holders.length && counts[holders[end + 1]!] === counts[holders[place]!]) end++;
    let sum = 0;
    for (let k = place; k <= end; k++) sum += row[k] ?? 0;
    const each = Math.ceil(sum / (end - place + 1));
    for (let k = place; k <= end; k++) out[holders[k]!] = each;
    place = end + 1;
  }
  return out;
}

/** Airlines in scoring order: furthest along the value track first (board order among equals). */
export function scoringOrder(s: AEState): string[] {
  return [...s.airlines].sort((a, b) => s.track[b]! - s.track[a]! || s.airlines.indexOf(a) - s.airlines.indexOf(b));
}

/**
 * Two players, third scoring: a third player holds every Air Abacus share not
 * traded for and every share in the market, the draw pile and the discard pile.
 */
export function thirdPlayerHoldings(s: AEState): Record<string, number> {
  const out: Record<string, number> = { [board.abacus.id]: s.abacusSupply };
  for (const a of [...s.market, ...s.deck, ...s.discard]) if (board.airlineById[a]) out[a] = (out[a] ?? 0) + 1;
  return out;
}

/** Scores every airline and Air Abacus; `number` is 1, 2 or 3 (3 is the final scoring). */
export function scoreAirlines(s: AEState, number: number): void {
  const ghost = s.seats === 2 && number === 3 ? thirdPlayerHoldings(s) : null;
  const points: ScoringLine[] = Array.from({ length: s.seats }, () => ({}));
  const order = scoringOrder(s);
  const award = (airline: string, row: readonly number[]) => {
    const counts = s.portfolios.map((p) => p[airline] ?? 0);
    if (ghost) counts.push(ghost[airline] ?? 0);
    const got = rankPoints(counts, row);
    for (let seat = 0; seat < s.seats; seat++) {
      points[seat]![airline] = got[seat]!;
      s.vp[seat]! += got[seat]!;
    }
  };
  for (const a of order) award(a, board.rowAt(s.track[a]!));
  award(board.abacus.id, board.abacus.rows[number - 1]!);
  s.scoringsDone = Math.max(s.scoringsDone, number);
  s.lastScoring = { number, points, order: [...order, board.abacus.id] };
}

/** Skips seats that can take nothing during the clear-out. */
function clearoutSeatWhoCanTake(s: AEState): void {
  while (s.clearout && s.clearout.left > 0 && !anythingToTake(s)) {
    s.clearout.left--;
    s.clearout.seat = nextSeat(s, s.clearout.seat);
  }
}

/**
 * After a player's turn: if a scoring card lies in front of someone, the
 * clear-out of the market begins with that player; otherwise `next` plays.
 */
export function continueAfterTurn(s: AEState, next: Seat): void {
  if (s.phase === 'over') return;
  // Whoever plays after the scorings: kept in `turn` while the clear-out runs.
  s.turn = next;
  if (s.scoringQueue.length > 0) {
    s.phase = 'clearout';
    s.clearout = { seat: s.scoringQueue[0]!, left: s.seats };
    clearoutSeatWhoCanTake(s);
    if (s.clearout.left === 0) finishClearout(s);
    return;
  }
  s.phase = 'play';
  s.clearout = null;
}

/** One seat takes its clear-out share (already checked): from the market, not refilled, or blind. */
export function clearoutTake(s: AEState, seat: Seat, take: Take): void {
  if (take.from === 'market') takeFromMarket(s, seat, take.airline);
  else drawBlind(s, seat);
  s.clearout!.left--;
  s.clearout!.seat = nextSeat(s, seat);
  clearoutSeatWhoCanTake(s);
  if (s.clearout!.left === 0) finishClearout(s);
}

/** Everyone has taken: the rest of the market leaves play, the market is refilled, then the scoring. */
function finishClearout(s: AEState): void {
  s.scoringQueue.shift();
  removeShares(s, s.market.splice(0));
  // A scoring card turning up here lies in front of the player who plays next.
  refillMarket(s, (s.turn + s.seats - 1) % s.seats);
  const number = s.scoringsDone + 1;
  scoreAirlines(s, number);
  if (number >= 3) {
    endGame(s, 'the third scoring', false);
    return;
  }
  s.clearout = null;
  // Play goes on with the player after the one whose turn turned up the card(s).
  continueAfterTurn(s, s.turn);
}

export function endGame(s: AEState, reason: string, allBlocked: boolean): void {
  s.phase = 'over';
  s.clearout = null;
  s.scoringQueue = [];
  s.endReason = reason;
  s.allBlocked = allBlocked;
}
