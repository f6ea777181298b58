// Operating rounds: the choices of the acting president, for the move form.
import { PRIVATES, TRAINS } from '../data.ts';
import type { Game1830State } from '../state.ts';
import { checkTileLay, cityCount, legalTileLays, legalTokens, routesToText, suggestRoutes } from '../track/index.ts';
import type { RouteInput } from '../track/index.ts';

import { trainInputs } from './apply.ts';
import { buyTrain, otherTrainPrices } from './trains.ts';
import {
  board,
  buyablePrivates,
  crowded,
  currentCorp,
  depotOffer,
  mustBuyTrain,
  nextTokenCost,
  orRound,
  otherCorpTrains,
  phaseName,
  privateMax,
  privateMin,
  tokensLeft,
  trainPrice,
  layContext,
} from './common.ts';

export interface OperatingOptions {
  corp: string;
  step: string;
  cash: number;
  lays: { hex: string; tile: string; rotation: number; cost: number; command: string }[];
  tokens: { hex: string; city: number; cost: number; command: string }[];
  pendingToken: { hex: string; cities: number[] } | null;
  suggestion: { revenue: number; routes: RouteInput[]; json: string; lines: string[]; command: string } | null;
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
    corp: corp.sym,
    step: r.step,
    cash: corp.cash,
    lays: [],
    tokens: [],
    pendingToken: null,
    suggestion: null,
    dividend: null,
    trains: [],
    privates: [],
    discard: null,
    mustBuyTrain: false,
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
    const ctx = layContext(state, corp);
    for (const lay of legalTileLays(b, ctx, 400)) {
      let cost = 0;
      try {
        cost = checkTileLay(b, ctx, lay).cost;
      } catch {
        cost = 0;
      }
      out.lays.push({ ...lay, cost, command: `lay ${lay.hex} ${lay.tile} ${lay.rotation}` });
    }
  }
  if (r.step === 'token') {
    for (const t of legalTokens(b, { corp: corp.sym, tokensLeft: tokensLeft(corp) })) {
      out.tokens.push({ ...t, cost: nextTokenCost(corp), command: `token ${t.hex} ${t.city}` });
    }
  }
  if (r.step === 'route') {
    const sug = suggestRoutes(b, corp.sym, phaseName(state), trainInputs(corp));
    out.suggestion = {
      revenue: sug.revenue,
      routes: sug.routes,
      json: JSON.stringify({ type: 'runRoutes', routes: sug.routes }),
      lines: sug.details.map((d) => `${d.train.split('-')[0]} train: ${d.hexes.join('-')} for $${d.revenue}`),
      command: sug.routes.length ? `run ${routesToText(sug.routes)}` : 'run none',
    };
  }
  if (r.step === 'dividend') out.dividend = { revenue: r.turn.revenue, perShare: r.turn.revenue / 10 };
  if (r.step === 'train') {
    out.mustBuyTrain = mustBuyTrain(state, corp);
    // offered only when the purchase would go through as it stands (played on a copy)
    const works = (id: string, price: number, exchange?: string): boolean => {
      const copy = structuredClone(state);
      try {
        buyTrain(copy, copy.corps[corp.sym]!, id, price, exchange);
        return true;
      } catch {
        return false;
      }
    };
    for (const t of depotOffer(state)) {
      const price = trainPrice(t);
      if (works(t.id, price))
        out.trains.push({
          id: t.id,
          name: t.name,
          from: t.owner === 'pool' ? 'the bank pool' : 'the bank',
          price,
          min: price,
          max: price,
        });
      const credits = TRAINS[t.name]!.tradeIn;
      if (credits) {
        for (const own of corp.trains) {
          const c = credits[own.split('-')[0]!];
          if (c && works(t.id, price - c, own))
            out.trains.push({
              id: t.id,
              name: t.name,
              from: 'the bank',
              price: price - c,
              min: price - c,
              max: price - c,
              exchange: own,
            });
        }
      }
    }
    for (const t of otherCorpTrains(state, corp)) {
      const { min, max } = otherTrainPrices(state, corp, t);
      if (max < 1 || min > max || !works(t.id, max)) continue;
      out.trains.push({ id: t.id, name: t.name, from: t.owner, price: Math.min(trainPrice(t), max), min, max });
    }
  }
  if (r.step !== 'home') {
    for (const sym of buyablePrivates(state)) {
      const p = state.privates[sym]!;
      const max = Math.min(privateMax(sym), corp.cash);
      if (max >= privateMin(sym))
        out.privates.push({ sym, name: PRIVATES[sym]!.name, owner: p.owner as number, min: privateMin(sym), max });
    }
  }
  return out;
}
