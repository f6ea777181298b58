// Operating rounds: the president's emergency money (share sales) and bankruptcy.
import { sentence } from '../words.ts';
import { RuleError } from '../../types.ts';
import { compareOperatingOrder, sharePrice } from '../market.ts';
import { sellProblem, sellShares, SHARE_PERCENT } from '../shares.ts';
import type { CorpState, Game1830State } from '../state.ts';

import { cheapestDepotPrice, mustBuyTrain, orRound } from './common.ts';
import { endGame } from './flow.ts';
import { rules } from '../rule-set.ts';
import { playerSaleProblem } from '../stock-round.ts';

export function emergencySellProblem(
  state: Game1830State,
  seat: number,
  corp: CorpState,
  target: CorpState,
  percent: number,
): string | null {
  const r = orRound(state);
  if (r.step !== 'train') return 'the president sells shares only to raise money for a train, in the train step';
  const problem = sellProblem(state, seat, target, percent);
  if (problem) return problem;
  if (target.sym === corp.sym && target.president === seat) {
    let next = 0;
    for (let s = 0; s < state.seats; s++) if (s !== seat) next = Math.max(next, target.held[s]!);
    if (target.held[seat]! - percent < next)
      return `selling would give away the presidency of ${corp.sym}, which the rules forbid`;
  }
  const need = cheapestDepotPrice(state) - (state.cash[seat]! + corp.cash);
  const smaller = sharePrice(target) * (percent / SHARE_PERCENT - 1);
  if (smaller >= need) return `only as many shares as needed may be sold ($${Math.max(need, 0)} is missing)`;
  return null;
}

export function emergencySell(
  state: Game1830State,
  seat: number,
  corp: CorpState,
  targetSym: string,
  percent: number,
): void {
  const target = state.corps[targetSym];
  if (!target) throw new RuleError(`There is no corporation ${targetSym}`);
  const problem = emergencySellProblem(state, seat, corp, target, percent);
  if (problem) throw new RuleError(sentence(problem));
  orRound(state).turn.lastSoldPrice = sharePrice(target);
  sellShares(state, seat, target, percent);
  recalculateOrder(state);
}

/**
 * Seed rule set (G.1.d.3: "he may sell private companies he owns, if he finds a buyer"): the
 * president, short of money for the train his corporation must buy, offers a private of his own
 * to another player at a price; the buyer accepts (the same buyCompany) or declines. Phases 2 to 4,
 * as every sale between players.
 */
export function emergencySellPrivate(
  state: Game1830State,
  seat: number,
  corp: CorpState,
  sym: string,
  buyer: number,
  price: number,
  accepted = false,
): void {
  if (!rules(state).emergencyPrivateSale)
    throw new RuleError('In this rule set a president raises money for a train by selling shares, not privates');
  if (orRound(state).step !== 'train' || !mustBuyTrain(state, corp))
    throw new RuleError(
      `A president sells a private in an operating round only to raise money for a train ${corp.sym} must buy`,
    );
  const need = cheapestDepotPrice(state) - (state.cash[seat]! + corp.cash);
  if (need <= 0)
    throw new RuleError(
      `${corp.sym} and its president have the money for the cheapest train ($${cheapestDepotPrice(state)})`,
    );
  const problem = playerSaleProblem(state, seat, buyer, sym, price);
  if (problem) throw new RuleError(sentence(problem));
  if (!accepted) {
    state.offer = { company: sym, price, seller: seat, by: seat, buyer };
    return;
  }
  state.cash[buyer]! -= price;
  state.cash[seat]! += price;
  state.privates[sym]!.owner = buyer;
}

/** The buyer accepted the president's emergency offer: the sale goes through (checked again first). */
export function acceptEmergencyPrivateSale(
  state: Game1830State,
  seller: number,
  sym: string,
  buyer: number,
  price: number,
): void {
  const r = orRound(state);
  const corp = r.current ? state.corps[r.current] : undefined;
  if (!corp || corp.president !== seller) throw new RuleError('The seller no longer runs the operating corporation');
  emergencySellPrivate(state, seller, corp, sym, buyer, price, true);
}

export function recalculateOrder(state: Game1830State): void {
  const r = orRound(state);
  const rest = r.order.slice(r.index + 1).map((s) => state.corps[s]!);
  rest.sort((a, b) => compareOperatingOrder(state, a, b));
  r.order = [...r.order.slice(0, r.index + 1), ...rest.map((c) => c.sym)];
}

export function sellableMax(state: Game1830State, seat: number, corp: CorpState, target: CorpState): number {
  for (let pct = target.held[seat]!; pct >= SHARE_PERCENT; pct -= SHARE_PERCENT) {
    if (emergencySellProblem(state, seat, corp, target, pct) === null) return pct;
  }
  return 0;
}

export function canGoBankrupt(state: Game1830State, seat: number, corp: CorpState): boolean {
  if (!mustBuyTrain(state, corp)) return false;
  let power = corp.cash + state.cash[seat]!;
  for (const sym in state.corps) {
    const t = state.corps[sym]!;
    if (t.held[seat]! > 0) {
      const pct = sellableMax(state, seat, corp, t);
      power += (sharePrice(t) * pct) / SHARE_PERCENT;
    }
  }
  return power < cheapestDepotPrice(state);
}

/**
 * The president goes bankrupt and the game ends at once. Under the 18xx.games rule set his shares
 * are sold to the pool, as many as the rules allow, and his cash goes to the bank; under the seed
 * (H: he "counts the value of the shares he holds, but is not allowed to sell them") he keeps
 * both and is valued like everybody else.
 */
export function goBankrupt(state: Game1830State, seat: number, corp: CorpState): void {
  if (!canGoBankrupt(state, seat, corp))
    throw new RuleError(
      `${corp.sym} and its president can still raise the money for the cheapest train ($${cheapestDepotPrice(state)})`,
    );
  if (rules(state).bankruptSharesSold) sellEverything(state, seat, corp);
  state.bankrupt[seat] = true;
  endGame(state, 'bankrupt');
}

function sellEverything(state: Game1830State, seat: number, corp: CorpState): void {
  const holdings = Object.values(state.corps).filter((c) => (c.held[seat] ?? 0) > 0 && c.ipoed);
  holdings.sort((a, b) => compareOperatingOrder(state, a, b));
  for (const t of holdings) {
    for (;;) {
      const pct = sellableMax(state, seat, corp, t);
      if (pct === 0) break;
      sellShares(state, seat, t, pct);
    }
  }
  recalculateOrder(state);
  state.bank += state.cash[seat] ?? 0;
  state.cash[seat] = 0;
}
