// Operating rounds: buying trains (from the bank in order, traded in, from other corporations), phases, rusting, discards.
import { RuleError } from '../../types.ts';
import { DATA, PRIVATES, TRAINS } from '../data.ts';
import type { CorpState, Game1830State, TrainState } from '../state.ts';

import { requireStep } from './apply.ts';
import {
  canBuyTrain,
  cheapestDepotPrice,
  crowded,
  currentCorp,
  depotOffer,
  discardOrder,
  mustBuyTrain,
  orRound,
  stepActive,
  trainById,
  trainLimit,
  trainPrice,
  toPool,
} from './common.ts';
import { advance, passStep } from './flow.ts';
import { rules } from '../rule-set.ts';

export function removeTrain(state: Game1830State, t: TrainState): void {
  if (t.owner !== 'depot' && t.owner !== 'pool' && t.owner !== 'gone') {
    const owner = state.corps[t.owner]!;
    owner.trains.splice(owner.trains.indexOf(t.id), 1);
  }
}

export function nextUnlimitedId(state: Game1830State, name: string): string {
  let n = 0;
  for (const t of state.trains) if (t.name === name) n++;
  return `${name}-${n}`;
}

/**
 * One train bought (the train step repeats while more can be bought). The seed's limit of one
 * train of a new type per turn (E.e) holds under the seed rule set only; 18xx.games has none.
 */
export function buyTrain(
  state: Game1830State,
  corp: CorpState,
  trainId: string,
  price: number,
  exchangeId?: string,
): void {
  const r = orRound(state);
  requireStep(state, 'train', 'Buying a train');
  const t = trainById(state, trainId);
  if (!t || t.owner === 'gone') throw new RuleError(`There is no train ${trainId} to buy`);
  if (t.owner === corp.sym) throw new RuleError(`${corp.sym} already owns ${trainId}`);
  // a trade-in leaves the number of trains as it was, so it is allowed at the limit (as on 18xx.games)
  if (!exchangeId && corp.trains.length >= trainLimit(state))
    throw new RuleError(`${corp.sym} is at its train limit of ${trainLimit(state)}`);
  const fromBank = t.owner === 'depot' || t.owner === 'pool';
  const president = corp.president!;
  let exchange: TrainState | undefined;
  if (fromBank) {
    if (t.owner !== 'pool' && !depotOffer(state).includes(t))
      throw new RuleError(`The ${t.name} train is not for sale yet: trains are bought in order`);
    if (t.owner === 'pool' && discardOrder(state) && !depotOffer(state).includes(t)) {
      const first = depotOffer(state).find((x) => x.owner === 'pool' && x.name === t.name);
      throw new RuleError(
        `Train ${t.id} is not for sale yet: the bank sells discarded trains in the order they were discarded (${first?.id ?? ''} first)`,
      );
    }
    if (rules(state).oneNewTrainPerTurn && r.turn.newTrainType === t.name && t.owner === 'depot')
      throw new RuleError(
        `${corp.sym} bought the first ${t.name} train this turn and may buy only one train of a new type per turn`,
      );
    let face = trainPrice(t);
    if (exchangeId) {
      exchange = trainById(state, exchangeId);
      const credit = TRAINS[t.name]!.tradeIn?.[exchange?.name ?? ''];
      if (!exchange || exchange.owner !== corp.sym)
        throw new RuleError(`${corp.sym} does not own a train ${exchangeId} to trade in`);
      if (!credit) {
        const ins = Object.entries(TRAINS)
          .filter(([, d]) => d.tradeIn)
          .map(([n, d]) => {
            const olds = Object.keys(d.tradeIn!);
            return `a ${olds.length > 1 ? `${olds.slice(0, -1).join(', ')} or ${olds[olds.length - 1]}` : olds[0]} train for a ${n} train`;
          });
        throw new RuleError(
          `A ${exchange.name} train cannot be traded in for a ${t.name} train; only ${ins.join('; ')}`,
        );
      }
      face -= credit;
    }
    if (price !== face) throw new RuleError(`The ${t.name} train costs $${face} from the bank`);
    if (price > corp.cash) {
      if (!mustBuyTrain(state, corp)) throw new RuleError(`${corp.sym} has $${corp.cash} and cannot pay $${price}`);
      if (exchange) throw new RuleError('The president cannot add money to a trade-in');
      if (price > cheapestDepotPrice(state) && trainPrice(t) > cheapestDepotPrice(state))
        throw new RuleError(
          `With the president's money only the cheapest train ($${cheapestDepotPrice(state)}) may be bought`,
        );
      const need = price - corp.cash;
      if (state.cash[president]! < need)
        throw new RuleError(
          `${corp.sym} is $${need} short and its president has $${state.cash[president]}: the president must sell shares to raise the other $${need - state.cash[president]!}`,
        );
      state.cash[president]! -= need;
      corp.cash += need;
    }
  } else {
    const owner = state.corps[t.owner]!;
    if (owner.closed) throw new RuleError(`There is no train ${trainId} to buy`);
    if (exchangeId) throw new RuleError('Only trains from the bank can be bought by trading in');
    const { min, max } = otherTrainPrices(state, corp, t);
    if (price < min || price > max)
      throw new RuleError(`${corp.sym} may pay between $${min} and $${max} for ${owner.sym}'s ${t.name} train`);
    if (price > corp.cash) {
      const need = price - corp.cash;
      state.cash[president]! -= need;
      corp.cash += need;
    }
  }
  // pay
  corp.cash -= price;
  if (fromBank) state.bank += price;
  else state.corps[t.owner]!.cash += price;
  if (exchange) {
    removeTrain(state, exchange);
    toPool(state, exchange);
  }
  const wasDepot = t.owner === 'depot';
  if (rules(state).oneNewTrainPerTurn && wasDepot && firstOfItsType(state, t)) r.turn.newTrainType = t.name;
  removeTrain(state, t);
  if (wasDepot && TRAINS[t.name]!.count === 'unlimited') {
    state.trains.push({ id: nextUnlimitedId(state, t.name), name: t.name, owner: 'depot' });
  }
  t.owner = corp.sym;
  corp.trains.push(t.id);
  r.turn.boughtTrain = true;
  r.turn.lastSoldPrice = null;
  // B&O private closes when the B&O buys its first train
  for (const sym in state.privates) {
    const p = state.privates[sym]!;
    if (!p.closed && PRIVATES[sym]!.closesOnTrainOf === corp.sym) closePrivate(state, sym);
  }
  trainBought(state, t);
  if (crowded(state).length) return;
  if (!canBuyTrain(state, corp)) passStep(state);
  else advance(state);
}

/**
 * The prices a corporation may pay for another corporation's train. What its treasury can pay it
 * may pay, even above face value (the seed's G.1.d.2 limits only the president's money). When it
 * must buy a train and the president may add money, the price goes up to face value, and after
 * an emergency sale it must need that sale (18xx.games: more than the cash before the last sale).
 */
export function otherTrainPrices(state: Game1830State, corp: CorpState, t: TrainState): { min: number; max: number } {
  const face = trainPrice(t);
  const president = corp.president;
  if (corp.cash >= face || president === null || !presidentMayAdd(state, corp)) return { min: 1, max: corp.cash };
  const possible = corp.cash + (state.cash[president] ?? 0);
  const lastSold = orRound(state).turn.lastSoldPrice;
  return { min: lastSold === null ? 1 : possible - lastSold + 1, max: Math.min(face, possible) };
}

/**
 * The president may add his money towards another corporation's train: the corporation must buy a
 * train and, under the seed (G.1.d: "must buy a train but lacks the funds"), cannot pay the
 * cheapest bank train itself; 18xx.games lets him whenever the corporation must buy.
 */
function presidentMayAdd(state: Game1830State, corp: CorpState): boolean {
  if (!mustBuyTrain(state, corp)) return false;
  return rules(state).presidentAddsWheneverMustBuy || corp.cash < cheapestDepotPrice(state);
}

/** No train of t's type has left the bank's depot yet: t is of a type new to the game. */
function firstOfItsType(state: Game1830State, t: TrainState): boolean {
  return state.trains.every((x) => x.name !== t.name || x.owner === 'depot');
}

/** Phase changes, rusting and the close of privates that a purchase triggers. */
export function trainBought(state: Game1830State, t: TrainState): void {
  const next = DATA.phases[state.phase + 1];
  if (next && next.on === t.name) {
    state.phase++;
    for (const tr of state.trains) {
      if (tr.owner === 'gone') continue;
      if (TRAINS[tr.name]!.rustsOn === t.name) {
        removeTrain(state, tr);
        tr.owner = 'gone';
      }
    }
    if (TRAINS[t.name]!.closesPrivates) {
      for (const sym in state.privates) if (!state.privates[sym]!.closed) closePrivate(state, sym);
    }
  }
}

export function closePrivate(state: Game1830State, sym: string): void {
  const p = state.privates[sym]!;
  if (typeof p.owner === 'string') {
    const c = state.corps[p.owner]!;
    c.companies.splice(c.companies.indexOf(sym), 1);
  }
  p.owner = null;
  p.closed = true;
}

export function discardTrain(state: Game1830State, corp: CorpState, corpSym: string, trainId: string): void {
  if (corpSym !== corp.sym) throw new RuleError(`${corp.sym} must discard first`);
  if (!corp.trains.includes(trainId)) throw new RuleError(`${corp.sym} does not own ${trainId}`);
  const t = trainById(state, trainId)!;
  removeTrain(state, t);
  toPool(state, t);
  if (crowded(state).length) return;
  const cur = currentCorp(state);
  if (cur) {
    const r = orRound(state);
    if (r.step === 'train' && !stepActive(state, cur, 'train')) passStep(state);
    else advance(state);
  }
}
