// Operating rounds, shared facts: the board, the phase, trains for sale, the network a corporation reaches, and which steps a corporation can use.
import { CORPS, DATA, PRIVATES, TRAINS } from '../data.ts';
import type { CorpState, Game1830State, OperatingRound, TrainState } from '../state.ts';
import {
  faceAt,
  hasHomeToken,
  hasTokenIn,
  hexReservedByOther,
  homeTokenChoices,
  parseNodeId,
  reservedSlots,
} from '../track/index.ts';
import { reachOf } from '../track/graph.ts';
import type { Board, LayContext, PhaseName } from '../track/index.ts';
import { rules } from '../rule-set.ts';

export type OrStep = 'home' | 'track' | 'token' | 'route' | 'dividend' | 'train' | 'company' | 'done';
export const STEPS: OrStep[] = ['home', 'track', 'token', 'route', 'dividend', 'train', 'company', 'done'];

export function board(state: Game1830State): Board {
  return state.map as Board;
}
export function phaseName(state: Game1830State): PhaseName {
  return DATA.phases[state.phase]!.name as PhaseName;
}
export function orRound(state: Game1830State): OperatingRound {
  return state.round as OperatingRound;
}
export function currentCorp(state: Game1830State): CorpState | null {
  const r = state.round;
  return r.kind === 'operating' && r.current ? state.corps[r.current]! : null;
}

/** What the map module needs to check a tile lay by this corporation now (the turn's lay unused unless said). */
export function layContext(state: Game1830State, corp: CorpState, layUsed = false): LayContext {
  return {
    corp: corp.sym,
    phase: phaseName(state),
    layUsed,
    playerPrivates: playerPrivates(state),
    cash: corp.cash,
    homeGreenEarly: rules(state).erieGreenHomeEarly,
  };
}

export function trainLimit(state: Game1830State): number {
  return DATA.phases[state.phase]!.trainLimit;
}

/**
 * From rules version 3 (board.version) the bank sells discarded trains in the order they were
 * discarded, one of each kind at a time, as 18xx.games does: a train discarded goes to the end of
 * state.trains (toPool), and the first pooled train of a kind is the one for sale.
 */
export function discardOrder(state: Game1830State): boolean {
  return (board(state).version ?? 0) >= 3;
}

/** A train goes to the bank pool (discarded or traded in); from version 3 it queues behind those already there. */
export function toPool(state: Game1830State, t: TrainState): void {
  t.owner = 'pool';
  if (!discardOrder(state)) return;
  state.trains.splice(state.trains.indexOf(t), 1);
  state.trains.push(t);
}

/** Trains the bank offers now: the next new train, D once phase 6 is reached, and discarded ones (one per name). */
export function depotOffer(state: Game1830State): TrainState[] {
  const out: TrainState[] = [];
  const names = new Set<string>();
  const first = state.trains.find((t) => t.owner === 'depot');
  if (first) {
    out.push(first);
    names.add(first.name);
  }
  for (const t of state.trains) {
    if (t.owner !== 'depot' || names.has(t.name)) continue;
    const on = TRAINS[t.name]!.availableOn;
    if (on && DATA.phases.findIndex((p) => p.name === on) <= state.phase) {
      out.push(t);
      names.add(t.name);
    }
  }
  const pooled = new Set<string>();
  for (const t of state.trains) {
    if (t.owner === 'pool' && !pooled.has(t.name)) {
      out.push(t);
      pooled.add(t.name);
    }
  }
  return out;
}

export function trainPrice(t: TrainState): number {
  return TRAINS[t.name]!.price;
}

export function cheapestDepotPrice(state: Game1830State): number {
  // the next new train is never dearer than a later one; discarded trains may be cheaper
  let min = Infinity;
  let first = true;
  for (const t of state.trains) {
    if (t.owner === 'pool') min = Math.min(min, trainPrice(t));
    else if (first && t.owner === 'depot') {
      min = Math.min(min, trainPrice(t));
      first = false;
    }
  }
  return min === Infinity ? 0 : min;
}

export function trainById(state: Game1830State, id: string): TrainState | undefined {
  return state.trains.find((t) => t.id === id);
}

export function otherCorpTrains(state: Game1830State, corp: CorpState): TrainState[] {
  return state.trains.filter(
    (t) =>
      t.owner !== corp.sym &&
      t.owner !== 'depot' &&
      t.owner !== 'pool' &&
      t.owner !== 'gone' &&
      !state.corps[t.owner]?.closed,
  );
}

export const CORP_LIST = DATA.corporations.map((d) => d.sym);
export const NONE: CorpState[] = [];
/** Corporations over the train limit, in charter order (usually none: no allocation then). */
export function crowded(state: Game1830State): CorpState[] {
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

export function tokensLeft(corp: CorpState): number {
  return CORPS[corp.sym]!.tokens.length - corp.tokensUsed;
}
export function nextTokenCost(corp: CorpState): number {
  return CORPS[corp.sym]!.tokens[corp.tokensUsed] ?? Infinity;
}

export function playerPrivates(state: Game1830State): string[] {
  return Object.values(state.privates)
    .filter((p) => !p.closed && typeof p.owner === 'number')
    .map((p) => p.sym);
}

// The network a corporation reaches, cached per board until this module changes the board.
export const reachCache = new WeakMap<Board, Map<string, ReturnType<typeof reachOf>>>();
export function reach(state: Game1830State, corp: string): ReturnType<typeof reachOf> {
  const b = board(state);
  let m = reachCache.get(b);
  if (!m) {
    m = new Map();
    reachCache.set(b, m);
  }
  let r = m.get(corp);
  if (!r) {
    r = reachOf(b, corp);
    m.set(corp, r);
  }
  return r;
}
export function boardChanged(state: Game1830State): void {
  reachCache.delete(board(state));
}

/** 18xx.games: a route exists when the network from a station reaches two stops. */
export function routeAvailable(state: Game1830State, corp: CorpState): boolean {
  if (!hasHomeToken(board(state), corp.sym)) return false;
  return reach(state, corp.sym).nodes.size >= 2;
}

/** Some reached city has an open slot the corporation may take (checked fully by the map module). */
export function canToken(state: Game1830State, corp: CorpState): boolean {
  const r = orRound(state);
  if (r.turn.tokened || tokensLeft(corp) <= 0 || nextTokenCost(corp) > corp.cash) return false;
  const b = board(state);
  if (!hasHomeToken(b, corp.sym)) return false;
  for (const id of reach(state, corp.sym).nodes) {
    const { hex, index } = parseNodeId(id);
    const node = faceAt(b, hex).tile.nodes[index];
    if (node?.kind !== 'city') continue;
    const toks = b.tokens[hex]?.[index] ?? [];
    if (toks.length >= node.slots || hasTokenIn(b, corp.sym, hex)) continue;
    if (hexReservedByOther(b, hex, corp.sym)) continue;
    if (toks.length + reservedSlots(b, hex, index, corp.sym) >= node.slots) continue;
    return true;
  }
  return false;
}

/** The corporation can trade one of its trains in for a train the bank offers, and pay the rest itself. */
function canTradeIn(state: Game1830State, corp: CorpState): boolean {
  for (const t of depotOffer(state)) {
    const credits = TRAINS[t.name]!.tradeIn;
    if (!credits) continue;
    for (const own of corp.trains) {
      const credit = credits[trainById(state, own)!.name];
      if (credit && corp.cash >= trainPrice(t) - credit) return true;
    }
  }
  return false;
}

export function canBuyTrain(state: Game1830State, corp: CorpState): boolean {
  if (corp.trains.length >= trainLimit(state)) return canTradeIn(state, corp);
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

export function bankHasTrains(state: Game1830State): boolean {
  for (const t of state.trains) if (t.owner === 'depot' || t.owner === 'pool') return true;
  return false;
}

/** Players' privates a corporation may buy now (phases 3 and 4, not the B&O private). */
export function buyablePrivates(state: Game1830State): string[] {
  if (!DATA.phases[state.phase]!.corporationsBuyPrivates) return [];
  return Object.values(state.privates)
    .filter((p) => !p.closed && typeof p.owner === 'number' && !PRIVATES[p.sym]!.noSaleToCorporation)
    .map((p) => p.sym);
}

export function privateMin(sym: string): number {
  return Math.ceil(PRIVATES[sym]!.value / 2);
}
export function privateMax(sym: string): number {
  return PRIVATES[sym]!.value * 2;
}

export function canBuyCompany(state: Game1830State, corp: CorpState): boolean {
  const list = buyablePrivates(state);
  return list.length > 0 && Math.min(...list.map(privateMin)) <= corp.cash;
}

/** The corporation owns the C&SL and has not used its tile yet (18xx.games then asks it to pass at the end). */
export function hasUnusedAbility(state: Game1830State, corp: CorpState): boolean {
  return corp.companies.some((sym) => {
    const p = state.privates[sym]!;
    return !p.closed && sym === 'CS' && !p.used.includes('tile');
  });
}

export function stepActive(state: Game1830State, corp: CorpState, step: OrStep): boolean {
  const r = orRound(state);
  switch (step) {
    case 'home':
      return !hasHomeToken(board(state), corp.sym) && homeTokenChoices(board(state), corp.sym).length > 1;
    case 'track':
      return !r.turn.laid;
    case 'token':
      return canToken(state, corp);
    case 'route':
      return corp.trains.length > 0 && routeAvailable(state, corp);
    case 'dividend':
      return r.turn.revenue > 0;
    case 'train':
      return mustBuyTrain(state, corp) || canBuyTrain(state, corp);
    case 'company':
      return canBuyCompany(state, corp) || hasUnusedAbility(state, corp);
    case 'done':
      return true;
  }
}
