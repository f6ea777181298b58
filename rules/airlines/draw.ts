// Drawing cards and ending a turn: stock from the open row (refilled to five)
// or the pile, route cards from their pile (the played ones reshuffled when it
// runs out). A scoring card that turns up is scored at once and replaced.
import { shuffle } from '../random.ts';
import { board } from './board.ts';
import { foundings } from './placement.ts';
import { runScoring } from './scoring.ts';
import { SCORING, type AirlinesState } from './state.ts';

/** The next stock card off the pile, scoring any scoring cards on the way; null when none is left. */
function nextFromPile(s: AirlinesState): number | null {
  while (s.pile.length > 0) {
    const card = s.pile.shift()!;
    if (card !== SCORING) return card;
    runScoring(s, false);
  }
  return null;
}

/** Gives the seat a stock card from `source`: 'pile' or a company index in the open row. */
export function takeStock(s: AirlinesState, seat: number, source: 'pile' | number): void {
  if (source === 'pile') {
    const card = nextFromPile(s);
    if (card !== null) s.stock[seat]![card]!++;
    return;
  }
  s.open.splice(s.open.indexOf(source), 1);
  s.stock[seat]![source]!++;
  while (s.open.length < board.openStock) {
    const card = nextFromPile(s);
    if (card === null) break;
    s.open.push(card);
  }
}

export function routeCardsLeft(s: AirlinesState): number {
  return s.routePile.length + s.routeDiscard.length;
}

export function drawRouteCard(s: AirlinesState, seat: number): number | null {
  if (s.routePile.length === 0) {
    s.routePile = shuffle(s.random, s.routeDiscard);
    s.routeDiscard = [];
  }
  const card = s.routePile.shift();
  if (card === undefined) return null;
  s.routes[seat]!.push(card);
  return card;
}

export function playRouteCard(s: AirlinesState, seat: number, card: number): void {
  const hand = s.routes[seat]!;
  hand.splice(hand.indexOf(card), 1);
  s.routeDiscard.push(card);
}

/**
 * Whether the seat can do anything at the start of a turn: draw a route card to
 * extend, lay out stock of a founded airline, or found one.
 */
function canAct(s: AirlinesState, seat: number): boolean {
  if (routeCardsLeft(s) > 0) return true;
  if (s.stock[seat]!.some((n, c) => n > 0 && s.founded[c])) return true;
  return foundings(s, seat).length > 0;
}

/**
 * Ends the turn; when the last stock card of the pile is gone, the final scoring
 * ends the game. A seat that can do nothing is passed over. Once route cards
 * stay in hands (rules version 2) every route card may end up held, and then
 * nobody may be able to move: no stock card can ever be taken again, so the
 * game can never reach its end as the seed words it, and it ends there instead.
 */
export function endTurn(s: AirlinesState): void {
  s.step = 'action';
  s.drawn = null;
  s.moves++;
  const seats = s.points.length;
  if (s.pile.length === 0) return finish(s);
  for (let k = 1; k <= seats; k++) {
    const seat = (s.turn + k) % seats;
    if (canAct(s, seat)) {
      s.turn = seat;
      return;
    }
  }
  finish(s);
}

function finish(s: AirlinesState): void {
  runScoring(s, true);
  s.over = true;
}
