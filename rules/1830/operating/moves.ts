// Operating rounds: a sensible set of legal moves for bots, quick links and timed-out seats.
import type { Action1830 } from '../actions.ts';
import { CORPS } from '../data.ts';
import { checkPresidency, PRESIDENT_PERCENT } from '../shares.ts';
import type { Game1830State, TrainState } from '../state.ts';
import { cityCount, homeTokenChoices, legalTileLays, legalTokens } from '../track/index.ts';

import { suggestRun } from './apply.ts';
import {
  board,
  crowded,
  currentCorp,
  depotOffer,
  mustBuyTrain,
  orRound,
  otherCorpTrains,
  tokensLeft,
  trainLimit,
  trainPrice,
  layContext,
} from './common.ts';
import { canGoBankrupt, sellableMax } from './emergency.ts';

export function operatingMoves(state: Game1830State, seat: number): Action1830[] {
  const out: Action1830[] = [];
  const crowd = crowded(state);
  if (crowd.length) {
    const c = crowd[0]!;
    // One train of each kind: two 3 trains are the same choice.
    const kinds = new Set<string>();
    if (c.president === seat)
      for (const id of c.trains) {
        const kind = id.split('-')[0]!;
        if (kinds.has(kind)) continue;
        kinds.add(kind);
        out.push({ type: 'discardTrain', corp: c.sym, train: id });
      }
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
      for (const city of homeTokenChoices(b, corp.sym))
        out.push({ type: 'placeToken', hex: CORPS[corp.sym]!.home, city });
      break;
    case 'track': {
      for (const lay of legalTileLays(b, layContext(state, corp), 6))
        out.push({ type: 'layTile', hex: lay.hex, tile: lay.tile, rotation: lay.rotation });
      out.push({ type: 'pass' });
      break;
    }
    case 'token':
      for (const t of legalTokens(b, { corp: corp.sym, tokensLeft: tokensLeft(corp) }).slice(0, 4))
        out.push({ type: 'placeToken', hex: t.hex, city: t.city });
      out.push({ type: 'pass' });
      break;
    case 'route':
      {
        // the suggestion with the dividend decided too (one click in a turn mail), then without
        const routes = suggestRun(state, corp);
        if (routes.length) out.push({ type: 'runRoutes', routes, dividend: 'payout' });
        out.push({ type: 'runRoutes', routes });
        if (routes.length) out.push({ type: 'runRoutes', routes, dividend: 'withhold' });
      }
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
        if (price <= corp.cash || (must && price <= corp.cash + state.cash[seat]!))
          out.push({ type: 'buyTrain', train: cheapest.id, price });
      }
      if (!must) out.push({ type: 'pass' });
      else if (out.length === 0) {
        // a train from another corporation, paid with the president's help
        const possible = corp.cash + state.cash[seat]!;
        for (const t of otherCorpTrains(state, corp)) {
          const price = Math.min(trainPrice(t), possible);
          if (price >= 1 && r.turn.lastSoldPrice === null) {
            out.push({ type: 'buyTrain', train: t.id, price });
            break;
          }
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
