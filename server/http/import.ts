// Moving a running 18xx.games game of 1830 here, to continue by email.
//   POST /api/import/18xx   { export: <the 18xx.games export, object or JSON text>,
//                             emails: [one per player, in the export's order] | { "<player id or name>": email },
//                             names?: [...], name?, email? (the creator; default: the first player) }
//                           -> 201 { gameId, adminUrl, watchUrl, seats: [{ seat, name, email, playUrl }], report }
//   GET  /import            the form (paste the export, the players' emails)
//   POST /import            the form's post: a page with the admin link and each seat's personal link
// Both have their own body parsers, mounted before the app's 64 kB ones. An import is costly, so it
// is refused cheaply first: bodies over IMPORT_LIMIT (the longest real 1830 export is about 120 kB),
// JSON nested deeper than any export, more than `perClientPerHour` imports from one client. Then
// the export is read, converted and replayed in a worker thread within a time limit
// (import-pool.ts), and the game's own log is written by the service, which yields to other
// requests while it plays the actions.
import express, { Router, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { RuleError } from '../../rules/types.ts';
import type { Imported18xx } from '../../rules/1830/import/index.ts';
import { Quota } from '../quota.ts';
import { checkNesting } from '../strict-body.ts';
import { ImportPool } from './import-pool.ts';
import type { AppContext } from '../app.ts';
import { ServiceError } from '../errors.ts';
import { firstIssue } from './schemas.ts';

export const IMPORT_LIMIT = '400kb';

export interface ImportLimits {
  /** How long reading one export may take (default 20 s). */
  timeLimitMs: number;
  /** Imports one client address may make an hour (default 20). */
  perClientPerHour: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = { timeLimitMs: 20_000, perClientPerHour: 20 };

const emailSchema = z.string().trim().max(200).email();

const apiBody = z.object({
  export: z.union([z.string().max(400_000), z.record(z.unknown())], {
    required_error: 'Missing export: paste the JSON of the 18xx.games export.',
  }),
  emails: z.union([z.array(z.string()).max(6), z.record(z.string()), z.string().max(2000)], {
    required_error: "Missing emails: give each player's email address.",
  }),
  names: z.array(z.string()).max(6).optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  listed: z.boolean().optional(),
});

export interface ImportResult {
  gameId: string;
  adminKey: string;
  spectatorKey: string;
  seats: { seat: number; name: string; email: string; key: string }[];
  report: Imported18xx['report'];
}

/** Parses, converts, checks and creates the game; ServiceError 4xx with words on anything wrong. */
export async function importFrom18xx(ctx: AppContext, raw: unknown, pool: ImportPool): Promise<ImportResult> {
  const parsed = apiBody.safeParse(raw ?? {});
  if (!parsed.success) throw new ServiceError(400, firstIssue(parsed.error));
  const body = parsed.data;
  if (!ctx.service.rulesOf('1830')) throw new ServiceError(503, 'This server does not offer 1830.');
  let imp: Imported18xx;
  try {
    if (typeof body.export === 'string') checkNesting(body.export);
    imp = await pool.run(body.export);
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    if (err instanceof RuleError) throw new ServiceError(400, `The export could not be read: ${err.message}`);
    throw new ServiceError(400, 'The export could not be read: it is not an 18xx.games export of 1830.');
  }
  const stopped = imp.report.stoppedAt;
  if (stopped)
    throw new ServiceError(
      422,
      `The export cannot be continued here: its action ${stopped.id} does not replay (${stopped.error}). Nothing was created.`,
    );
  const n = imp.seats.length;
  const names = imp.seats.map((s, i) => body.names?.[i]?.trim() || s.name);
  let emails: string[];
  if (typeof body.emails === 'string') emails = body.emails.split(/[\s,;]+/).filter(Boolean);
  else if (Array.isArray(body.emails)) emails = body.emails.map((e) => e.trim());
  else {
    const map = body.emails as Record<string, string>;
    emails = imp.seats.map((s) => (map[s.id] ?? map[s.name] ?? '').trim());
  }
  const order = imp.seats.map((s, i) => `${i + 1}. ${s.name}`).join(', ');
  if (emails.length !== n)
    throw new ServiceError(
      400,
      `The export has ${n} players (${order}); give ${n} email addresses, one per player in that order.`,
    );
  emails.forEach((e, i) => {
    if (!emailSchema.safeParse(e).success)
      throw new ServiceError(400, `The email address for ${names[i]} is not valid.`);
  });
  const creator = { name: body.name?.trim() || names[0]!, email: body.email?.trim() || emails[0]! };
  if (!emailSchema.safeParse(creator.email).success) throw new ServiceError(400, 'Your email address is not valid.');
  const created = await ctx.service.importGame({
    rules: '1830',
    options: imp.options,
    creator,
    seats: names.map((name, i) => ({ name, email: emails[i]! })),
    actions: imp.actions,
    listed: body.listed ?? false,
    source: '18xx.games',
  });
  return {
    gameId: created.gameId,
    adminKey: created.adminKey,
    spectatorKey: created.spectatorKey,
    seats: names.map((name, seat) => ({ seat, name, email: emails[seat]!, key: created.seatKeys[seat]! })),
    report: imp.report,
  };
}

export function importRouter(ctx: AppContext, limits: ImportLimits = DEFAULT_IMPORT_LIMITS): Router {
  const { links, renderer } = ctx;
  const r = Router();
  const pool = new ImportPool({ timeLimitMs: limits.timeLimitMs, maxWaiting: 4 });
  ctx.onClose.push(() => pool.close());
  const perClient = new Quota(limits.perClientPerHour, 3600_000, () => ctx.now().getTime());
  const quota: RequestHandler = (req, _res, next) => {
    if (perClient.take(req.ip ?? '')) return next();
    next(
      new ServiceError(
        429,
        `Your address has moved ${limits.perClientPerHour} games here this hour; please wait a while.`,
      ),
    );
  };
  const json = express.json({ limit: IMPORT_LIMIT, verify: (_req, _res, buf) => checkNesting(buf) });
  const form = express.urlencoded({ extended: false, limit: IMPORT_LIMIT, parameterLimit: 50 });

  r.post('/api/import/18xx', quota, json, async (req, res) => {
    const result = await importFrom18xx(ctx, req.body, pool);
    res.status(201).json({
      gameId: result.gameId,
      adminUrl: links.adminUrl(result.adminKey),
      watchUrl: links.watchUrl(result.spectatorKey),
      seats: result.seats.map((s) => ({ seat: s.seat, name: s.name, email: s.email, playUrl: links.playUrl(s.key) })),
      report: result.report,
    });
  });

  const page = (res: Response, view: Record<string, unknown>, status = 200) => {
    res
      .status(status)
      .type('html')
      .send(
        renderer.page('import', { title: 'Move a game here from 18xx.games', ...view, cspNonce: res.locals.cspNonce }),
      );
  };

  r.get('/import', (_req, res) => page(res, { input: {} }));

  r.post('/import', quota, form, async (req, res) => {
    const f = (req.body ?? {}) as Record<string, string>;
    try {
      const result = await importFrom18xx(
        ctx,
        {
          export: String(f.export ?? ''),
          emails: String(f.emails ?? ''),
          name: f.name || undefined,
          email: f.email || undefined,
        },
        pool,
      );
      page(
        res,
        {
          done: true,
          adminUrl: links.adminUrl(result.adminKey),
          watchUrl: links.watchUrl(result.spectatorKey),
          seats: result.seats.map((s) => ({ ...s, number: s.seat + 1, playUrl: links.playUrl(s.key) })),
          applied: result.report.applied,
        },
        201,
      );
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      page(res, { error: err.message, input: { emails: f.emails, name: f.name, email: f.email } }, err.status);
    }
  });

  return r;
}
