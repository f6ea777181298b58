// Operating rounds: the actions of a turn (tiles, stations, routes, dividends, trains, privates, emergency sales, bankruptcy), each checked before anything changes.
import { RuleError } from '../../types.ts';
import type { Action1830 } from '../actions.ts';
import { TRAINS } from '../data.ts';
import type { CorpState, Game1830State } from '../state.ts';
import {
  layTile as mapLayTile,
  placeHomeToken,
  placePendingToken,
  placeToken as mapPlaceToken,
  runRoutes as mapRunRoutes,
  suggestRoutes,
} from '../track/index.ts';
import type { RouteInput } from '../track/index.ts';

import {
  type OrStep,
  board,
  boardChanged,
  crowded,
  currentCorp,
  mustBuyTrain,
  nextTokenCost,
  orRound,
  phaseName,
  tokensLeft,
  trainLimit,
  layContext,
} from './common.ts';
import { payDividend } from './dividends.ts';
import { emergencySell, emergencySellPrivate, goBankrupt } from './emergency.ts';
import { advance, passStep } from './flow.ts';
import { buyCompany } from './privates.ts';
import { buyTrain, discardTrain } from './trains.ts';

export function requireStep(state: Game1830State, step: OrStep, what: string): void {
  const r = orRound(state);
  if (r.step !== step) throw new RuleError(`${what} is not possible now: ${r.current} is at the ${r.step} step`);
}

export function applyOperating(state: Game1830State, seat: number, action: Action1830): void {
  const r = orRound(state);
  const crowd = crowded(state);
  if (crowd.length) {
    if (action.type !== 'discardTrain')
      throw new RuleError(
        `${crowd[0]!.sym} has more trains than the limit of ${trainLimit(state)} and must discard one first`,
      );
    return discardTrain(state, crowd[0]!, action.corp, action.train);
  }
  const corp = currentCorp(state);
  if (!corp) throw new RuleError('No corporation is operating');
  const lifted = board(state).pending[0];
  if (lifted && action.type !== 'placeToken') {
    throw new RuleError(
      `${lifted.corp}'s station lifted from ${lifted.hex} must be put back into a city of ${lifted.hex} first`,
    );
  }
  switch (action.type) {
    case 'pass': {
      if (r.step === 'home') throw new RuleError(`${corp.sym} must place its home station`);
      if (r.step === 'dividend') throw new RuleError(`${corp.sym} must pay out or withhold`);
      if (r.step === 'route') throw new RuleError(`${corp.sym} must run its trains (an empty run is allowed)`);
      if (r.step === 'train' && mustBuyTrain(state, corp))
        throw new RuleError(`${corp.sym} has no train and must buy one`);
      return passStep(state);
    }
    case 'layTile':
      return layTile(state, corp, action);
    case 'placeToken':
      return placeToken(state, corp, action);
    case 'runRoutes':
      return runRoutes(state, corp, action.routes, action.dividend);
    case 'dividend': {
      requireStep(state, 'dividend', 'Paying a dividend');
      payDividend(state, corp, action.kind);
      return passStep(state);
    }
    case 'buyTrain':
      return buyTrain(state, corp, action.train, action.price, action.exchange);
    case 'buyCompany':
      return buyCompany(state, corp, action.company, action.price);
    case 'sell':
      return emergencySell(state, seat, corp, action.corp, action.percent);
    case 'sellCompany':
      return emergencySellPrivate(state, seat, corp, action.company, action.to, action.price);
    case 'bankrupt':
      return goBankrupt(state, seat, corp);
    case 'discardTrain':
      throw new RuleError(`No corporation has to discard a train`);
    default:
      throw new RuleError('That move belongs to a stock round or the auction');
  }
}

export function layTile(state: Game1830State, corp: CorpState, a: Extract<Action1830, { type: 'layTile' }>): void {
  const r = orRound(state);
  if (a.via) {
    const p = state.privates[a.via]!;
    if (p.owner !== corp.sym || p.closed) throw new RuleError(`${corp.sym} does not own the ${a.via} private`);
    if (p.used.includes('tile')) throw new RuleError(`The ${a.via} ability has been used`);
    if (a.via === 'DH' && r.step !== 'track')
      throw new RuleError("The D&H tile is the turn's tile lay; it is laid in the track step");
  } else requireStep(state, 'track', 'Laying a tile');
  const ctx = { ...layContext(state, corp, r.turn.laid), ...(a.via ? { via: a.via } : {}) };
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

export function placeToken(
  state: Game1830State,
  corp: CorpState,
  a: Extract<Action1830, { type: 'placeToken' }>,
): void {
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
    if (!r.turn.teleport) throw new RuleError('The D&H station follows the D&H tile lay in the same turn');
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

export function trainInputs(corp: CorpState): { id: string; distance: number }[] {
  return corp.trains.map((id) => ({ id, distance: TRAINS[id.split('-')[0]!]!.distance }));
}

/** Runs the trains; with `dividend` the revenue is paid out or withheld at once (one quick link for both). */
export function runRoutes(
  state: Game1830State,
  corp: CorpState,
  routes: RouteInput[],
  dividend?: 'payout' | 'withhold',
): void {
  const r = orRound(state);
  requireStep(state, 'route', 'Running trains');
  const seen = new Set<string>();
  for (const route of routes) {
    if (!corp.trains.includes(route.train)) throw new RuleError(`${corp.sym} does not own train ${route.train}`);
    if (seen.has(route.train)) throw new RuleError(`Train ${route.train} cannot run twice`);
    seen.add(route.train);
  }
  const result = routes.length
    ? mapRunRoutes(board(state), corp.sym, phaseName(state), trainInputs(corp), routes)
    : { revenue: 0 };
  r.turn.revenue = result.revenue;
  r.turn.ran = true;
  passStep(state);
  if (dividend && state.round === r && r.current === corp.sym && r.step === 'dividend') {
    payDividend(state, corp, dividend);
    passStep(state);
  }
}

export function suggestRun(state: Game1830State, corp: CorpState): RouteInput[] {
  return suggestRoutes(board(state), corp.sym, phaseName(state), trainInputs(corp)).routes;
}
