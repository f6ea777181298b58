// Drawing cards, the End of Line card, and the hand limit.
import { BOARD, END_OF_LINE } from './data.ts';
import type { PCState } from './state.ts';

/**
 * Draws up to n station cards into the seat's hand. The End of Line card is
 * set aside when it comes up (the game then ends once every player has had
 * the same number of turns) and another card is drawn in its place.
 */
export function drawCards(s: PCState, seat: number, n: number): number {
  let drawn = 0;
  while (drawn < n && s.deck.length > 0) {
    const card = s.deck.shift()!;
    if (card === END_OF_LINE) {
      s.endOfLineDrawn = true;
      continue;
    }
    s.hands[seat]!.push(card);
    drawn++;
  }
  return drawn;
}

export function drawCount(s: PCState): number {
  return BOARD.supplies[String(s.seats) as '2']!.draw;
}

export function stationCardsInDeck(s: PCState): number {
  return s.deck.filter((c) => c !== END_OF_LINE).length;
}

export function overLimit(s: PCState, seat: number): number {
  return Math.max(0, s.hands[seat]!.length - BOARD.handLimit);
}
