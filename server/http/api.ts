// The JSON API: the same things the pages do, for bots and scripts. Mounted at
// /api/v1 and, for clients written before versions, at /api. Its description:
// GET /api/v1/openapi.json (server/http/openapi.ts; every route listed there).
//   GET  /api/rules                       games this server offers
//   GET  /api/games                       listed games: open (with free seats), running with a reopened seat, running
//   POST /api/games                       create -> { gameId, adminKey, inviteKey, spectatorKey, seatKey, urls }
//   GET  /api/join/:key                   the invite: game, seats taken
//   POST /api/join/:key                   { name, email } -> { seat, seatKey, playUrl }
//   GET  /api/admin/:key                  the game for its admin
//   POST /api/admin/:key/start | /abandon | /reopen {seat, email?} | /policy {...}
//   GET  /api/play/:key                   your view, moves, since your last turn, seq, undo
//   POST /api/play/:key/move              { seq, action | command | n }
//   POST /api/play/:key/undo              { seq }
//   POST /api/play/:key/orders            { seq?, order: {kind, ...} } | { cancel: id } (standing orders)
//   GET  /api/play/:key/history           history.json (also /play/:key/history.json)
//   GET  /api/watch/:key                  the spectator view
// Errors: { error: "plain words" } with a 4xx status.
import { Router } from 'express';
import type { MoveHandler } from './move-path.ts';
import type { AppContext } from '../app.ts';
import { keySourceOfEntry } from '../links.ts';
import type { LoadedGame } from '../service.ts';
import { actionFromBody, parseBody, playersOf } from './common.ts';
import { apiCreateBody, joinBody, moveBody, policySchema, reopenBody, undoBody } from './schemas.ts';
import { openApiDocument } from './openapi.ts';
import { apiOrders, ordersJson } from './orders.ts';

function summary(game: LoadedGame) {
  const d = game.doc;
  return {
    id: d.id,
    rules: d.rules,
    title: d.title,
    status: d.status,
    options: d.options,
    seatCount: d.seatCount,
    seq: game.stateSeq,
    lastSeq: d.log.length,
    players: playersOf(game).map((p, i) => ({ ...p, vacant: !!d.seats[i]!.vacant })),
    seedHash: d.seedHash,
    outcome: d.outcome,
    policy: d.policy,
  };
}

/** POST /api/play/:key/move: { seq, action | command | n } -> { seq, text, status, toAct }. */
export function apiMove(ctx: AppContext): MoveHandler {
  const { service } = ctx;
  return async (req, res, key) => {
    // Decided on the game as this process holds it; a refusal is decided again on a fresh read (decideOnKey).
    const answer = await service.decideOnKey(key, ['seat'], async (game, target) => {
      const body = parseBody(moveBody, req);
      const action = actionFromBody(service, game, target.seat!, body);
      const result = await service.move(game.doc.id, target.seat!, { seq: body.seq, action }, { opened: game });
      return { ...result, status: game.doc.status, toAct: game.doc.wait?.toAct ?? [] };
    });
    // What res.json sends, without the ETag it would hash the answer for: no cache keeps a POST's answer.
    const text = JSON.stringify(answer);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  };
}

export function apiRouter(ctx: AppContext): Router {
  const { service, links } = ctx;
  const r = Router();

  r.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });

  r.get('/rules', (_req, res) => {
    res.json(service.registry.map((x) => ({ id: x.id, title: x.title, players: x.players, options: x.options ?? [] })));
  });

  r.get('/games', async (req, res) => {
    const limit = Math.min(500, Math.max(1, Number(req.query.limit) || 100));
    const { open, running, seatsFree, openTotal, runningTotal, seatsFreeTotal } = await service.listPublic(limit);
    const row = (e: (typeof open)[number]) => {
      const invite = e.status === 'open' ? links.inviteKeyOf(keySourceOfEntry(e)) : null;
      return {
        id: e.id,
        rules: e.rules,
        title: e.title,
        status: e.status,
        players: e.names,
        seatCount: e.seatCount,
        freeSeats: Math.max(0, e.seatCount - e.names.length),
        updatedAt: e.updatedAt,
        ...(invite ? { inviteUrl: links.inviteUrl(invite) } : {}),
        watchUrl: links.watchUrl(links.spectatorKeyOf(keySourceOfEntry(e))),
      };
    };
    // A running game with a reopened seat, as the home page lists it: the players still at the
    // table, whose turn it is, and the link that takes the seat over (GET it to see what the
    // seat holds, POST {name, email} to take it).
    const seatFree = (e: (typeof open)[number]) => {
      const invite = links.inviteKeyOf(keySourceOfEntry(e));
      return {
        id: e.id,
        rules: e.rules,
        title: e.title,
        status: e.status,
        players: e.names.filter((n) => !/^\(open seat \d+\)$/.test(n)),
        seatCount: e.seatCount,
        freeSeats: e.vacantSeats ?? 0,
        toAct: e.toAct.map((s) => ({
          seat: s,
          name: /^\(open seat \d+\)$/.test(e.names[s] ?? '') ? null : (e.names[s] ?? null),
        })),
        updatedAt: e.updatedAt,
        ...(invite ? { inviteUrl: links.inviteUrl(invite), joinApi: `/api/v1/join/${invite}` } : {}),
        watchUrl: links.watchUrl(links.spectatorKeyOf(keySourceOfEntry(e))),
      };
    };
    res.json({
      open: open.map(row),
      seatsFree: seatsFree.map(seatFree),
      running: running.map(row),
      openTotal,
      seatsFreeTotal,
      runningTotal,
    });
  });

  r.post('/games', async (req, res) => {
    const body = parseBody(apiCreateBody, req);
    const created = await service.create(body);
    res.status(201).json({
      ...created,
      // false: invitations, listing and joining wait for the link in the organiser's set-up mail.
      confirmed: (await service.entry(created.gameId))?.confirmed !== false,
      adminUrl: links.adminUrl(created.adminKey),
      inviteUrl: links.inviteUrl(created.inviteKey),
      watchUrl: links.watchUrl(created.spectatorKey),
      playUrl: created.seatKey ? links.playUrl(created.seatKey) : null,
    });
  });

  r.get('/join/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['invite']);
    res.json(summary(game));
  });

  r.post('/join/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['invite']);
    const body = parseBody(joinBody, req);
    const joined = await service.join(game.doc.id, body);
    res.status(201).json({ ...joined, playUrl: links.playUrl(joined.seatKey), game: summary(game) });
  });

  r.get('/admin/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['admin']);
    const d = game.doc;
    res.json({
      ...summary(game),
      inviteUrl: d.inviteKeyHash ? links.inviteUrl(links.inviteKeyOf(d)!) : null,
      watchUrl: links.watchUrl(links.spectatorKeyOf(d)),
    });
  });

  r.post('/admin/:key/start', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['admin']);
    await service.start(game.doc.id);
    res.json(summary(game));
  });

  r.post('/admin/:key/abandon', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['admin']);
    await service.abandon(game.doc.id);
    res.json(summary(game));
  });

  r.post('/admin/:key/reopen', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['admin']);
    const body = parseBody(reopenBody, req);
    const { inviteKey } = await service.reopenSeat(game.doc.id, body.seat, { email: body.email || undefined });
    res.json({ inviteKey, inviteUrl: links.inviteUrl(inviteKey), game: summary(game) });
  });

  r.post('/admin/:key/policy', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['admin']);
    const policy = parseBody(policySchema, req);
    await service.setPolicy(game.doc.id, policy);
    res.json(summary(game));
  });

  r.get('/play/:key', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    const seat = target.seat!;
    const moves = service.movesFor(game, seat);
    res.json({
      game: summary(game),
      you: seat,
      name: game.doc.seats[seat]!.name,
      view: service.viewFor(game, seat),
      yourTurn: moves.length > 0,
      moves,
      canUndo: service.undoBlocker(game, seat) === null,
      ...(game.rules.orders ? { orders: ordersJson(game, seat) } : {}),
      sinceLastTurn: service.sinceLastTurn(game, seat),
      historyUrl: links.historyUrl(req.params.key, 'json'),
    });
  });

  // Also reached by the move routes' lean path (http/move-path.ts), which most moves take.
  const move = apiMove(ctx);
  r.post('/play/:key/move', (req, res) => move(req, res, req.params.key));

  r.post('/play/:key/undo', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    const body = parseBody(undoBody, req);
    const result = await service.undo(game.doc.id, target.seat!, body.seq);
    res.json(result);
  });

  r.post('/play/:key/orders', (req, res) => apiOrders(ctx, req.params.key, req, res));

  r.get('/play/:key/history', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    res.json(service.historyDoc(game, target.seat!));
  });

  r.get('/watch/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['spectator']);
    res.json({ game: summary(game), view: service.viewFor(game, null), history: service.historyLines(game) });
  });

  r.get('/watch/:key/history', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['spectator']);
    res.json(service.historyDoc(game, null));
  });

  return r;
}
