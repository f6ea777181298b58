// The HTML pages. They work without script: every change is a POST form,
// every GET only reads (mail scanners open links).
//   /                      public games: open ones with free seats, running ones
//   /new                   create form -> admin page
//   /join/:key             invite: take a seat -> your personal page
//   /play/:key             your page: view, since your last turn, history, move form
//   /play/:key/m/:n?seq=   quick-move confirm page (never moves by itself)
//   /play/:key/step/:seq   the game after entry seq; history.json, history.txt
//   /watch/:key            spectators (same sub-pages)
//   /admin/:key            start, reopen a seat, reminder policy, abandon
import Handlebars from 'handlebars';
import { Router, type Request, type Response } from 'express';
import type { Seat } from '../../rules/types.ts';
import type { AppContext } from '../app.ts';
import { ServiceError } from '../errors.ts';
import { DEFAULT_POLICY } from '../policy.ts';
import { ExportError, exportText } from '../export-18xx.ts';
import { summariseView } from '../render.ts';
import { keySourceOfEntry } from '../links.ts';
import { lastEffectiveMove, nameSeats, nameSeatsInMarkup } from '../game-log.ts';
import { inkOn } from '../../rules/picture.ts';
import { nameRows } from '../mail/closeup.ts';
import type { LoadedGame } from '../service.ts';
import { actionFromBody, historyText, parseBody, playersOf } from './common.ts';
import { ordersPanel } from './orders.ts';
import { changedSince, fullTime, groupMoves, readableWidth, ringChanges, timeAgo, undoGone } from './page-parts.ts';
import { createBody, joinBody, moveBody, policySchema, reopenBody, sayBody, undoBody } from './schemas.ts';
import { replyAddress } from '../mail/reply-address.ts';
import type { MoveHandler } from './move-path.ts';

const MAX_BUTTONS = 200;

/** The page routes; `playMove` is POST /play/:key/move (the play page's form) for the lean path. */
export function pagesRouter(ctx: AppContext): Router & { playMove: MoveHandler } {
  const { service, links, renderer } = ctx;
  const r = Router();

  const send = (res: Response, name: string, view: Record<string, unknown>, status = 200) => {
    res
      .status(status)
      .type('html')
      .send(renderer.page(name, { ...view, cspNonce: res.locals.cspNonce }));
  };

  /**
   * A picture as a page shows it: on a narrow screen it keeps a width at which its labels can be
   * read, and scrolls inside its own box instead of shrinking them away.
   */
  const readable = (svg: string) => {
    const wide = readableWidth(svg);
    return wide ? svg.replace('<svg', `<svg style="min-width:${Math.min(wide, 1200)}px"`) : svg;
  };

  /** The board, the game's view partial (or a generic summary), for any seat or a spectator. */
  const board = (res: Response, game: LoadedGame, seat: Seat | null, state: unknown = game.state) => {
    let view =
      state === game.state
        ? service.viewFor(game, seat)
        : state === null
          ? { seat, toAct: [], status: 'The game had not started yet' }
          : service.viewOf(game, state, seat);
    // An abandoned game has nobody to act: its headline says so instead of naming whose turn it was.
    if (state === game.state && game.doc.status === 'abandoned')
      view = { ...view, toAct: [], status: 'The game was abandoned' };
    const players = playersOf(game);
    const partialCtx = {
      view,
      players,
      you: seat,
      game: { id: game.doc.id, title: game.doc.title, seq: game.stateSeq },
    };
    let svg: string | null = null;
    if (state !== null && game.rules.svg) {
      try {
        svg = nameSeatsInMarkup(game.rules.svg(view), game.doc);
      } catch {
        svg = null;
      }
    }
    const drawn = svg && readable(svg);
    const html = state === null ? null : renderer.gameView(game.rules.id, partialCtx, res.locals.cspNonce);
    return {
      view,
      status: view.status,
      svg: drawn ? new Handlebars.SafeString(drawn) : null,
      rawSvg: svg,
      viewHtml: html ? new Handlebars.SafeString(html) : null,
      summary: html || state === null ? null : summariseView(view, players),
    };
  };

  const outcomeRows = (game: LoadedGame) =>
    game.doc.outcome
      ? game.doc.outcome.scores
          .map((score, seat) => ({
            seat,
            name: game.doc.seats[seat]?.name,
            score,
            rank: game.doc.outcome!.ranks[seat],
          }))
          .sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0))
      : null;

  const gameInfo = (game: LoadedGame) => ({
    id: game.doc.id,
    title: game.doc.title,
    rules: game.doc.rules,
    status: game.doc.status,
    seq: game.stateSeq,
    seatCount: game.doc.seatCount,
    seedHash: game.doc.seedHash,
    seed: game.doc.status === 'finished' || game.doc.status === 'abandoned' ? game.doc.seed : null,
    attention: game.attention,
  });

  // ---- home and create ----------------------------------------------------

  r.get('/favicon.ico', (_req, res) => void res.status(204).end());

  r.get('/', async (_req, res) => {
    const { open, running, seatsFree, openTotal, runningTotal, seatsFreeTotal } = await service.listPublic(100);
    send(res, 'home', {
      title: 'Share games by email',
      seatsFree: seatsFree.map((e) => ({
        ...e,
        players: e.names.filter((_, i) => !/^\(open seat \d+\)$/.test(e.names[i] ?? '')),
        free: e.vacantSeats ?? 0,
        toActNames: e.toAct.map((s) => e.names[s] ?? `seat ${s + 1}`),
        joinUrl: `/join/${links.inviteKeyOf(keySourceOfEntry(e))}`,
        watchUrl: `/watch/${links.spectatorKeyOf(keySourceOfEntry(e))}`,
        ago: timeAgo(e.updatedAt, ctx.now()),
        fullTime: fullTime(e.updatedAt),
      })),
      seatsFreeMore: seatsFreeTotal - seatsFree.length,
      open: open.map((e) => ({
        ...e,
        free: e.seatCount - e.names.length,
        joinUrl: `/join/${links.inviteKeyOf(keySourceOfEntry(e))}`,
      })),
      running: running.map((e) => ({
        ...e,
        watchUrl: `/watch/${links.spectatorKeyOf(keySourceOfEntry(e))}`,
        ago: timeAgo(e.updatedAt, ctx.now()),
        fullTime: fullTime(e.updatedAt),
      })),
      openMore: openTotal - open.length,
      runningMore: runningTotal - running.length,
    });
  });

  const createForm = (
    res: Response,
    status = 200,
    error: string | null = null,
    input: Record<string, unknown> = {},
  ) => {
    send(
      res,
      'new',
      {
        title: 'New game',
        error,
        input: { seats: '', listed: true, join: true, ...DEFAULT_POLICY, ...input },
        games: service.registry.map((g) => ({
          id: g.id,
          title: g.title,
          min: g.players.min,
          max: g.players.max,
          selected: input.rules === g.id,
          options: (g.options ?? []).map((o) => ({
            ...o,
            field: `opt_${g.id}_${o.id}`,
            isBoolean: o.kind === 'boolean',
            choices: o.kind === 'choice' ? o.choices.map((c) => ({ ...c, selected: c.value === o.default })) : [],
          })),
        })),
      },
      status,
    );
  };

  r.get('/new', (_req, res) => createForm(res));

  r.post('/new', async (req, res) => {
    const f = (req.body ?? {}) as Record<string, string>;
    try {
      const rules = service.rulesOf(String(f.rules ?? ''));
      const options: Record<string, string | boolean> = {};
      for (const o of rules?.options ?? []) {
        const v = f[`opt_${rules!.id}_${o.id}`];
        options[o.id] = o.kind === 'boolean' ? v === 'on' : String(v ?? o.default);
      }
      const body = createBody.safeParse({
        rules: f.rules,
        seats: f.seats,
        name: f.name,
        email: f.email,
        listed: f.listed === 'on',
        join: f.join === 'on',
        invite: f.invite ?? '',
        options,
        policy: {
          remindAfterHours: f.remindAfterHours,
          repeatHours: f.repeatHours,
          maxReminders: f.maxReminders,
          onTimeout: f.onTimeout,
        },
      });
      if (!body.success)
        throw new ServiceError(400, body.error.issues[0]?.message ?? 'The form was not filled in right.');
      const created = await service.create(body.data);
      res.redirect(303, `/admin/${created.adminKey}?new=1`);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      createForm(res, err.status, err.message, { ...f, listed: f.listed === 'on', join: f.join === 'on' });
    }
  });

  // ---- the organiser's confirmation (the link in the set-up mail) -----------

  r.get('/confirm/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['confirm']);
    send(res, 'organiser', {
      title: `Confirm your game of ${game.doc.title}`,
      game: gameInfo(game),
      invites: game.doc.pendingInvites?.length ?? 0,
      listed: game.doc.listed,
      confirmUrl: `/confirm/${req.params.key}`,
    });
  });

  r.post('/confirm/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['confirm']);
    await service.confirm(game.doc.id);
    res.redirect(303, `/admin/${links.adminKeyOf(game.doc)}?confirmed=1`);
  });

  // ---- invite -------------------------------------------------------------

  /**
   * What a reopened seat holds as everyone may see it (the rules' card of the seat, drawn from
   * the spectator's view: no hand, no private money), in words and coloured chips.
   */
  const seatHoldings = (game: LoadedGame, seat: Seat) => {
    if (!game.rules.holdings || game.state === null) return [];
    try {
      const rows = game.rules.holdings({ ...service.viewFor(game, null), seat });
      return nameRows(
        rows.filter((r) => !r.heading),
        (text) => nameSeats(text, game.doc),
      ).map((r) => ({ ...r, chips: r.chips?.map((c) => ({ ...c, ink: c.ink ?? inkOn(c.fill) })) }));
    } catch {
      return [];
    }
  };

  const invitePage = (
    res: Response,
    key: string,
    game: LoadedGame,
    status = 200,
    error: string | null = null,
    input: Record<string, unknown> = {},
  ) => {
    const d = game.doc;
    // A running game with a reopened seat: what the newcomer takes over (the seat's holdings as
    // everyone sees them, the position, whose turn). Hidden holdings (a hand) show once seated:
    // the invite link is shared, and must not show a seat's secrets to the players at the table.
    const vacant = d.status === 'active' ? d.seats.findIndex((s) => s.vacant) : -1;
    const takeOver =
      vacant >= 0
        ? {
            seat: vacant + 1,
            replacing: (d.retiredSeats ?? []).filter((x) => x.slot === d.seats[vacant]!.slot).pop()?.name ?? null,
            board: board(res, game, null),
            holds: seatHoldings(game, vacant),
            toAct: (d.wait?.toAct ?? []).map((s) =>
              s === vacant ? 'this seat (you, once you take it)' : d.seats[s]?.name,
            ),
            moves: game.doc.log.filter((e) => e.kind === 'move').length,
            since: d.createdAt.slice(0, 10),
          }
        : null;
    send(
      res,
      'join',
      {
        title: takeOver ? `Take over a seat in ${d.title}` : `Join ${d.title}`,
        takeOver,
        game: gameInfo(game),
        players: d.seats.map((s) => ({ name: s.name, vacant: !!s.vacant })),
        free: d.status === 'open' ? d.seatCount - d.seats.length : d.seats.filter((s) => s.vacant).length,
        options: Object.entries(d.options).map(([k, v]) => ({
          label: game.rules.options?.find((o) => o.id === k)?.label ?? k,
          value: String(v),
        })),
        joinUrl: `/join/${key}`,
        error,
        input,
      },
      status,
    );
  };

  r.get('/join/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['invite']);
    invitePage(res, req.params.key, game);
  });

  r.post('/join/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['invite']);
    try {
      const body = parseBody(joinBody, req);
      const joined = await service.join(game.doc.id, body);
      res.redirect(303, `/play/${joined.seatKey}`);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      invitePage(res, req.params.key, game, err.status, err.message, req.body ?? {});
    }
  });

  // ---- the personal page --------------------------------------------------

  const playPage = async (
    req: Request,
    res: Response,
    key: string,
    game: LoadedGame,
    seat: Seat,
    status = 200,
    error: string | null = null,
    input: Record<string, unknown> = {},
  ) => {
    const d = game.doc;
    // The buttons the most useful first; the game's own form gets the moves in the rules' order.
    const moves = service.movesFor(game, seat, true);
    const inOrder = service.movesFor(game, seat);
    const b = board(res, game, seat);
    const moveUrl = `/play/${key}/move`;
    const formHtml =
      moves.length > 0 && d.status === 'active'
        ? renderer.gameForm(
            d.rules,
            {
              ...b,
              view: b.view,
              players: playersOf(game),
              you: seat,
              game: { id: d.id, title: d.title, seq: game.stateSeq },
              moveUrl,
              seq: game.stateSeq,
              moves: inOrder,
              cspNonce: res.locals.cspNonce,
            },
            res.locals.cspNonce,
          )
        : null;
    const undoBlocker = service.undoBlocker(game, seat);
    // Close-ups of what changed on the picture since the seat's own last move.
    const changed = b.rawSvg ? await changedSince(service, game, seat, b.rawSvg) : [];
    const undoSeq = undoBlocker === null ? lastEffectiveMove(d.log)?.seq : undefined;
    const lastMine = undoSeq === undefined ? null : service.historyLines(game).find((l) => l.seq === undoSeq);
    const hasForm = !!formHtml && formHtml.trim() !== '';
    send(
      res,
      'play',
      {
        title: `${d.title}: ${d.seats[seat]!.name}`,
        game: gameInfo(game),
        you: seat,
        name: d.seats[seat]!.name,
        players: playersOf(game).map((p) => ({
          ...p,
          toAct: (d.wait?.toAct ?? []).includes(p.seat),
          you: p.seat === seat,
        })),
        board: hasForm && formHtml!.includes('data-draws-board') ? { ...b, svg: null } : b,
        closeUps: changed.map((svg) => new Handlebars.SafeString(svg)),
        yourTurn: moves.length > 0 && d.status === 'active',
        moveGroups: groupMoves(moves.slice(0, MAX_BUTTONS)),
        moreMoves: Math.max(0, moves.length - MAX_BUTTONS),
        formHtml: hasForm ? new Handlebars.SafeString(formHtml!) : null,
        commandBox: !!game.rules.parse && !hasForm,
        moveUrl,
        undoUrl: `/play/${key}/undo`,
        canUndo: undoBlocker === null,
        undoText: lastMine?.text ?? null,
        undoGone:
          undoBlocker !== null && d.status === 'active'
            ? undoGone(
                d.log,
                seat,
                d.seats.map((s) => s.name),
              )
            : null,
        since: service.sinceLastTurn(game, seat),
        history: service.historyLines(game).reverse(),
        stepBase: `/play/${key}/step/`,
        outcome: outcomeRows(game),
        waiting: d.status === 'open',
        links: {
          json: `/play/${key}/history.json`,
          txt: `/play/${key}/history.txt`,
          export18xx: d.rules === '1830' ? `/play/${key}/18xx.json` : null,
          watch: links.watchUrl(links.spectatorKeyOf(d)),
          invite: d.inviteKeyHash ? links.inviteUrl(links.inviteKeyOf(d)!) : null,
          self: links.playUrl(key),
          mail: `/mail/prefs/${key}`,
        },
        error,
        orders: ordersPanel(game, seat, key),
        talk: talkPanel(game, seat, key),
        input: {
          command: typeof input.command === 'string' ? input.command : '',
          words: typeof input.words === 'string' ? input.words : '',
        },
      },
      status,
    );
    void req;
  };

  /** Table talk for a seat (while the game is not over), and its reply address when replies are on. */
  const talkPanel = (game: LoadedGame, seat: Seat, key: string) => {
    const d = game.doc;
    if (d.status === 'finished' || d.status === 'abandoned') return null;
    const token = ctx.replyDomain ? links.replyTokenOf(d, seat) : null;
    return {
      url: `/play/${key}/say`,
      replyAddress: token && ctx.replyDomain ? replyAddress(d.id, token, ctx.replyDomain) : null,
    };
  };

  r.get('/play/:key', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    await playPage(req, res, req.params.key, game, target.seat!);
  });

  // Also reached by the move routes' lean path (http/move-path.ts), which most moves take.
  const playMove: MoveHandler = async (req, res, key) => {
    // Decided on the game as this process holds it; a refusal is decided again on a fresh read
    // (decideOnKey), and shown on the page of the game as read then.
    await service.decideOnKey(
      key,
      ['seat'],
      async (game, target) => {
        const body = parseBody(moveBody, req);
        const action = actionFromBody(service, game, target.seat!, body);
        await service.move(game.doc.id, target.seat!, { seq: body.seq, action }, { opened: game });
        res.redirect(303, `/play/${key}`);
      },
      (err, game, target) => playPage(req, res, key, game, target.seat!, err.status, err.message, req.body ?? {}),
    );
  };
  r.post('/play/:key/move', (req, res) => playMove(req, res, req.params.key));

  r.post('/play/:key/say', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    try {
      const body = parseBody(sayBody, req);
      await service.say(game.doc.id, target.seat!, body.words);
      res.redirect(303, `/play/${req.params.key}#talk`);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      await playPage(req, res, req.params.key, game, target.seat!, err.status, err.message, req.body ?? {});
    }
  });

  r.post('/play/:key/undo', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    try {
      const body = parseBody(undoBody, req);
      await service.undo(game.doc.id, target.seat!, body.seq);
      res.redirect(303, `/play/${req.params.key}`);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      await playPage(req, res, req.params.key, game, target.seat!, err.status, err.message);
    }
  });

  r.get('/play/:key/m/:n', async (req, res) => {
    const { game, target } = await service.openByKey(req.params.key, ['seat']);
    const seat = target.seat!;
    const n = Number(req.params.n);
    const seq = Number(req.query.seq);
    const move = service.moveAt(game, seat, n);
    const total = move ? 1 : service.firstMoves(game, seat, 1).total;
    let problem: string | null = null;
    if (!Number.isInteger(seq)) problem = 'This link has no position number; open your page instead.';
    else if (!service.canPlayAt(game, seat, seq)) {
      problem =
        total === 0 && game.doc.status === 'active' && seq === game.stateSeq
          ? 'It is not your turn.'
          : game.doc.status !== 'active'
            ? 'The game is not running.'
            : 'The game has moved on since this link was sent; nothing was played.';
    } else if (!move) problem = 'That move is no longer on offer.';
    // What the move changes: the board after it, played on a copy. A move that reveals hidden
    // information (a card drawn) is not previewed: the board as it is now instead.
    let preview: ReturnType<typeof board> | null = null;
    let previewAfter = false;
    let previewRinged = false;
    if (!problem && move && game.state !== null) {
      const reveals = !game.rules.undoable || game.rules.undoable(move.action, game.state) === false;
      if (!reveals) {
        try {
          const after = structuredClone(game.state);
          game.rules.apply(after, seat, move.action);
          preview = board(res, game, seat, after);
          previewAfter = true;
          // What it changes, ringed on the board after it.
          const now = board(res, game, seat).rawSvg;
          const ringed = now && preview.rawSvg ? ringChanges(now, preview.rawSvg) : null;
          if (ringed && ringed !== preview.rawSvg) {
            preview = { ...preview, svg: new Handlebars.SafeString(readable(ringed)) };
            previewRinged = true;
          }
        } catch {
          preview = null;
        }
      }
      preview ??= board(res, game, seat);
    }
    send(
      res,
      'confirm',
      {
        title: `${game.doc.title}: confirm your move`,
        game: gameInfo(game),
        name: game.doc.seats[seat]!.name,
        move: problem ? null : { label: move!.label, text: move!.text, actionJson: JSON.stringify(move!.action) },
        preview: preview
          ? { status: preview.status, svg: preview.svg, after: previewAfter, ringed: previewRinged }
          : null,
        seq,
        problem,
        moveUrl: `/play/${req.params.key}/move`,
        playUrl: `/play/${req.params.key}`,
      },
      problem ? 409 : 200,
    );
  });

  // ---- history downloads and the step page, for players and spectators ----

  for (const role of ['play', 'watch'] as const) {
    const roles = role === 'play' ? (['seat'] as const) : (['spectator'] as const);

    r.get(`/${role}/:key/history.json`, async (req, res) => {
      const { game, target } = await service.openByKey(req.params.key, [...roles]);
      res.setHeader('Content-Disposition', `attachment; filename="${game.doc.rules}-${game.doc.id}-history.json"`);
      res.type('json').send(JSON.stringify(service.historyDoc(game, target.seat ?? null), null, 1));
    });

    // an 1830 game as an 18xx.games export (every move of 1830 is public, so the whole game is in it)
    r.get(`/${role}/:key/18xx.json`, async (req, res) => {
      const { game } = await service.openByKey(req.params.key, [...roles]);
      const d = game.doc;
      if (d.rules !== '1830') throw new ServiceError(404, 'Only 1830 games can be written as 18xx.games exports.');
      let text: string;
      try {
        text = exportText({
          rules: d.rules,
          rulesVersion: d.rulesVersion ?? 1,
          options: d.options,
          seats: d.seats.map((s, i) => ({ seat: i, name: s.name })),
          log: d.log,
        });
      } catch (err) {
        if (err instanceof ExportError) throw new ServiceError(409, `This game cannot be exported: ${err.message}`);
        throw err;
      }
      res.setHeader('Content-Disposition', `attachment; filename="1830-${d.id}-18xx.json"`);
      res.type('json').send(text);
    });

    r.get(`/${role}/:key/history.txt`, async (req, res) => {
      const { game } = await service.openByKey(req.params.key, [...roles]);
      res.setHeader('Content-Disposition', `attachment; filename="${game.doc.rules}-${game.doc.id}-history.txt"`);
      res.type('text/plain; charset=utf-8').send(historyText(service, game));
    });

    r.get(`/${role}/:key/step/:seq`, async (req, res) => {
      const { game, target } = await service.openByKey(req.params.key, [...roles]);
      const last = game.doc.log.length;
      const seq = Number(req.params.seq);
      if (!Number.isInteger(seq) || seq < 1 || seq > last)
        throw new ServiceError(404, `This game has entries 1 to ${last}.`);
      const seat = target.seat ?? null;
      const state = await service.stateAt(game, seq);
      const b = board(res, game, seat, state);
      const lines = service.recentLines(game, seq, 8);
      const base = `/${role}/${req.params.key}/step/`;
      send(res, 'step', {
        title: `${game.doc.title}: after entry ${seq}`,
        game: gameInfo(game),
        seq,
        last,
        board: b,
        started: state !== null,
        entry: lines[lines.length - 1],
        recent: [...lines].reverse(),
        nav: {
          first: seq > 1 ? `${base}1` : null,
          prev: seq > 1 ? `${base}${seq - 1}` : null,
          next: seq < last ? `${base}${seq + 1}` : null,
          last: seq < last ? `${base}${last}` : null,
        },
        back: `/${role}/${req.params.key}`,
      });
    });
  }

  r.get('/watch/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['spectator']);
    const key = req.params.key;
    send(res, 'watch', {
      title: `${game.doc.title} (watching)`,
      game: gameInfo(game),
      players: playersOf(game).map((p) => ({ ...p, toAct: (game.doc.wait?.toAct ?? []).includes(p.seat) })),
      board: board(res, game, null),
      history: service.historyLines(game).reverse(),
      stepBase: `/watch/${key}/step/`,
      outcome: outcomeRows(game),
      links: {
        json: `/watch/${key}/history.json`,
        txt: `/watch/${key}/history.txt`,
        export18xx: game.doc.rules === '1830' ? `/watch/${key}/18xx.json` : null,
      },
    });
  });

  // ---- admin ----------------------------------------------------------------

  const adminPage = (
    req: Request,
    res: Response,
    key: string,
    game: LoadedGame,
    status = 200,
    error: string | null = null,
  ) => {
    const d = game.doc;
    const creatorSeat = d.creatorSlot === null ? -1 : d.seats.findIndex((s) => s.slot === d.creatorSlot && !s.vacant);
    send(
      res,
      'admin',
      {
        title: `${d.title}: admin`,
        game: gameInfo(game),
        isNew: req.query.new === '1',
        unconfirmed: d.confirmed === false,
        seats: d.seats.map((s, i) => ({ seat: i, name: s.name, vacant: !!s.vacant })),
        canStart: d.status === 'open' && d.seats.length >= game.rules.players.min,
        needed: game.rules.players.min,
        running: d.status === 'open' || d.status === 'active',
        policy: d.policy,
        notify: d.policy.onTimeout === 'notify',
        hasAutoMove: !!game.rules.autoMove,
        links: {
          invite: d.inviteKeyHash ? links.inviteUrl(links.inviteKeyOf(d)!) : null,
          watch: links.watchUrl(links.spectatorKeyOf(d)),
          admin: links.adminUrl(key),
          yourSeat: creatorSeat >= 0 ? links.playUrl(links.seatKeyOf(d, creatorSeat)) : null,
        },
        base: `/admin/${key}`,
        error,
      },
      status,
    );
  };

  r.get('/admin/:key', async (req, res) => {
    const { game } = await service.openByKey(req.params.key, ['admin']);
    adminPage(req, res, req.params.key, game);
  });

  const adminAction = (path: string, act: (game: LoadedGame, req: Request) => Promise<unknown>) => {
    r.post(`/admin/:key/${path}`, async (req, res) => {
      const key = String(req.params.key);
      const { game } = await service.openByKey(key, ['admin']);
      try {
        await act(game, req);
        res.redirect(303, `/admin/${key}`);
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        adminPage(req, res, key, game, err.status, err.message);
      }
    });
  };
  adminAction('start', (game) => service.start(game.doc.id));
  adminAction('abandon', async (game, req) => {
    if ((req.body as Record<string, string> | undefined)?.confirm !== 'yes')
      throw new ServiceError(400, 'Tick the box to confirm that the game is to be abandoned.');
    await service.abandon(game.doc.id);
  });
  // Reopening a seat removes a player: the form asks first, then this page confirms.
  r.post('/admin/:key/reopen', async (req, res) => {
    const key = String(req.params.key);
    const { game } = await service.openByKey(key, ['admin']);
    try {
      const body = parseBody(reopenBody, req);
      const seat = game.doc.seats[body.seat];
      if (!seat || seat.vacant) throw new ServiceError(400, `There is no player in seat ${body.seat + 1}.`);
      if ((req.body as Record<string, string> | undefined)?.confirm !== 'yes') {
        send(res, 'reopen', {
          title: `${game.doc.title}: reopen seat ${body.seat + 1}?`,
          game: gameInfo(game),
          seat: body.seat,
          seatNumber: body.seat + 1,
          name: seat.name,
          email: body.email ?? '',
          running: game.doc.status === 'active',
          action: `/admin/${key}/reopen`,
          back: `/admin/${key}`,
        });
        return;
      }
      await service.reopenSeat(game.doc.id, body.seat, { email: body.email || undefined });
      res.redirect(303, `/admin/${key}`);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      adminPage(req, res, key, game, err.status, err.message);
    }
  });
  adminAction('policy', async (game, req) => service.setPolicy(game.doc.id, parseBody(policySchema, req)));

  return Object.assign(r, { playMove });
}
