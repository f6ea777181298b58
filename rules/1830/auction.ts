// The private auction (18xx.games's waterfall auction): buy the cheapest at face value,
// bid on another, or pass. Bids lock money; when the cheapest goes, bids on the next
// one resolve (one bid buys, several start a bid war). If everybody passes, the cheapest
// (SV) drops by $5. Under the seed rule set, when everybody passes it at $5 as well, the next
// player must take it at $5 ("if it reaches $5 and still nobody wants it, the first player
// must buy it"), paying what he has free of bids if that is less; under 18xx.games (and the
// published rules) it drops on to $0 and the next player takes it for nothing. Once SV is
// gone, a round of passes pays the privates' revenue.
import { RuleError } from '../types.ts';
import { DATA, PRIVATES } from './data.ts';
import { PAR_CELLS } from './data.ts';
import { moveTo } from './market.ts';
import { buyShare, checkPresidency } from './shares.ts';
import type { AuctionRound, Game1830State } from './state.ts';
import { payPrivates } from './rounds.ts';
import { rules } from './rule-set.ts';
import { startStockRound } from './stock-round.ts';

export function minBid(state: Game1830State, sym: string): number {
  const round = state.round as AuctionRound;
  const p = state.privates[sym]!;
  const face = PRIVATES[sym]!.value - p.discount;
  if (mayPurchase(round, sym)) return face;
  const bids = round.bids[sym] ?? [];
  const high = bids.reduce((m, b) => Math.max(m, b.price), 0);
  return (bids.length ? high : face) + DATA.minBidIncrement;
}

function mayPurchase(round: AuctionRound, sym: string): boolean {
  return round.auctioning === null && round.available[0] === sym;
}

export function committed(round: AuctionRound, seat: number): number {
  let n = 0;
  for (const sym in round.bids) for (const b of round.bids[sym]!) if (b.seat === seat) n += b.price;
  return n;
}

export function maxBid(state: Game1830State, seat: number, sym: string): number {
  const round = state.round as AuctionRound;
  const own = round.bids[sym]?.find((b) => b.seat === seat)?.price ?? 0;
  return state.cash[seat]! - committed(round, seat) + own;
}

export function auctionActor(state: Game1830State, round: AuctionRound): number {
  if (round.pendingPar.length) return round.pendingPar[0]!.seat;
  if (round.auctioning) {
    const bids = round.bids[round.auctioning]!;
    let low = bids[0]!;
    for (const b of bids) if (b.price < low.price) low = b;
    return low.seat;
  }
  return state.order[round.index]!;
}

function nextIndex(state: Game1830State, round: AuctionRound): void {
  round.index = (round.index + 1) % state.order.length;
}

function buyPrivate(state: Game1830State, round: AuctionRound, seat: number, sym: string, price: number): void {
  const available = maxBid(state, seat, sym);
  if (available < price)
    throw new RuleError(`You have only $${available} not committed to other bids and cannot pay $${price} for ${sym}`);
  const p = state.privates[sym]!;
  p.owner = seat;
  state.cash[seat]! -= price;
  state.bank += price;
  round.available.splice(round.available.indexOf(sym), 1);
  const data = PRIVATES[sym]!;
  if (data.freeShare) {
    const corp = state.corps[data.freeShare.corp]!;
    buyShare(state, seat, corp, 'ipo', data.freeShare.percent, true);
  }
  if (data.presidency) round.pendingPar.push({ corp: data.presidency, seat });
}

function resolveBids(state: Game1830State, round: AuctionRound): void {
  for (;;) {
    const sym = round.available[0];
    round.auctioning = null;
    if (!sym) return;
    const bids = round.bids[sym] ?? [];
    if (bids.length === 1) {
      delete round.bids[sym];
      buyPrivate(state, round, bids[0]!.seat, sym, bids[0]!.price);
      continue;
    }
    if (bids.length > 1) round.auctioning = sym;
    return;
  }
}

function addBid(state: Game1830State, round: AuctionRound, seat: number, sym: string, price: number): void {
  const min = minBid(state, sym);
  if (price < min) throw new RuleError(`The minimum bid for ${sym} is $${min}`);
  const max = maxBid(state, seat, sym);
  if (price > max)
    throw new RuleError(`You cannot afford a bid of $${price}: at most $${max} is not committed to other bids`);
  const bids = (round.bids[sym] ??= []);
  const i = bids.findIndex((b) => b.seat === seat);
  if (i >= 0) bids.splice(i, 1);
  bids.push({ seat, price });
}

/** Validates a bid completely (throws RuleError) and returns what it will do. */
export function checkBid(state: Game1830State, seat: number, sym: string, price: number): 'buy' | 'bid' {
  const round = state.round as AuctionRound;
  if (round.pendingPar.length) throw new RuleError(`The par value of ${round.pendingPar[0]!.corp} must be set first`);
  if (!PRIVATES[sym]) throw new RuleError(`There is no private company ${sym}`);
  if (!round.available.includes(sym)) throw new RuleError(`${sym} is already sold`);
  if (round.auctioning && sym !== round.auctioning)
    throw new RuleError(`${round.auctioning} is being auctioned; bid on it or pass`);
  if (mayPurchase(round, sym)) {
    const face = minBid(state, sym);
    if (price !== face) throw new RuleError(`${sym} is the cheapest private and is bought at its price of $${face}`);
    const max = maxBid(state, seat, sym);
    if (max < price)
      throw new RuleError(`You have only $${max} not committed to bids and cannot pay $${price} for ${sym}`);
    return 'buy';
  }
  const min = minBid(state, sym);
  if (price < min) throw new RuleError(`The minimum bid for ${sym} is $${min}`);
  const max = maxBid(state, seat, sym);
  if (price > max)
    throw new RuleError(`You cannot afford a bid of $${price} for ${sym}: only $${max} is not committed to other bids`);
  return 'bid';
}

export function applyBid(state: Game1830State, seat: number, sym: string, price: number): void {
  const round = state.round as AuctionRound;
  const kind = checkBid(state, seat, sym, price);
  round.passed[seat] = false;
  if (round.auctioning) {
    addBid(state, round, seat, sym, price);
  } else if (kind === 'buy') {
    buyPrivate(state, round, seat, sym, price);
    resolveBids(state, round);
    nextIndex(state, round);
  } else {
    addBid(state, round, seat, sym, price);
    nextIndex(state, round);
  }
  finishIfDone(state);
}

export function applyAuctionPass(state: Game1830State, seat: number): void {
  const round = state.round as AuctionRound;
  if (round.pendingPar.length) throw new RuleError(`The par value of ${round.pendingPar[0]!.corp} must be set first`);
  if (round.auctioning) {
    const bids = round.bids[round.auctioning]!;
    bids.splice(
      bids.findIndex((b) => b.seat === seat),
      1,
    );
    resolveBids(state, round);
  } else {
    round.passed[seat] = true;
    if (state.order.every((s) => round.passed[s])) allPassed(state, round);
    nextIndex(state, round);
  }
  finishIfDone(state);
}

/** SV's price drops in steps of $5 until the rule set's forced price, where the next player must take it. */
const STEP = 5;

function allPassed(state: Game1830State, round: AuctionRound): void {
  const cheapest = DATA.privates.reduce((a, b) => (a.value <= b.value ? a : b)).sym;
  if (round.available.includes(cheapest)) {
    const p = state.privates[cheapest]!;
    const price = PRIVATES[cheapest]!.value - p.discount;
    // seed: passed by everybody at $5, SV is taken at $5; 18xx.games: it drops to $0 and is taken at once
    const forcedAt = rules(state).svForcedAt;
    if (price <= forcedAt) forceSv(state, round, cheapest, price);
    else {
      p.discount += STEP;
      if (price - STEP <= 0) forceSv(state, round, cheapest, 0);
    }
  } else {
    payPrivates(state);
  }
  for (const s of state.order) round.passed[s] = false;
}

/** The next player must take SV at its price (what he has free of bids, if that is less). */
function forceSv(state: Game1830State, round: AuctionRound, sym: string, price: number): void {
  nextIndex(state, round);
  const seat = state.order[round.index]!;
  buyPrivate(state, round, seat, sym, Math.max(0, Math.min(price, maxBid(state, seat, sym))));
  resolveBids(state, round);
}

export function checkPendingPar(
  state: Game1830State,
  seat: number,
  corpSym: string,
  price: number,
): [number, number, number] {
  const round = state.round as AuctionRound;
  const pending = round.pendingPar[0];
  if (!pending) throw new RuleError('No par value is waiting to be set now');
  if (pending.seat !== seat) throw new RuleError('It is not your turn');
  if (pending.corp !== corpSym) throw new RuleError(`The par value of ${pending.corp} must be set now`);
  const cell = PAR_CELLS.find((c) => c[0] === price);
  if (!cell) throw new RuleError(`Par value must be one of ${PAR_CELLS.map((c) => `$${c[0]}`).join(', ')}`);
  return cell;
}

export function applyPendingPar(state: Game1830State, seat: number, corpSym: string, price: number): void {
  const cell = checkPendingPar(state, seat, corpSym, price);
  const round = state.round as AuctionRound;
  const corp = state.corps[corpSym]!;
  corp.ipoed = true;
  corp.par = [cell[1], cell[2]];
  moveTo(state, corp, [cell[1], cell[2]]);
  corp.ipo -= 20;
  corp.held[seat]! += 20;
  corp.president = seat;
  checkPresidency(state, corp);
  round.pendingPar.shift();
  finishIfDone(state);
}

function finishIfDone(state: Game1830State): void {
  const round = state.round as AuctionRound;
  if (round.available.length === 0 && round.pendingPar.length === 0) {
    // priority deal: the player whose turn it would be
    rotateOrder(state, round.index);
    startStockRound(state);
  }
}

export function rotateOrder(state: Game1830State, index: number): void {
  const live = state.order.filter((s) => !state.bankrupt[s]);
  const first = live[index % live.length]!;
  const i = state.order.indexOf(first);
  state.order = [...state.order.slice(i), ...state.order.slice(0, i)];
}
