// Operating rounds: each floated corporation in share-price order lays track, places a
// station, runs its trains, pays or withholds, and buys trains; privates may be bought
// in phases 3 and 4. Steps a corporation cannot use are skipped, as on 18xx.games.
import { RuleError } from '../types';
import type { Action1830 } from './actions';
import { CORPS, DATA, PRIVATES, TRAINS } from './data';
import { compareOperatingOrder, moveLeft, moveRight, sharePrice } from './market';
import { payPrivates } from './rounds';
import { bankPays, buyShare, checkPresidency, gainProblem, PRESIDENT_PERCENT, sellProblem, sellShares, SHARE_PERCENT } from './shares';
import type { CorpState, Game1830State, OperatingRound, TrainState } from './state';
import { startStockRound } from './stock-round';
import {
  cityCount,
  faceAt,
  hasHomeToken,
  hasTokenIn,
  hexReservedByOther,
  homeTokenChoices,
  layTile as mapLayTile,
  legalTileLays,
  legalTokens,
  newBoard,
  parseNodeId,
  placeHomeToken,
  placePendingToken,
  placeToken as mapPlaceToken,
  reservedSlots,
  runRoutes as mapRunRoutes,
  suggestRoutes,
} from './track';
import { reachOf } from './track/graph';
import type { Board, PhaseName, RouteInput } from './track';

export type OrStep = 'home' | 'track' | 'token' | 'route' | 'dividend' | 'train' | 'company' | 'done';
const STEPS: OrStep[] = ['home', 'track', 'token', 'route', 'dividend', 'train', 'company', 'done'];

function board(state: Game1830State): Board {
  return state.map as Board;
}
function phaseName(state: Game1830State): PhaseName {
  return DATA.phases[state.phase]!.name as PhaseName;
}
function orRound(state: Game1830State): OperatingRound {
  return state.round as OperatingRound;
}
function currentCorp(state: Game1830State): CorpState | null {
  const r = state.round;
  return r.kind === 'operating' && r.current ? state.corps[r.current]! : null;
}

// ---------------------------------------------------------------- trains

export function trainLimit(state: Game1830State): number {
  return DATA.phases[state.phase]!.trainLimit;
}

/** Trains the bank offers now: the next new train, D once phase 6 is reached, and discarded ones (one per name). */
export function depotOffer(state: Game1830State): TrainState[] {
  const out: TrainState[] = [];
  const names = new Set<string>();
  const first = state.trains.find((t) => t.owner === 'depot');
  if (first) { out.push(first); names.add(first.name); }
  for (const t of state.trains) {
    if (t.owner !== 'depot' || names.has(t.name)) continue;
    const on = TRAINS[t.name]!.availableOn;
    if (on && DATA.phases.findIndex((p) => p.name === on) <= state.phase) { out.push(t); names.add(t.name); }
  }
  const pooled = new Set<string>();
  for (const t of state.trains) {
    if (t.owner === 'pool' && !pooled.has(t.name)) { out.push(t); pooled.add(t.name); }
  }
  return out;
}

function trainPrice(t: TrainState): number {
  return TRAINS[t.name]!.price;
}

function cheapestDepotPrice(state: Game1830State): number {
  // the next new train is never dearer than a later one; discarded trains may be cheaper
  let min = Infinity;
  let first = true;
  for (const t of state.trains) {
    if (t.owner === 'pool') min = Math.min(min, trainPrice(t));
    else if (first && t.owner === 'depot') { min = Math.min(min, trainPrice(t)); first = false; }
  }
  return min === Infinity ? 0 : min;
}

function trainById(state: Game1830State, id: string): TrainState | undefined {
  return state.trains.find((t) => t.id === id);
}

function otherCorpTrains(state: Game1830State, corp: CorpState): TrainState[] {
  return state.trains.filter((t) => t.owner !== corp.sym && t.owner !== 'depot' && t.owner !== 'pool' && t.owner !== 'gone' && !state.corps[t.owner]?.closed);
}

const CORP_LIST = DATA.corporations.map((d) => d.sym);
const NONE: CorpState[] = [];
/** Corporations over the train limit, in charter order (usually none: no allocation then). */
function crowded(state: Game1830State): CorpState[] {
  const limit = trainLimit(state);
  let out: CorpState[] = NONE;
  for (const sym of CORP_LIST) {
    const c = state.corps[sym]!;
    if (!c.closed && c.trains.length > limit) {
      if (out === NONE) out = [];
      out.push(c);
    }
  }
  return out;
}

// ---------------------------------------------------------------- network facts

function tokensLeft(corp: CorpState): number {
  return CORPS[corp.sym]!.tokens.length - corp.tokensUsed;
}
function nextTokenCost(corp: CorpState): number {
  return CORPS[corp.sym]!.tokens[corp.tokensUsed] ?? Infinity;
}

function playerPrivates(state: Game1830State): string[] {
  return Object.values(state.privates).filter((p) => !p.closed && typeof p.owner === 'number').map((p) => p.sym);
}

// The network a corporation reaches, cached per board until this module changes the board.
const reachCache = new WeakMap<Board, Map<string, ReturnType<typeof reachOf>>>();
function reach(state: Game1830State, corp: string): ReturnType<typeof reachOf> {
  const b = board(state);
  let m = reachCache.get(b);
  if (!m) { m = new Map(); reachCache.set(b, m); }
  let r = m.get(corp);
  if (!r) { r = reachOf(b, corp); m.set(corp, r); }
  return r;
}
function boardChanged(state: Game1830State): void {
  reachCache.delete(board(state));
}

/** 18xx.games: a route exists when the network from a station reaches two stops. */
function routeAvailable(state: Game1830State, corp: CorpState): boolean {
  if (!hasHomeToken(board(state), corp.sym)) return false;
  return reach(state, corp.sym).nodes.size >= 2;
}

/** Some reached city has an open slot the corporation may take (checked fully by the map module). */
function canToken(state: Game1830State, corp: CorpState): boolean {
  const r = orRound(state);
  if (r.turn.tokened || tokensLeft(corp) <= 0 || nextTokenCost(corp) > corp.cash) return false;
  const b = board(state);
  if (!hasHomeToken(b, corp.sym)) return false;
  for (const id of reach(state, corp.sym).nodes) {
    const { hex, index } = parseNodeId(id);
    const node = faceAt(b, hex).tile.nodes[index];
    if (!node || node.kind !== 'city') continue;
    const toks = b.tokens[hex]?.[index] ?? [];
    if (toks.length >= node.slots || hasTokenIn(b, corp.sym, hex)) continue;
    if (hexReservedByOther(b, hex, corp.sym)) continue;
    if (toks.length + reservedSlots(b, hex, index, corp.sym) >= node.slots) continue;
    return true;
  }
  return false;
}

function canBuyTrain(state: Game1830State, corp: CorpState): boolean {
  if (corp.trains.length >= trainLimit(state)) return false;
  if (corp.cash >= 1) {
    for (const t of state.trains) {
      const o = t.owner;
      if (o !== corp.sym && o !== 'depot' && o !== 'pool' && o !== 'gone' && !state.corps[o]!.closed) return true;
    }
  }
  const min = cheapestDepotPrice(state);
  return min > 0 && corp.cash >= min;
}

export function mustBuyTrain(state: Game1830State, corp: CorpState): boolean {
  return corp.trains.length === 0 && bankHasTrains(state) && routeAvailable(state, corp);
}

function bankHasTrains(state: Game1830State): boolean {
  for (const t of state.trains) if (t.owner === 'depot' || t.owner === 'pool') return true;
  return false;
}

/** Players' privates a corporation may buy now (phases 3 and 4, not the B&O private). */
function buyablePrivates(state: Game1830State): string[] {
  if (!DATA.phases[state.phase]!.corporationsBuyPrivates) return [];
  return Object.values(state.privates)
    .filter((p) => !p.closed && typeof p.owner === 'number' && !PRIVATES[p.sym]!.noSaleToCorporation)
    .map((p) => p.sym);
}

function privateMin(sym: string): number {
  return Math.ceil(PRIVATES[sym]!.value / 2);
}
function privateMax(sym: string): number {
  return PRIVATES[sym]!.value * 2;
}

function canBuyCompany(state: Game1830State, corp: CorpState): boolean {
  const list = buyablePrivates(state);
  return list.length > 0 && Math.min(...list.map(privateMin)) <= corp.cash;
}

/** The corporation owns the C&SL and has not used its tile yet (18xx.games then asks it to pass at the end). */
function hasUnusedAbility(state: Game1830State, corp: CorpState): boolean {
  return corp.companies.some((sym) => {
    const p = state.privates[sym]!;
    return !p.closed && sym === 'CS' && !p.used.includes('tile');
  });
}

function stepActive(state: Game1830State, corp: CorpState, step: OrStep): boolean {
  const r = orRound(state);
  switch (step) {
    case 'home': return !hasHomeToken(board(state), corp.sym) && homeTokenChoices(board(state), corp.sym).length > 1;
    case 'track': return !r.turn.laid;
    case 'token': return canToken(state, corp);
    case 'route': return corp.trains.length > 0 && routeAvailable(state, corp);
    case 'dividend': return r.turn.revenue > 0;
    case 'train': return mustBuyTrain(state, corp) || canBuyTrain(state, corp);
    case 'company': return canBuyCompany(state, corp) || hasUnusedAbility(state, corp);
    case 'done': return true;
  }
}

// ---------------------------------------------------------------- round flow

function newTurn(): OperatingRound['turn'] {
  return { laid: false, tokened: false, revenue: 0, ran: false, lastSoldPrice: null, teleport: false, boughtTrain: false };
}

export function startOperatingRound(state: Game1830State, num: number): void {
  if (!state.map) state.map = newBoard();
  payPrivates(state);
  const order = Object.values(state.corps).filter((c) => c.floated && !c.closed);
  order.sort((a, b) => compareOperatingOrder(state, a, b));
  state.round = { kind: 'operating', num, order: order.map((c) => c.sym), index: -1, current: null, step: 'done', turn: newTurn() };
  nextCorporation(state);
}

function nextCorporation(state: Game1830State): void {
  const r = orRound(state);
  for (;;) {
    r.index++;
    if (r.index >= r.order.length) {
      r.current = null;
      finishOperatingRound(state);
      return;
    }
    const corp = state.corps[r.order[r.index]!]!;
    if (corp.closed) continue;
    r.current = corp.sym;
    r.turn = newTurn();
    r.step = 'home';
    const b = board(state);
    if (!hasHomeToken(b, corp.sym)) {
      const choices = homeTokenChoices(b, corp.sym);
      if (choices.length === 1) {
        placeHomeToken(b, corp.sym, choices[0]);
        boardChanged(state);
        corp.tokensUsed = Math.max(corp.tokensUsed, 1);
      }
    }
    advance(state);
    return;
  }
}

/** Skips steps the corporation cannot use (an unusable dividend is a withhold of $0). */
function advance(state: Game1830State): void {
  const r = orRound(state);
  if (state.finished || state.round !== r) return;
  if (crowded(state).length || board(state).pending.length) return;
  const corp = currentCorp(state)!;
  let i = STEPS.indexOf(r.step as OrStep);
  for (; i < STEPS.length; i++) {
    const step = STEPS[i]!;
    if (step === 'done') break;
    if (stepActive(state, corp, step)) { r.step = step; return; }
    if (step === 'dividend') payDividend(state, corp, 'withhold');
  }
  r.step = 'done';
  corp.operated = true;
  nextCorporation(state);
}

function passStep(state: Game1830State): void {
  const r = orRound(state);
  const i = STEPS.indexOf(r.step as OrStep);
  r.step = STEPS[i + 1]!;
  advance(state);
}

function finishOperatingRound(state: Game1830State): void {
  const r = orRound(state);
  if (state.bankBroken && r.num >= state.orCount) {
    endGame(state, 'bank');
    return;
  }
  if (r.num < state.orCount) startOperatingRound(state, r.num + 1);
  else {
    state.turn++;
    startStockRound(state);
  }
}

export function endGame(state: Game1830State, code: 'bank' | 'bankrupt'): void {
  state.finished = true;
  state.endCode = code;
  state.endReason = code === 'bank' ? 'the bank broke' : 'a player went bankrupt';
}

// ---------------------------------------------------------------- who acts

export function operatingActors(state: Game1830State): number[] {
  const c = crowded(state);
  if (c.length) return c[0]!.president === null ? [] : [c[0]!.president!];
  // a station lifted by a tile lay is put back by its own corporation's president (as on 18xx.games)
  const pending = board(state).pending[0];
  if (pending) {
    const owner = state.corps[pending.corp];
    if (owner && owner.president !== null) return [owner.president];
  }
  const corp = currentCorp(state);
  if (!corp || corp.president === null) return [];
  return [corp.president];
}

// ---------------------------------------------------------------- dividends

function payDividend(state: Game1830State, corp: CorpState, kind: 'payout' | 'withhold'): void {
  const r = orRound(state);
  const revenue = r.turn.revenue;
  if (kind === 'withhold' || revenue === 0) {
    if (revenue > 0) { bankPays(state, revenue); corp.cash += revenue; }
    moveLeft(state, corp);
  } else {
    const perShare = revenue / 10;
    for (let s = 0; s < state.seats; s++) {
      const n = corp.held[s]! / SHARE_PERCENT;
      if (n === 0) continue;
      const amount = Math.ceil(n * perShare);
      bankPays(state, amount);
      state.cash[s]! += amount;
    }
    if (corp.pool > 0) {
      const amount = Math.ceil((corp.pool / SHARE_PERCENT) * perShare);
      bankPays(state, amount);
      corp.cash += amount;
    }
    moveRight(state, corp);
  }
  r.turn.revenue = 0;
}

// ---------------------------------------------------------------- actions

function requireStep(state: Game1830State, step: OrStep, what: string): void {
  const r = orRound(state);
  if (r.step !== step) throw new RuleError(`${what} is not possible now: ${r.current} is at the ${r.step} step`);
}

export function applyOperating(state: Game1830State, seat: number, action: Action1830): void {
  const r = orRound(state);
  const crowd = crowded(state);
  if (crowd.length) {
    if (action.type !== 'discardTrain') throw new RuleError(`${crowd[0]!.sym} has more trains than the limit of ${trainLimit(state)} and must discard one first`);
    return discardTrain(state, crowd[0]!, action.corp, action.train);
  }
  const corp = currentCorp(state);
  if (!corp) throw new RuleError('no corporation is operating');
  switch (action.type) {
    case 'pass': {
      if (r.step === 'home') throw new RuleError(`${corp.sym} must place its home station`);
      if (r.step === 'dividend') throw new RuleError(`${corp.sym} must pay out or withhold`);
      if (r.step === 'route') throw new RuleError(`${corp.sym} must run its trains (an empty run is allowed)`);
      if (r.step === 'train' && mustBuyTrain(state, corp)) throw new RuleError(`${corp.sym} has no train and must buy one`);
      return passStep(state);
    }
    case 'layTile': return layTile(state, corp, action);
    case 'placeToken': return placeToken(state, corp, action);
    case 'runRoutes': return runRoutes(state, corp, action.routes);
    case 'dividend': {
      requireStep(state, 'dividend', 'Paying a dividend');
      payDividend(state, corp, action.kind);
      return passStep(state);
    }
    case 'buyTrain': return buyTrain(state, corp, action.train, action.price, action.exchange);
    case 'buyCompany': return buyCompany(state, corp, action.company, action.price);
    case 'sell': return emergencySell(state, seat, corp, action.corp, action.percent);
    case 'bankrupt': return goBankrupt(state, seat, corp);
    case 'discardTrain': throw new RuleError(`no corporation has to discard a train`);
    default: throw new RuleError('that move belongs to a stock round or the auction');
  }
}

function layTile(state: Game1830State, corp: CorpState, a: Extract<Action1830, { type: 'layTile' }>): void {
  const r = orRound(state);
  if (a.via) {
    const p = state.privates[a.via]!;
    if (p.owner !== corp.sym || p.closed) throw new RuleError(`${corp.sym} does not own the ${a.via} private`);
    if (p.used.includes('tile')) throw new RuleError(`the ${a.via} ability has been used`);
    if (a.via === 'DH' && r.step !== 'track') throw new RuleError('the D&H tile is the turn\'s tile lay; it is laid in the track step');
  } else requireStep(state, 'track', 'Laying a tile');
  const ctx = { corp: corp.sym, phase: phaseName(state), layUsed: r.turn.laid, playerPrivates: playerPrivates(state), cash: corp.cash, ...(a.via ? { via: a.via } : {}) };
  const lay = { hex: a.hex, tile: a.tile, rotation: a.rotation, ...(a.copy !== undefined ? { copy: a.copy } : {}) };
  const result = mapLayTile(board(state), ctx, lay);
  boardChanged(state);
  corp.cash -= result.cost;
  state.bank += result.cost;
  if (a.via) state.privates[a.via]!.used.push('tile');
  if (result.consumesLay) r.turn.laid = true;
  if (a.via === 'DH') r.turn.teleport = true;
  if (board(state).pending.length) return; // a lifted station must be put back first
  if (r.step === 'track' && r.turn.laid) passStep(state);
  else advance(state);
}

function placeToken(state: Game1830State, corp: CorpState, a: Extract<Action1830, { type: 'placeToken' }>): void {
  const r = orRound(state);
  const b = board(state);
  if (b.pending.length) {
    placePendingToken(b, b.pending[0]!.corp, { hex: a.hex, city: a.city });
    boardChanged(state);
    if (b.pending.length) return;
    if (r.step === 'track' && r.turn.laid) return passStep(state);
    return advance(state);
  }
  if (r.step === 'home') {
    placeHomeToken(b, corp.sym, a.city);
    boardChanged(state);
    corp.tokensUsed = Math.max(corp.tokensUsed, 1);
    return passStep(state);
  }
  if (a.via === 'DH') {
    if (!r.turn.teleport) throw new RuleError('the D&H station follows the D&H tile lay in the same turn');
    if (r.turn.tokened) throw new RuleError(`${corp.sym} has already placed a station this turn`);
    mapPlaceToken(b, { corp: corp.sym, tokensLeft: tokensLeft(corp), via: 'DH' }, { hex: a.hex, city: a.city });
    boardChanged(state);
    r.turn.tokened = true;
    r.turn.teleport = false;
    if (r.step === 'token') return passStep(state);
    return advance(state);
  }
  requireStep(state, 'token', 'Placing a station');
  const cost = nextTokenCost(corp);
  if (cost > corp.cash) throw new RuleError(`${corp.sym} has $${corp.cash} and cannot pay $${cost} for a station`);
  mapPlaceToken(b, { corp: corp.sym, tokensLeft: tokensLeft(corp) }, { hex: a.hex, city: a.city });
  boardChanged(state);
  corp.tokensUsed++;
  corp.cash -= cost;
  state.bank += cost;
  r.turn.tokened = true;
  passStep(state);
}

function trainInputs(corp: CorpState): { id: string; distance: number }[] {
  return corp.trains.map((id) => ({ id, distance: TRAINS[id.split('-')[0]!]!.distance }));
}

function runRoutes(state: Game1830State, corp: CorpState, routes: RouteInput[]): void {
  const r = orRound(state);
  requireStep(state, 'route', 'Running trains');
  const seen = new Set<string>();
  for (const route of routes) {
    if (!corp.trains.includes(route.train)) throw new RuleError(`${corp.sym} does not own train ${route.train}`);
    if (seen.has(route.train)) throw new RuleError(`train ${route.train} cannot run twice`);
    seen.add(route.train);
  }
  const result = routes.length ? mapRunRoutes(board(state), corp.sym, phaseName(state), trainInputs(corp), routes) : { revenue: 0 };
  r.turn.revenue = result.revenue;
  r.turn.ran = true;
  passStep(state);
}

export function suggestRun(state: Game1830State, corp: CorpState): RouteInput[] {
  return suggestRoutes(board(state), corp.sym, phaseName(state), trainInputs(corp)).routes;
}

// ---------------------------------------------------------------- trains

function removeTrain(state: Game1830State, t: TrainState): void {
  if (t.owner !== 'depot' && t.owner !== 'pool' && t.owner !== 'gone') {
    const owner = state.corps[t.owner]!;
    owner.trains.splice(owner.trains.indexOf(t.id), 1);
  }
}

function nextUnlimitedId(state: Game1830State, name: string): string {
  let n = 0;
  for (const t of state.trains) if (t.name === name) n++;
  return `${name}-${n}`;
}

function buyTrain(state: Game1830State, corp: CorpState, trainId: string, price: number, exchangeId?: string): void {
  const r = orRound(state);
  requireStep(state, 'train', 'Buying a train');
  const t = trainById(state, trainId);
  if (!t || t.owner === 'gone') throw new RuleError(`there is no train ${trainId} to buy`);
  if (t.owner === corp.sym) throw new RuleError(`${corp.sym} already owns ${trainId}`);
  if (corp.trains.length >= trainLimit(state)) throw new RuleError(`${corp.sym} is at its train limit of ${trainLimit(state)}`);
  const fromBank = t.owner === 'depot' || t.owner === 'pool';
  const president = corp.president!;
  let exchange: TrainState | undefined;
  if (fromBank) {
    if (!depotOffer(state).includes(t)) throw new RuleError(`the ${t.name} train is not for sale yet: trains are bought in order`);
    let face = trainPrice(t);
    if (exchangeId) {
      exchange = trainById(state, exchangeId);
      const credit = TRAINS[t.name]!.tradeIn?.[exchange?.name ?? ''];
      if (!exchange || exchange.owner !== corp.sym || !credit) throw new RuleError(`${corp.sym} cannot trade in ${exchangeId} for a ${t.name} train`);
      face -= credit;
    }
    if (price !== face) throw new RuleError(`the ${t.name} train costs $${face} from the bank`);
    if (price > corp.cash) {
      if (!mustBuyTrain(state, corp)) throw new RuleError(`${corp.sym} has $${corp.cash} and cannot pay $${price}`);
      if (exchange) throw new RuleError('the president cannot add money to a trade-in');
      if (price > cheapestDepotPrice(state) && trainPrice(t) > cheapestDepotPrice(state)) throw new RuleError(`with the president's money only the cheapest train ($${cheapestDepotPrice(state)}) may be bought`);
      const need = price - corp.cash;
      if (state.cash[president]! < need) throw new RuleError(`the president has $${state.cash[president]} and must sell shares to raise $${need}`);
      state.cash[president]! -= need;
      corp.cash += need;
    }
  } else {
    const owner = state.corps[t.owner]!;
    if (owner.closed) throw new RuleError(`there is no train ${trainId} to buy`);
    if (exchangeId) throw new RuleError('only trains from the bank can be bought by trading in');
    const emergency = mustBuyTrain(state, corp) && corp.cash < cheapestDepotPrice(state);
    let min = 1;
    let max = corp.cash;
    if (emergency) {
      const possible = corp.cash + state.cash[president]!;
      max = Math.min(trainPrice(t), possible);
      if (r.turn.lastSoldPrice !== null) min = possible - r.turn.lastSoldPrice + 1;
    }
    if (price < min || price > max) throw new RuleError(`${corp.sym} may pay between $${min} and $${max} for ${owner.sym}'s ${t.name} train`);
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
    exchange.owner = 'pool';
  }
  const wasDepot = t.owner === 'depot';
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

/** Phase changes, rusting and the close of privates that a purchase triggers. */
function trainBought(state: Game1830State, t: TrainState): void {
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

function closePrivate(state: Game1830State, sym: string): void {
  const p = state.privates[sym]!;
  if (typeof p.owner === 'string') {
    const c = state.corps[p.owner]!;
    c.companies.splice(c.companies.indexOf(sym), 1);
  }
  p.owner = null;
  p.closed = true;
}

function discardTrain(state: Game1830State, corp: CorpState, corpSym: string, trainId: string): void {
  if (corpSym !== corp.sym) throw new RuleError(`${corp.sym} must discard first`);
  if (!corp.trains.includes(trainId)) throw new RuleError(`${corp.sym} does not own ${trainId}`);
  const t = trainById(state, trainId)!;
  removeTrain(state, t);
  t.owner = 'pool';
  if (crowded(state).length) return;
  const cur = currentCorp(state);
  if (cur) {
    const r = orRound(state);
    if (r.step === 'train' && !stepActive(state, cur, 'train')) passStep(state);
    else advance(state);
  }
}

// ---------------------------------------------------------------- privates

function buyCompany(state: Game1830State, corp: CorpState, sym: string, price: number): void {
  const r = orRound(state);
  if (r.step === 'home') throw new RuleError(`${corp.sym} must place its home station first`);
  const p = state.privates[sym];
  if (!p || p.closed) throw new RuleError(`there is no open private ${sym}`);
  if (!DATA.phases[state.phase]!.corporationsBuyPrivates) throw new RuleError('corporations may buy privates only in phases 3 and 4 (from the first 3-train to the first 5-train)');
  if (typeof p.owner !== 'number') throw new RuleError(`${sym} is not owned by a player`);
  if (PRIVATES[sym]!.noSaleToCorporation) throw new RuleError(`${sym} may not be sold to a corporation`);
  const min = privateMin(sym), max = privateMax(sym);
  if (price < min || price > max) throw new RuleError(`${sym} may be bought for $${min} to $${max} (half to twice its face value)`);
  if (price > corp.cash) throw new RuleError(`${corp.sym} has $${corp.cash} and cannot pay $${price}`);
  corp.cash -= price;
  state.cash[p.owner]! += price;
  p.owner = corp.sym;
  corp.companies.push(sym);
  if (r.step === 'company' && !stepActive(state, corp, 'company')) passStep(state);
  else advance(state);
}

export function exchangeProblem(state: Game1830State, seat: number, from: 'ipo' | 'pool'): string | null {
  const p = state.privates['MH']!;
  if (p.closed || p.owner !== seat) return 'you do not own the Mohawk & Hudson';
  if (state.round.kind === 'auction') return 'the M&H cannot be exchanged during the private auction';
  const nyc = state.corps['NYC']!;
  if (from === 'ipo' ? nyc.ipo <= 0 : nyc.pool <= 0) return `there is no NYC share in the ${from === 'ipo' ? 'IPO' : 'pool'}`;
  return gainProblem(state, seat, nyc, SHARE_PERCENT, true);
}

export function applyExchange(state: Game1830State, seat: number, from: 'ipo' | 'pool'): void {
  const nyc = state.corps['NYC']!;
  closePrivate(state, 'MH');
  buyShare(state, seat, nyc, from, SHARE_PERCENT, true);
}

// ---------------------------------------------------------------- emergency money and bankruptcy

function emergencySellProblem(state: Game1830State, seat: number, corp: CorpState, target: CorpState, percent: number): string | null {
  const r = orRound(state);
  if (r.step !== 'train') return 'the president sells shares only to raise money for a train, in the train step';
  const problem = sellProblem(state, seat, target, percent);
  if (problem) return problem;
  if (target.sym === corp.sym && target.president === seat) {
    let next = 0;
    for (let s = 0; s < state.seats; s++) if (s !== seat) next = Math.max(next, target.held[s]!);
    if (target.held[seat]! - percent < next) return `selling would give away the presidency of ${corp.sym}, which the rules forbid`;
  }
  const need = cheapestDepotPrice(state) - (state.cash[seat]! + corp.cash);
  const smaller = sharePrice(target) * (percent / SHARE_PERCENT - 1);
  if (smaller >= need) return `only as many shares as needed may be sold ($${Math.max(need, 0)} is missing)`;
  return null;
}

function emergencySell(state: Game1830State, seat: number, corp: CorpState, targetSym: string, percent: number): void {
  const target = state.corps[targetSym];
  if (!target) throw new RuleError(`there is no corporation ${targetSym}`);
  const problem = emergencySellProblem(state, seat, corp, target, percent);
  if (problem) throw new RuleError(problem);
  orRound(state).turn.lastSoldPrice = sharePrice(target);
  sellShares(state, seat, target, percent);
  recalculateOrder(state);
}

function recalculateOrder(state: Game1830State): void {
  const r = orRound(state);
  const rest = r.order.slice(r.index + 1).map((s) => state.corps[s]!);
  rest.sort((a, b) => compareOperatingOrder(state, a, b));
  r.order = [...r.order.slice(0, r.index + 1), ...rest.map((c) => c.sym)];
}

function sellableMax(state: Game1830State, seat: number, corp: CorpState, target: CorpState): number {
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

function goBankrupt(state: Game1830State, seat: number, corp: CorpState): void {
  if (!canGoBankrupt(state, seat, corp)) throw new RuleError(`${corp.sym} and its president can still raise the money for the cheapest train ($${cheapestDepotPrice(state)})`);
  const holdings = Object.values(state.corps).filter((c) => c.held[seat]! > 0 && c.ipoed);
  holdings.sort((a, b) => compareOperatingOrder(state, a, b));
  for (const t of holdings) {
    for (;;) {
      const pct = sellableMax(state, seat, corp, t);
      if (pct === 0) break;
      sellShares(state, seat, t, pct);
    }
  }
  recalculateOrder(state);
  state.bank += state.cash[seat]!;
  state.cash[seat] = 0;
  state.bankrupt[seat] = true;
  endGame(state, 'bankrupt');
}

// ---------------------------------------------------------------- moves

export function operatingMoves(state: Game1830State, seat: number): Action1830[] {
  const out: Action1830[] = [];
  const crowd = crowded(state);
  if (crowd.length) {
    const c = crowd[0]!;
    if (c.president === seat) for (const id of c.trains) out.push({ type: 'discardTrain', corp: c.sym, train: id });
    return out;
  }
  const corp = currentCorp(state);
  const r = orRound(state);
  const b = board(state);
  if (b.pending.length) {
    const p = b.pending[0]!;
    if (state.corps[p.corp]?.president !== seat) return out;
    const n = cityCount(b, p.hex);
    for (let city = 0; city < n; city++) out.push({ type: 'placeToken', hex: p.hex, city });
    return out;
  }
  if (!corp || corp.president !== seat) return out;
  switch (r.step) {
    case 'home':
      for (const city of homeTokenChoices(b, corp.sym)) out.push({ type: 'placeToken', hex: CORPS[corp.sym]!.home, city });
      break;
    case 'track': {
      const ctx = { corp: corp.sym, phase: phaseName(state), layUsed: false, playerPrivates: playerPrivates(state), cash: corp.cash };
      for (const lay of legalTileLays(b, ctx, 6)) out.push({ type: 'layTile', hex: lay.hex, tile: lay.tile, rotation: lay.rotation });
      out.push({ type: 'pass' });
      break;
    }
    case 'token':
      for (const t of legalTokens(b, { corp: corp.sym, tokensLeft: tokensLeft(corp) }).slice(0, 4)) out.push({ type: 'placeToken', hex: t.hex, city: t.city });
      out.push({ type: 'pass' });
      break;
    case 'route':
      out.push({ type: 'runRoutes', routes: suggestRun(state, corp) });
      break;
    case 'dividend':
      out.push({ type: 'dividend', kind: 'payout' }, { type: 'dividend', kind: 'withhold' });
      break;
    case 'train': {
      const must = mustBuyTrain(state, corp);
      const offer = depotOffer(state);
      let cheapest: TrainState | undefined;
      for (const t of offer) if (!cheapest || trainPrice(t) < trainPrice(cheapest)) cheapest = t;
      if (cheapest && corp.trains.length < trainLimit(state)) {
        const price = trainPrice(cheapest);
        if (price <= corp.cash || (must && price <= corp.cash + state.cash[seat]!)) out.push({ type: 'buyTrain', train: cheapest.id, price });
      }
      if (!must) out.push({ type: 'pass' });
      else if (out.length === 0) {
        // a train from another corporation, paid with the president's help
        const possible = corp.cash + state.cash[seat]!;
        for (const t of otherCorpTrains(state, corp)) {
          const price = Math.min(trainPrice(t), possible);
          if (price >= 1 && r.turn.lastSoldPrice === null) { out.push({ type: 'buyTrain', train: t.id, price }); break; }
        }
      }
      if (must && out.length === 0) {
        for (const sym in state.corps) {
          const t = state.corps[sym]!;
          const pct = t.held[seat]! > 0 ? sellableMax(state, seat, corp, t) : 0;
          if (pct > 0) out.push({ type: 'sell', corp: sym, percent: pct });
        }
        if (out.length === 0 && canGoBankrupt(state, seat, corp)) out.push({ type: 'bankrupt' });
      }
      break;
    }
    case 'company':
      out.push({ type: 'pass' });
      break;
    default:
      break;
  }
  if (out.length === 0) out.push({ type: 'pass' });
  return out;
}

export { PRESIDENT_PERCENT, checkPresidency };

// ---------------------------------------------------------------- choices for the move form

export interface OperatingOptions {
  corp: string;
  step: string;
  cash: number;
  lays: { hex: string; tile: string; rotation: number; command: string }[];
  tokens: { hex: string; city: number; cost: number; command: string }[];
  pendingToken: { hex: string; cities: number[] } | null;
  suggestion: { revenue: number; routes: RouteInput[]; json: string; lines: string[] } | null;
  dividend: { revenue: number; perShare: number } | null;
  trains: { id: string; name: string; from: string; price: number; min: number; max: number; exchange?: string }[];
  privates: { sym: string; name: string; owner: number; min: number; max: number }[];
  discard: { corp: string; trains: string[] } | null;
  mustBuyTrain: boolean;
}

/** What the acting president may choose now, for the move form (null when the seat does not act in an operating round). */
export function operatingOptions(state: Game1830State, seat: number | null): OperatingOptions | null {
  if (state.round.kind !== 'operating' || seat === null || state.finished) return null;
  const r = orRound(state);
  const b = board(state);
  const crowd = crowded(state);
  const corp = currentCorp(state);
  if (!corp) return null;
  const out: OperatingOptions = {
    corp: corp.sym, step: r.step, cash: corp.cash, lays: [], tokens: [], pendingToken: null, suggestion: null, dividend: null,
    trains: [], privates: [], discard: null, mustBuyTrain: false,
  };
  if (crowd.length) {
    if (crowd[0]!.president !== seat) return null;
    out.discard = { corp: crowd[0]!.sym, trains: [...crowd[0]!.trains] };
    return out;
  }
  if (b.pending.length) {
    const p = b.pending[0]!;
    if (state.corps[p.corp]?.president !== seat) return null;
    out.pendingToken = { hex: p.hex, cities: Array.from({ length: cityCount(b, p.hex) }, (_, i) => i) };
    return out;
  }
  if (corp.president !== seat) return null;
  if (r.step === 'track') {
    const ctx = { corp: corp.sym, phase: phaseName(state), layUsed: false, playerPrivates: playerPrivates(state), cash: corp.cash };
    for (const lay of legalTileLays(b, ctx, 400)) out.lays.push({ ...lay, command: `lay ${lay.hex} ${lay.tile} ${lay.rotation}` });
  }
  if (r.step === 'token') {
    for (const t of legalTokens(b, { corp: corp.sym, tokensLeft: tokensLeft(corp) })) {
      out.tokens.push({ ...t, cost: nextTokenCost(corp), command: `token ${t.hex} ${t.city}` });
    }
  }
  if (r.step === 'route') {
    const sug = suggestRoutes(b, corp.sym, phaseName(state), trainInputs(corp));
    out.suggestion = {
      revenue: sug.revenue, routes: sug.routes, json: JSON.stringify({ type: 'runRoutes', routes: sug.routes }),
      lines: sug.details.map((d) => `${d.train.split('-')[0]} train: ${d.hexes.join('-')} for $${d.revenue}`),
    };
  }
  if (r.step === 'dividend') out.dividend = { revenue: r.turn.revenue, perShare: r.turn.revenue / 10 };
  if (r.step === 'train') {
    out.mustBuyTrain = mustBuyTrain(state, corp);
    for (const t of depotOffer(state)) {
      const price = trainPrice(t);
      out.trains.push({ id: t.id, name: t.name, from: t.owner === 'pool' ? 'the bank pool' : 'the bank', price, min: price, max: price });
      const credits = TRAINS[t.name]!.tradeIn;
      if (credits) {
        for (const own of corp.trains) {
          const c = credits[own.split('-')[0]!];
          if (c) out.trains.push({ id: t.id, name: t.name, from: 'the bank', price: price - c, min: price - c, max: price - c, exchange: own });
        }
      }
    }
    for (const t of otherCorpTrains(state, corp)) out.trains.push({ id: t.id, name: t.name, from: t.owner, price: trainPrice(t), min: 1, max: corp.cash });
  }
  if (r.step !== 'home') {
    for (const sym of buyablePrivates(state)) {
      const p = state.privates[sym]!;
      out.privates.push({ sym, name: PRIVATES[sym]!.name, owner: p.owner as number, min: privateMin(sym), max: Math.min(privateMax(sym), corp.cash) });
    }
  }
  return out;
}
