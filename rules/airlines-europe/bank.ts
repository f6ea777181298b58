// Money from the bank (actions B and D) and the bank going broke.
import type { Seat } from '../types.ts';
import { board } from './board.ts';
import { refillMarket, removeShares } from './deck.ts';
import type { AEState } from './state.ts';

/**
 * The bank cannot pay: every player keeps at most 8 M and returns the rest,
 * the whole market leaves play and is laid out anew. `seat` caused it.
 */
export function bankGoesBroke(s: AEState, seat: Seat): void {
  const keep = board.setup.brokeKeep;
  for (let p = 0; p < s.seats; p++) {
    if (s.money[p]! > keep) {
      s.bank += s.money[p]! - keep;
      s.money[p] = keep;
    }
  }
  removeShares(s, s.market.splice(0));
  refillMarket(s, seat);
  s.bankBroke++;
}

/** Would paying this much now break the bank? */
export function bankWouldBreak(s: AEState, amount: number): boolean {
  return s.bank < amount;
}

/** The bank pays `seat`; if it cannot, it goes broke first and then pays as normal. */
export function payFromBank(s: AEState, seat: Seat, amount: number): void {
  if (s.bank < amount) bankGoesBroke(s, seat);
  const paid = Math.min(amount, s.bank);
  s.bank -= paid;
  s.money[seat]! += paid;
}
