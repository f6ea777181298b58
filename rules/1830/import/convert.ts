// One 18xx.games action -> the seat and our action, given our state just before it.
import type { Action1830 } from '../actions.ts';
import type { Game1830State } from '../state.ts';
import type { Raw18xxAction } from './resolve.ts';
import { trackPort } from '../track-port.ts';

export interface Converted {
  seat: number;
  action: Action1830;
}

export class ConvertError extends Error {}

function parPriceOf(sharePrice: unknown): number {
  const s = String(sharePrice ?? '');
  const n = Number(s.split(',')[0]);
  if (!Number.isFinite(n)) throw new ConvertError(`bad share price ${s}`);
  return n;
}

/** Share ids of a buy/sell (older exports have one `share`). */
function shareIds(raw: Raw18xxAction): string[] {
  const list = Array.isArray(raw.shares)
    ? (raw.shares as unknown[]).map(String)
    : raw.share !== undefined
      ? [String(raw.share)]
      : [];
  if (list.length === 0) throw new ConvertError(`${raw.type} without shares`);
  return list;
}

function shareCorp(shareId: string): string {
  const i = shareId.lastIndexOf('_');
  return i < 0 ? shareId : shareId.slice(0, i);
}

export function convertAction(raw: Raw18xxAction, state: Game1830State, ctx: ConvertContext): Converted {
  const seatOf = ctx.seatOf;
  const entity = String(raw.entity ?? '');
  const type = raw.type;
  let seat: number;
  const et = raw.entity_type;
  if (et === 'player') {
    const s = seatOf.get(entity);
    if (s === undefined) throw new ConvertError(`unknown player ${entity}`);
    seat = s;
  } else if (et === 'corporation') {
    const corp = state.corps[entity];
    if (!corp) throw new ConvertError(`unknown corporation ${entity}`);
    if (corp.president === null) throw new ConvertError(`${entity} has no president`);
    seat = corp.president;
  } else if (et === 'company') {
    const p = state.privates[entity];
    if (!p) throw new ConvertError(`unknown private ${entity}`);
    if (typeof p.owner === 'number') seat = p.owner;
    else if (typeof p.owner === 'string') seat = state.corps[p.owner]!.president!;
    else throw new ConvertError(`${entity} has no owner`);
  } else throw new ConvertError(`unknown entity type ${et}`);

  switch (type) {
    case 'bid':
      return { seat, action: { type: 'bid', company: String(raw.company), price: Number(raw.price) } };
    case 'pass':
      return { seat, action: { type: 'pass' } };
    case 'par':
      return { seat, action: { type: 'par', corp: String(raw.corporation), price: parPriceOf(raw.share_price) } };
    case 'buy_shares': {
      const shares = shareIds(raw);
      const corpSym = shareCorp(shares[0]!);
      if (!state.corps[corpSym]) throw new ConvertError(`unknown corporation in ${shares[0]}`);
      const from = shareLocation(ctx, shares[0]!);
      for (const id of shares) ctx.leftIpo.add(id);
      if (et === 'company') return { seat, action: { type: 'exchange', company: 'MH', from } };
      return { seat, action: { type: 'buy', corp: corpSym, from } };
    }
    case 'sell_shares': {
      const shares = shareIds(raw);
      const percent =
        raw.percent !== undefined
          ? Number(raw.percent)
          : shares.reduce((n, id) => n + (id.endsWith('_0') ? 20 : 10), 0);
      return { seat, action: { type: 'sell', corp: shareCorp(shares[0]!), percent } };
    }
    case 'buy_company':
      return { seat, action: { type: 'buyCompany', company: String(raw.company), price: Number(raw.price) } };
    case 'lay_tile': {
      const lay = trackPort.layTileFrom18xx({
        hex: String(raw.hex),
        tile: String(raw.tile),
        rotation: Number(raw.rotation),
      });
      const via = et === 'company' ? (entity as 'CS' | 'DH') : undefined;
      return {
        seat,
        action: {
          type: 'layTile',
          hex: lay.hex,
          tile: lay.tile,
          rotation: lay.rotation,
          ...(lay.copy !== undefined ? { copy: lay.copy } : {}),
          ...(via ? { via } : {}),
        },
      };
    }
    case 'place_token': {
      const place = trackPort.placeTokenFrom18xx(state.map, {
        city: String(raw.city),
        slot: Number(raw.slot ?? 0),
      });
      return {
        seat,
        action: {
          type: 'placeToken',
          hex: place.hex,
          city: place.city,
          ...(et === 'company' ? { via: 'DH' as const } : {}),
        },
      };
    }
    case 'run_routes': {
      const routes = trackPort.routesFrom18xx({ routes: raw.routes as never });
      return {
        seat,
        action: {
          type: 'runRoutes',
          routes: routes.map((r) => ({
            train: r.train,
            connections: r.connections,
            ...(r.nodes ? { nodes: r.nodes } : {}),
          })),
        },
      };
    }
    case 'dividend':
      return { seat, action: { type: 'dividend', kind: raw.kind === 'payout' ? 'payout' : 'withhold' } };
    case 'buy_train': {
      const exchange = raw.exchange ? String(raw.exchange) : undefined;
      return {
        seat,
        action: {
          type: 'buyTrain',
          train: String(raw.train),
          price: Number(raw.price),
          ...(exchange ? { exchange } : {}),
        },
      };
    }
    case 'discard_train':
      return { seat, action: { type: 'discardTrain', corp: entity, train: String(raw.train) } };
    case 'bankrupt':
      return { seat, action: { type: 'bankrupt' } };
    default:
      throw new ConvertError(`unsupported 18xx.games action ${type}`);
  }
}

/** Certificates that have left the IPO: a certificate never goes back, so any other id is still there. */
function shareLocation(ctx: ConvertContext, shareId: string): 'ipo' | 'pool' {
  const from = ctx.leftIpo.has(shareId) ? 'pool' : 'ipo';
  return from;
}

export interface ConvertContext {
  seatOf: Map<string, number>;
  leftIpo: Set<string>;
}

export function newConvertContext(playerIds: (string | number)[]): ConvertContext {
  const leftIpo = new Set<string>(['PRR_1']);
  return { seatOf: new Map(playerIds.map((id, i) => [String(id), i])), leftIpo };
}
