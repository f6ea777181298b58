// Stock rounds: buy one share (IPO at par, pool at market) or par a corporation, sell any
// number (not in the first stock round), in the order sell / buy / sell; the round ends
// when everybody passes in a row. Players with nothing legal to do pass automatically,
// as on 18xx.games.
import { sentence } from './words.ts';
import { RuleError } from '../types.ts';
import { DATA, PAR_CELLS, PRIVATES } from './data.ts';
import { buyMultiple, moveTo, moveUp, compareOperatingOrder, unlimitedHolding } from './market.ts';
import {
  buyShare,
  certCount,
  certLimit,
  checkPresidency,
  gainProblem,
  PRESIDENT_PERCENT,
  sellProblem,
  sellShares,
  shareCost,
  SHARE_PERCENT,
} from './shares.ts';
import type { CorpState, Game1830State, StockRound } from './state.ts';
import { rotateOrder } from './auction.ts';
import { startOperatingSet } from './rounds.ts';
import { rules } from './rule-set.ts';

export function startStockRound(state: Game1830State): void {
  state.round = {
    kind: 'stock',
    index: 0,
    passed: new Array(state.seats).fill(false),
    sold: Array.from({ length: state.seats }, () => ({})),
    turnActions: [],
    boughtFromIpo: false,
  };
  startTurn(state);
}

function live(state: Game1830State): number[] {
  return state.order.filter((s) => !state.bankrupt[s]);
}

export function stockActor(state: Game1830State, round: StockRound): number {
  const l = live(state);
  return l[round.index % l.length]!;
}

/** The turn's one purchase is used: a share bought, a corporation parred, or (by the rule set) a private bought. */
function bought(state: Game1830State, round: StockRound): boolean {
  const privateCounts = rules(state).privateIsTheTurnsPurchase;
  return round.turnActions.some(
    (a) => a.type === 'buy' || a.type === 'par' || (a.type === 'buyPrivate' && privateCounts),
  );
}

/** A private may not be bought now: under 18xx.games the turn's purchase is used; under the seed it never is. */
function privatePurchaseUsed(state: Game1830State, round: StockRound): boolean {
  return rules(state).privateIsTheTurnsPurchase && bought(state, round);
}

/** Why the seat may not buy a share of corp from `from` now, or null. */
export function buyProblem(state: Game1830State, seat: number, corp: CorpState, from: 'ipo' | 'pool'): string | null {
  const round = state.round as StockRound;
  if (!corp.ipoed) return `${corp.sym} has no par value yet; its president's certificate must be bought first (par)`;
  if (from === 'ipo' && corp.ipo <= 0) return `no ${corp.sym} shares are left in the IPO`;
  if (from === 'pool' && corp.pool <= 0) return `the bank pool holds no ${corp.sym} shares`;
  if (round.sold[seat]![corp.sym]) return `You sold ${corp.sym} this round and may not buy it again`;
  if (bought(state, round) && !canBuyMultiple(state, round, corp, from)) return 'You have already bought this turn';
  const cost = shareCost(corp, from);
  if (state.cash[seat]! < cost)
    return `You have $${state.cash[seat]} and cannot pay $${cost} for a share of ${corp.sym}`;
  return gainProblem(state, seat, corp, SHARE_PERCENT);
}

function canBuyMultiple(state: Game1830State, round: StockRound, corp: CorpState, from: 'ipo' | 'pool'): boolean {
  if (!state.options.multipleBrownFromIpo) {
    if (from !== 'pool') return false;
    if (round.boughtFromIpo) return false;
  }
  return (
    buyMultiple(corp) &&
    !round.turnActions.some(
      (a) =>
        a.type === 'par' ||
        (a.type === 'buyPrivate' && !rules(state).brownSharesAfterPrivate) ||
        (a.type === 'buy' && a.corp !== corp.sym),
    )
  );
}

export function parProblem(state: Game1830State, seat: number, corp: CorpState, price: number): string | null {
  const round = state.round as StockRound;
  if (corp.ipoed) return `${corp.sym} already has a par value`;
  if (bought(state, round)) return 'You have already bought this turn';
  if (!PAR_CELLS.some((c) => c[0] === price))
    return `par value must be one of ${PAR_CELLS.map((c) => `$${c[0]}`).join(', ')}`;
  if (state.cash[seat]! < price * 2)
    return `You have $${state.cash[seat]} and cannot pay $${price * 2} for the president's certificate of ${corp.sym}`;
  if (round.sold[seat]![corp.sym]) return `You sold ${corp.sym} this round and may not buy it again`;
  return gainProblem(state, seat, corp, PRESIDENT_PERCENT);
}

export function stockSellProblem(state: Game1830State, seat: number, corp: CorpState, percent: number): string | null {
  if (state.turn === 1 && state.round.kind === 'stock') return 'no shares may be sold in the first stock round';
  return sellProblem(state, seat, corp, percent);
}

function canSellAny(state: Game1830State, seat: number): boolean {
  if (state.turn === 1) return false;
  for (const sym in state.corps) {
    const corp = state.corps[sym]!;
    if (corp.held[seat]! > 0 && stockSellProblem(state, seat, corp, SHARE_PERCENT) === null) return true;
    if (corp.held[seat]! > SHARE_PERCENT && stockSellProblem(state, seat, corp, corp.held[seat]!) === null) return true;
  }
  return false;
}

export function mustSell(state: Game1830State, seat: number): boolean {
  if (!canSellAny(state, seat)) return false;
  if (certCount(state, seat) > certLimit(state)) return true;
  for (const sym in state.corps) {
    const corp = state.corps[sym]!;
    if (corp.held[seat]! > DATA.shareLimitPercent && !unlimitedHolding(corp)) return true;
  }
  return false;
}

/** 18xx.games offers buying another player's private whenever one could be bought (this keeps the turn open). */
function canBuyAnyPrivate(state: Game1830State, round: StockRound, seat: number): boolean {
  if (
    state.turn === 1 ||
    privatePurchaseUsed(state, round) ||
    state.cash[seat]! <= 0 ||
    !DATA.phases[state.phase]!.playersTradePrivates
  )
    return false;
  if (certCount(state, seat) >= certLimit(state)) return false;
  for (const sym in state.privates) {
    const p = state.privates[sym]!;
    if (!p.closed && typeof p.owner === 'number' && p.owner !== seat && !PRIVATES[sym]!.noSaleToCorporation)
      return true;
  }
  return false;
}

export function hasAnyAction(state: Game1830State, seat: number): boolean {
  const round = state.round as StockRound;
  if (canSellAny(state, seat)) return true;
  if (canBuyAnyPrivate(state, round, seat)) return true;
  if (mustSell(state, seat)) return true;
  const cash = state.cash[seat]!;
  const hasBought = bought(state, round);
  const minPar = PAR_CELLS[PAR_CELLS.length - 1]![0];
  for (const sym in state.corps) {
    const corp = state.corps[sym]!;
    if (corp.closed || round.sold[seat]![sym]) continue;
    if (!corp.ipoed) {
      if (!hasBought && cash >= minPar * 2 && parProblem(state, seat, corp, minPar) === null) return true;
      continue;
    }
    if (hasBought && !buyMultiple(corp)) continue;
    if (corp.ipo > 0 && cash >= shareCost(corp, 'ipo') && buyProblem(state, seat, corp, 'ipo') === null) return true;
    if (corp.pool > 0 && cash >= shareCost(corp, 'pool') && buyProblem(state, seat, corp, 'pool') === null) return true;
  }
  return false;
}

/** Skips seats that can do nothing: they pass (or end their turn if they acted). */
function startTurn(state: Game1830State): void {
  for (let guard = 0; guard < 100; guard++) {
    const round = state.round as StockRound;
    if (state.round.kind !== 'stock') return;
    const seat = stockActor(state, round);
    if (hasAnyAction(state, seat)) return;
    endTurn(state, round, seat);
    if (state.round !== round) return;
  }
}

function endTurn(state: Game1830State, round: StockRound, seat: number): void {
  if (round.turnActions.length > 0) round.passed[seat] = false;
  else round.passed[seat] = true;
  const l = live(state);
  round.index = (round.index + 1) % l.length;
  if (l.every((s) => round.passed[s])) {
    finishStockRound(state, round);
    return;
  }
  round.turnActions = [];
  round.boughtFromIpo = false;
}

function afterAction(state: Game1830State, round: StockRound, seat: number): void {
  if (!hasAnyAction(state, seat)) {
    endTurn(state, round, seat);
    startTurn(state);
  }
}

export function applyStockPass(state: Game1830State, seat: number): void {
  const round = state.round as StockRound;
  if (mustSell(state, seat)) throw new RuleError(`You are over a holding limit and must sell shares first`);
  endTurn(state, round, seat);
  startTurn(state);
}

export function applyBuy(state: Game1830State, seat: number, corpSym: string, from: 'ipo' | 'pool'): void {
  const round = state.round as StockRound;
  const corp = state.corps[corpSym];
  if (!corp) throw new RuleError(`There is no corporation ${corpSym}`);
  if (mustSell(state, seat)) throw new RuleError('You are over a holding limit and must sell shares first');
  const problem = buyProblem(state, seat, corp, from);
  if (problem) throw new RuleError(sentence(problem));
  if (from === 'ipo') round.boughtFromIpo = true;
  buyShare(state, seat, corp, from);
  round.turnActions.push({ type: 'buy', corp: corpSym, fromIpo: from === 'ipo' });
  afterAction(state, round, seat);
}

export function applyPar(state: Game1830State, seat: number, corpSym: string, price: number): void {
  const round = state.round as StockRound;
  const corp = state.corps[corpSym];
  if (!corp) throw new RuleError(`There is no corporation ${corpSym}`);
  if (mustSell(state, seat)) throw new RuleError('You are over a holding limit and must sell shares first');
  const problem = parProblem(state, seat, corp, price);
  if (problem) throw new RuleError(sentence(problem));
  const cell = PAR_CELLS.find((c) => c[0] === price)!;
  corp.ipoed = true;
  corp.par = [cell[1], cell[2]];
  moveTo(state, corp, [cell[1], cell[2]]);
  corp.ipo -= PRESIDENT_PERCENT;
  corp.held[seat]! += PRESIDENT_PERCENT;
  state.cash[seat]! -= price * 2;
  state.bank += price * 2;
  checkPresidency(state, corp);
  round.turnActions.push({ type: 'par', corp: corpSym });
  afterAction(state, round, seat);
}

export function applySell(state: Game1830State, seat: number, corpSym: string, percent: number): void {
  const round = state.round as StockRound;
  const corp = state.corps[corpSym];
  if (!corp) throw new RuleError(`There is no corporation ${corpSym}`);
  const problem = stockSellProblem(state, seat, corp, percent);
  if (problem) throw new RuleError(sentence(problem));
  round.sold[seat]![corpSym] = 'now';
  sellShares(state, seat, corp, percent);
  round.turnActions.push({ type: 'sell', corp: corpSym });
  afterAction(state, round, seat);
}

/**
 * A player buys another player's private (phases 2 to 4, not in the first stock round),
 * at the price the two agreed. Under the 18xx.games rule set this is the turn's purchase
 * (only brown shares may follow); under the seed the player may also buy a share. The buyer
 * enters it and its owner accepts or declines.
 */
export function applyBuyPrivate(
  state: Game1830State,
  seat: number,
  sym: string,
  price: number,
  accepted = false,
): void {
  const round = state.round as StockRound;
  const p = state.privates[sym];
  if (!p || p.closed) throw new RuleError(`There is no open private ${sym}`);
  if (state.turn === 1) throw new RuleError('Privates change hands between players only after the first stock round');
  if (!DATA.phases[state.phase]!.playersTradePrivates)
    throw new RuleError('Privates no longer change hands between players in this phase');
  if (typeof p.owner !== 'number' || p.owner === seat) throw new RuleError(`${sym} is not owned by another player`);
  if (PRIVATES[sym]!.noSaleToCorporation) throw new RuleError(`${sym} may not be sold`);
  if (privatePurchaseUsed(state, round)) throw new RuleError('You have already bought this turn');
  if (mustSell(state, seat)) throw new RuleError('You are over a holding limit and must sell shares first');
  // a private counts toward the certificate limit (seed D 7), so it cannot take a player over it
  if (certCount(state, seat) >= certLimit(state))
    throw new RuleError(
      `You are at the certificate limit of ${certLimit(state)}, and a private counts as a certificate`,
    );
  if (price > state.cash[seat]!) throw new RuleError(`You have $${state.cash[seat]} and cannot pay $${price}`);
  if (!accepted) {
    // the price is agreed between the two: the owner accepts or declines before anything changes hands
    state.offer = { company: sym, price, seller: p.owner, by: seat, buyer: seat };
    return;
  }
  state.cash[seat]! -= price;
  state.cash[p.owner]! += price;
  p.owner = seat;
  round.turnActions.push({ type: 'buyPrivate', corp: sym });
  afterAction(state, round, seat);
}

/**
 * Why the private `sym` may not go from `seller` to the player `buyer` for `price` now, or null:
 * the checks of both sides that hold in a stock round and in an emergency alike (phases 2 to 4,
 * a buyer who is another player in the game, below the certificate limit, with the money).
 */
export function playerSaleProblem(
  state: Game1830State,
  seller: number,
  buyer: number,
  sym: string,
  price: number,
): string | null {
  const p = Object.hasOwn(state.privates, sym) ? state.privates[sym] : undefined;
  if (!p || p.closed) return `there is no open private ${sym}`;
  if (p.owner !== seller) return `you do not own ${sym}`;
  if (buyer === seller || buyer >= state.seats || state.bankrupt[buyer])
    return 'name another player in the game as the buyer';
  if (!DATA.phases[state.phase]!.playersTradePrivates)
    return 'privates no longer change hands between players in this phase';
  if (PRIVATES[sym]!.noSaleToCorporation) return `${sym} may not be sold`;
  if (certCount(state, buyer) >= certLimit(state))
    return `the buyer is at the certificate limit of ${certLimit(state)}, and a private counts as a certificate`;
  if (price > state.cash[buyer]!) return `the buyer has $${state.cash[buyer]} and cannot pay $${price}`;
  return null;
}

/**
 * Seed rule set: a player sells his private to another player on his own stock-round turn (G.1.a:
 * "during the buyer's or the seller's turn"), not in the first stock round, at the price the two
 * agree. The seller offers and the buyer accepts (the same buyCompany) or declines. It is not the
 * turn's purchase of either; being able to sell a private does not hold a turn open.
 */
export function applySellPrivate(
  state: Game1830State,
  seat: number,
  sym: string,
  buyer: number,
  price: number,
  accepted = false,
): void {
  const round = state.round as StockRound;
  if (!rules(state).privateSoldOnSellersTurn)
    throw new RuleError(
      `In this rule set a private changes hands on the buyer's turn: the buyer offers ("buy ${sym} ${price}")`,
    );
  if (state.turn === 1) throw new RuleError('Privates change hands between players only after the first stock round');
  const problem = playerSaleProblem(state, seat, buyer, sym, price);
  if (problem) throw new RuleError(sentence(problem));
  if (!accepted) {
    state.offer = { company: sym, price, seller: seat, by: seat, buyer };
    return;
  }
  state.cash[buyer]! -= price;
  state.cash[seat]! += price;
  state.privates[sym]!.owner = buyer;
  round.turnActions.push({ type: 'sellPrivate', corp: sym });
  afterAction(state, round, seat);
}

function finishStockRound(state: Game1830State, round: StockRound): void {
  const floated = Object.values(state.corps).filter((c) => c.floated && !c.closed && c.cell);
  floated.sort((a, b) => compareOperatingOrder(state, a, b));
  for (const corp of floated) {
    let players = 0;
    for (let s = 0; s < state.seats; s++) players += corp.held[s]!;
    if (players === 100) moveUp(state, corp);
  }
  rotateOrder(state, round.index);
  startOperatingSet(state);
}
