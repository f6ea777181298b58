// Standing orders on the player's page and from mail links (server/orders.ts plays them).
//   GET  /play/:key/orders?kind=...   the orders page: what stands, what ended and why, a form per kind
//                                      of order the seat may leave now (a mail link opens it; GET changes nothing)
//   POST /play/:key/orders             leave an order (a plain form: kind and its fields, seq of the page)
//   POST /play/:key/orders/cancel      cancel one (id)
//   POST /api/v1/play/:key/orders      the same as JSON: { seq?, order: { kind, ... } } or { cancel: id }
import { Router, type Request, type Response } from 'express';
import { apiOrderBody } from './schemas.ts';
import { z } from 'zod';
import type { Seat } from '../../rules/types.ts';
import type { AppContext } from '../app.ts';
import { ServiceError } from '../errors.ts';
import { ordersOf } from '../orders.ts';
import type { LoadedGame } from '../service.ts';
import { parseBody } from './common.ts';
import { numberField } from '../strict-body.ts';

const seq = numberField('seq', { whole: true, min: 0 });
const formBody = z.object({ seq: seq.optional() }).passthrough();
const cancelBody = z.object({ id: z.string().min(1).max(40) });

/** How each kind of order is offered on the page and in the mail, in words. */
const KIND_WORDS: Record<string, { title: string; button: string }> = {
  auctionPass: { title: 'Pass in the auction unless somebody bids on a private', button: 'Pass unless somebody bids' },
  auctionBid: { title: 'Bid on a private up to a limit', button: 'Bid up to this limit' },
  stockPass: { title: 'Pass in this stock round until something changes', button: 'Pass until something changes' },
  stockBuy: { title: 'Buy a share of a corporation each stock turn', button: 'Buy each turn' },
  noPrivates: { title: 'Pass on buying privates in this operating round', button: 'Pass on privates this round' },
};

/** The orders part of a seat's page: what stands, the newest that ended, and the forms (null: the game takes none). */
export function ordersPanel(game: LoadedGame, seat: Seat, key: string, query: Record<string, unknown> = {}) {
  const rules = game.rules;
  if (!rules.orders || game.state === null) return null;
  const mine = ordersOf(game.doc.seats[seat]);
  const running = game.doc.status === 'active' && !game.attention;
  const offers = running ? rules.orders.offers(game.state, seat) : [];
  const picked = typeof query.kind === 'string' ? query.kind : null;
  return {
    url: `/play/${key}/orders`,
    cancelUrl: `/play/${key}/orders/cancel`,
    seq: game.stateSeq,
    armed: mine.armed.map((a) => ({ id: a.id, text: a.text, at: a.at.slice(0, 16).replace('T', ' ') })),
    ended: [...mine.ended].reverse().map((e) => ({ text: e.text, why: e.why })),
    forms: offers.map((o) => ({
      kind: o.kind,
      ...(KIND_WORDS[o.kind] ?? { title: o.kind, button: 'Leave this order' }),
      picked: picked === o.kind,
      choices: (o.choices ?? []).map((c) => ({
        value: c,
        selected: query.corp === c || query.company === c || query.unless === c,
      })),
      suggested: o.suggested ?? null,
      percents: [20, 30, 40, 50, 60].map((p) => ({ value: p, selected: p === (o.suggested ?? 60) })),
      [o.kind]: true,
    })),
  };
}

/** One-click order links for a turn mail: the orders page opened on one kind (never leaves an order by itself). */
export function orderLinks(game: LoadedGame, seat: Seat, playUrl: string): { label: string; url: string }[] {
  if (!game.rules.orders || game.state === null || game.doc.status !== 'active') return [];
  return game.rules.orders.offers(game.state, seat).map((o) => ({
    label: KIND_WORDS[o.kind]?.title ?? o.kind,
    url: `${playUrl}/orders?kind=${encodeURIComponent(o.kind)}`,
  }));
}

/** An order's spec from a plain form's fields (strings; the rules check them). */
function specOfForm(body: Record<string, unknown>): Record<string, unknown> {
  const { seq: _seq, ...rest } = body;
  const spec: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== '') spec[k] = v;
  // Check boxes: the form always sends stops=none, so that none ticked means none.
  if (spec.kind === 'stockPass') {
    const stops = ([] as unknown[]).concat(spec.stops ?? []).filter((s) => s !== 'none');
    spec.stops = stops;
  }
  if (spec.kind === 'stockBuy') spec.untilFloat = spec.untilFloat === 'on' || spec.untilFloat === 'true';
  return spec;
}

export function ordersRouter(ctx: AppContext): Router {
  const { service, renderer } = ctx;
  const r = Router();

  const page = (
    res: Response,
    key: string,
    game: LoadedGame,
    seat: Seat,
    query: Record<string, unknown>,
    status = 200,
    error: string | null = null,
    done: string | null = null,
  ) => {
    res
      .status(status)
      .type('html')
      .send(
        renderer.page('orders', {
          title: `${game.doc.title}: standing orders`,
          game: { title: game.doc.title, seq: game.stateSeq },
          name: game.doc.seats[seat]!.name,
          playUrl: `/play/${key}`,
          orders: ordersPanel(game, seat, key, query),
          error,
          done,
          cspNonce: res.locals.cspNonce,
        }),
      );
  };

  r.get('/play/:key/orders', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    page(res, req.params.key, game, target.seat!, req.query as Record<string, unknown>);
  });

  const leave = async (game: LoadedGame, seat: Seat, spec: unknown, at: number | undefined) => {
    if (at !== undefined && at !== game.stateSeq)
      throw new ServiceError(
        409,
        'The game has moved on since this page was made; nothing was left. Look at the new position and choose again.',
      );
    return service.leaveOrder(game.doc.id, seat, spec);
  };

  r.post('/play/:key/orders', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    try {
      const body = parseBody(formBody, req) as Record<string, unknown> & { seq?: number };
      await leave(game, target.seat!, specOfForm(body), body.seq);
      res.redirect(303, `/play/${req.params.key}#orders`);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const fresh = await service.open(game.doc.id);
      page(res, req.params.key, fresh, target.seat!, req.body ?? {}, err.status, err.message);
    }
  });

  r.post('/play/:key/orders/cancel', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    try {
      const body = parseBody(cancelBody, req);
      await service.cancelOrder(game.doc.id, target.seat!, body.id);
      res.redirect(303, `/play/${req.params.key}#orders`);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      page(res, req.params.key, game, target.seat!, {}, err.status, err.message);
    }
  });

  return r;
}

/** A seat's orders as the JSON API shows them: what stands and what ended, in words. */
export function ordersJson(game: LoadedGame, seat: Seat) {
  const mine = ordersOf(game.doc.seats[seat]);
  return {
    armed: mine.armed.map((a) => ({ id: a.id, at: a.at, text: a.text, order: { kind: a.order.kind } })),
    ended: mine.ended.map((e) => ({ id: e.id, at: e.at, text: e.text, why: e.why })),
  };
}

/** POST /api/v1/play/:key/orders: leaves { order } (at { seq }, if given) or cancels { cancel: id }. */
export async function apiOrders(ctx: AppContext, key: string, req: Request, res: Response): Promise<void> {
  const { service } = ctx;
  const { game, target } = await service.openByKey(key, ['seat']);
  const seat = target.seat!;
  const body = parseBody(apiOrderBody, req);
  if (body.cancel) await service.cancelOrder(game.doc.id, seat, body.cancel);
  else if (body.order) {
    if (body.seq !== undefined && body.seq !== game.stateSeq)
      throw new ServiceError(409, 'The game has moved on since that position; nothing was left.');
    await service.leaveOrder(game.doc.id, seat, body.order);
  } else throw new ServiceError(400, 'Give an order to leave, or the id of one to cancel.');
  const now = await service.open(game.doc.id);
  res.json({ orders: ordersJson(now, seat), seq: now.stateSeq });
}
