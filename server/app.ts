// The app factory: everything the server needs comes in as a dependency, so
// tests can give it a temp folder, the small test game and a fake clock.
//
//   const ctx = await createApp({ dataDir, baseUrl, registry, now, onEvent, plugins })
//   ctx.app (express), ctx.service (GameService), ctx.links, ctx.renderer, ctx.logger
//   await ctx.close()
//   const running = await startServer({ ...deps, port: 0, host: '127.0.0.1' })  // { url, ctx, stop }
//   await running.stop(graceMs)   // stop accepting, let requests in flight finish, flush, close
//
// GET /healthz answers while the process lives; GET /readyz runs ctx.readiness
// (the store's ping, the mail plugin's transport) and answers 503 while stopping.
//
// Plugins run after the game routes are mounted and before the 404 handler:
// the mail code mounts /outbox and subscribes to events there.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { rateLimit } from 'express-rate-limit';
import { pino, type Logger } from 'pino';
import type { AnyRules } from '../rules/types.ts';
import { ServiceError } from './errors.ts';
import type { GameEventListener } from './events.ts';
import { apiMove, apiRouter } from './http/api.ts';
import { movePath } from './http/move-path.ts';
import { pagesRouter } from './http/pages.ts';
import { ordersRouter } from './http/orders.ts';
import { DEFAULT_IMPORT_LIMITS, importRouter, type ImportLimits } from './http/import.ts';
import { sameSiteOnly } from './http/client.ts';
import { plainJsonBody } from './http/json-body.ts';
import { createLinks, type Links } from './links.ts';
import { PageRenderer, TEMPLATES_DIR, WEB_DIR } from './render.ts';
import { redactingLogger } from './redact.ts';
import { checkNesting } from './strict-body.ts';
import { removeLeftOverTempFiles } from './tidy.ts';
import { DEFAULT_QUOTAS, Quota, type QuotaCounter, type QuotaSettings } from './quota.ts';
import { PgQuota } from './pg-quota.ts';
import type { Pool as PgPool } from 'pg';
import { loadOrCreateSecret } from './secret.ts';
import { GameService } from './service.ts';
import { LowdbGameStore } from './store/lowdb-store.ts';
import type { PgGameStore } from './store/pg-store.ts';
import { pgStoreOf } from './store/types.ts';
import { PgRateLimitStore } from './http/pg-rate-limit.ts';
import type { GameStore } from './store/types.ts';

export interface AppDeps {
  dataDir: string;
  baseUrl: string;
  registry: AnyRules[];
  now?: () => Date;
  onEvent?: GameEventListener | GameEventListener[];
  logger?: Logger;
  /** Defaults to DATA_DIR/secret.key (made on first start, mode 0600). */
  secret?: Buffer;
  /** Defaults to the PostgreSQL store on databaseUrl if set, else the lowdb store under dataDir. */
  store?: GameStore;
  /** DATABASE_URL: games in PostgreSQL, shared by every server process given the same URL. */
  databaseUrl?: string;
  templatesDir?: string;
  /** Which proxies' X-Forwarded-For to believe (TRUST_PROXY; see http/client.ts). Default: none. */
  trustProxy?: boolean | number | string;
  /** The organiser confirms their address before invitations leave (GameServiceOptions.confirmOrganiser). */
  confirmOrganiser?: boolean;
  /** When unconfirmed and unjoined games expire (default DEFAULT_EXPIRY). */
  expiry?: { unconfirmedHours: number; openDays: number };
  /** Creation quotas per client and per organiser address (default DEFAULT_QUOTAS; server/quota.ts). */
  quotas?: Partial<QuotaSettings>;
  /** The 18xx.games import's time limit and quota (default DEFAULT_IMPORT_LIMITS). */
  importLimits?: Partial<ImportLimits>;
  /** POST rate limit per client address (default 300 a minute). */
  postLimit?: { windowMs: number; limit: number };
  plugins?: AppPlugin[];
}

export interface AppContext {
  app: express.Express;
  service: GameService;
  links: Links;
  renderer: PageRenderer;
  logger: Logger;
  dataDir: string;
  baseUrl: string;
  registry: AnyRules[];
  now: () => Date;
  /** Called by close(); plugins push their own shutdown here. */
  onClose: (() => Promise<void> | void)[];
  /** GET /readyz: each check resolves to a short status ('ok', 'smtp', ...) or rejects with the reason. */
  readiness: Record<string, () => Promise<string>>;
  /** Set by a graceful stop: /readyz answers 503 and responses close their connections. */
  draining: boolean;
  /** MAIL_DOMAIN when replies are on (set by the mail plugin): the personal page shows the seat's reply address. */
  replyDomain?: string;
  close(): Promise<void>;
}

export type AppPlugin = (ctx: AppContext) => void | Promise<void>;

/** The largest body the JSON and form parsers take (64 kB; the import has its own). */
const BODY_LIMIT = 64 * 1024;

export { redactPath } from './redact.ts';

export async function createApp(deps: AppDeps): Promise<AppContext> {
  // Link keys never reach a log line: every logger below is this one or its child (redact.ts).
  const logger = redactingLogger(deps.logger ?? pino({ level: 'info' }));
  const now = deps.now ?? (() => new Date());
  const onProblem = (m: string) => logger.error({ problem: m }, 'store problem');
  // The PostgreSQL store (and its driver) is loaded only when asked for.
  const store =
    deps.store ??
    (deps.databaseUrl
      ? new (await import('./store/pg-store.ts')).PgGameStore({ url: deps.databaseUrl, onProblem })
      : new LowdbGameStore({ dataDir: deps.dataDir, onProblem }));
  // With PostgreSQL every process shares the secret kept in the database (unless SECRET_KEY gives it).
  const shared: PgGameStore | null = pgStoreOf(store);
  const secret = deps.secret ?? (shared ? await shared.loadOrCreateSecret() : loadOrCreateSecret(deps.dataDir));
  const tidied = await removeLeftOverTempFiles(deps.dataDir);
  if (tidied > 0) logger.info({ files: tidied }, 'removed temp files left by an earlier kill');
  const links = createLinks(secret, deps.baseUrl);
  const service = new GameService({
    store,
    registry: deps.registry,
    links,
    now,
    onEvent: deps.onEvent,
    logger,
    confirmOrganiser: deps.confirmOrganiser,
    expiry: deps.expiry,
  });
  await service.init();
  // Games nobody confirmed or joined end after a while (service.expireStale reads only the index).
  const expiryTimer = setInterval(() => {
    service.expireStale().catch((err) => logger.error({ err: String(err) }, 'expiring games failed'));
  }, 10 * 60_000);
  expiryTimer.unref();
  const renderer = new PageRenderer(deps.templatesDir ?? TEMPLATES_DIR);
  const app = express();
  const onClose: AppContext['onClose'] = [];
  const ctx: AppContext = {
    app,
    service,
    links,
    renderer,
    logger,
    dataDir: deps.dataDir,
    baseUrl: links.baseUrl,
    registry: deps.registry,
    now,
    onClose,
    readiness: {
      store: async () => {
        await store.ping?.();
        return 'ok';
      },
    },
    draining: false,
    async close() {
      clearInterval(expiryTimer);
      // Mail queued by the listeners of writes already acknowledged goes to disk first.
      await service.settled();
      for (const f of onClose.splice(0).reverse()) await f();
      await store.close();
    },
  };

  app.disable('x-powered-by');
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (http/client.ts).
  app.set('trust proxy', deps.trustProxy ?? false);
  // Probes come before the request log (a load balancer asks every few seconds).
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks: Record<string, string> = {};
    let ready = !ctx.draining;
    if (ctx.draining) checks.server = 'stopping';
    for (const [name, check] of Object.entries(ctx.readiness)) {
      try {
        checks[name] = await check();
      } catch (err) {
        ready = false;
        checks[name] = `failing: ${(err as Error)?.message ?? String(err)}`;
      }
    }
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ready' : 'not ready', checks });
  });
  app.use((req, res, next) => {
    if (!logger.isLevelEnabled('info')) return next();
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      logger.info(
        { method: req.method, path: req.originalUrl, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  });
  // Pages get a per-response nonce for the scripts a game's form may carry;
  // the JSON API serves no script at all.
  // The same headers helmet sets, fixed once (the API is the hot path).
  const apiHeaderList: [string, string][] = [
    ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Origin-Agent-Cluster', '?1'],
    ['Referrer-Policy', 'no-referrer'],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-DNS-Prefetch-Control', 'off'],
    ['X-Download-Options', 'noopen'],
    ['X-Frame-Options', 'SAMEORIGIN'],
    ['X-Permitted-Cross-Domain-Policies', 'none'],
    ['X-XSS-Protection', '0'],
  ];
  const apiHeaders = (_req: Request, res: Response, next: NextFunction) => {
    for (const [k, v] of apiHeaderList) res.setHeader(k, v);
    next();
  };
  const pageHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Plain-http local installs are normal here; do not pin HTTPS.
    strictTransportSecurity: false,
    // No Referer (with its key) to other sites; to this one, so that browsers send the real Origin
    // with our own forms (under no-referrer they send "null", which http/client.ts must refuse).
    referrerPolicy: { policy: 'same-origin' },
  });
  // Nearly every page is somebody's (a key in the path, a hand, an outbox): no cache keeps a copy.
  const noStore = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  const withNonce = (_req: Request, res: Response, next: NextFunction) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    next();
  };
  // With PostgreSQL a client's POSTs count once across every process (http/pg-rate-limit.ts);
  // the counts not yet in the table are sent before the store closes.
  const postCounts = shared ? new PgRateLimitStore(shared.pool) : null;
  if (postCounts) onClose.push(() => postCounts.shutdown());
  const limiter = rateLimit({
    windowMs: deps.postLimit?.windowMs ?? 60_000,
    limit: deps.postLimit?.limit ?? 300,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(postCounts ? { store: postCounts } : {}),
    // Counted by req.ip: the real client behind a proxy named in TRUST_PROXY. Without one, forwarded
    // headers are ignored on purpose (http/client.ts), so the library's warning about them is off.
    validate: { xForwardedForHeader: false },
    handler: (req, res) =>
      sendError(req, res, 429, 'Too many requests from your address; wait a minute and try again.', ctx),
  });
  const postLimit = (req: Request, res: Response, next: NextFunction) =>
    req.method === 'POST' ? limiter(req, res, next) : next();
  const sameSite = sameSiteOnly(links.baseUrl, (req, res, from) =>
    sendError(
      req,
      res,
      403,
      `Refused: this request was sent from ${from}, not from a page of this server. Another site can make your ` +
        'browser send forms here (to start games or send invitations in your name), so changes are taken only ' +
        `from this server's own pages. If you meant it, open ${links.baseUrl}/ and do it there.`,
      ctx,
    ),
  );
  // Bodies nested deeper than any real request are refused before anything walks them.
  const jsonBody = express.json({ limit: BODY_LIMIT, verify: (_req, _res, buf) => checkNesting(buf) });
  const formBody = express.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: 200 });
  const api = apiRouter(ctx);
  const pages = pagesRouter(ctx);
  // The move routes, most of what the server does, go straight to their handlers through the
  // same steps as below (http/move-path.ts).
  app.use(
    movePath({
      api: [noStore, apiHeaders],
      page: [noStore, withNonce, pageHeaders],
      // A plain JSON body is read without body-parser (http/json-body.ts); any other goes to both parsers.
      post: [postLimit, sameSite, plainJsonBody(BODY_LIMIT, (text) => checkNesting(text), [jsonBody, formBody])],
      apiMove: apiMove(ctx),
      pageMove: pages.playMove,
    }),
  );
  app.use((req, res, next) =>
    noStore(req, res, () => {
      if (req.path.startsWith('/api/')) return apiHeaders(req, res, next);
      return withNonce(req, res, () => pageHeaders(req, res, next));
    }),
  );
  app.use(postLimit);
  app.use(sameSite);
  // The 18xx.games import takes large bodies (its own 5 MB parsers), so it comes before the 64 kB ones.
  app.use(importRouter(ctx, { ...DEFAULT_IMPORT_LIMITS, ...deps.importLimits }));
  app.use(jsonBody);
  app.use(formBody);
  app.use(
    creationQuotas(
      { ...DEFAULT_QUOTAS, ...deps.quotas },
      now,
      (req, res, message) => sendError(req, res, 429, message, ctx),
      shared?.pool ?? null,
    ),
  );

  // The pages' scripts (built by `npm run build:web`); pages work without them.
  app.use('/static', express.static(WEB_DIR, { index: false, redirect: false, maxAge: '5m' }));
  // Version 1 of the JSON API, and the same at the paths it had before versions.
  app.use('/api/v1', api);
  app.use('/api', api);
  app.use('/', ordersRouter(ctx));
  app.use('/', pages);
  for (const plugin of deps.plugins ?? []) await plugin(ctx);

  app.use((req, res) => sendError(req, res, 404, 'There is nothing here. The link may be mistyped or retired.', ctx));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const e = err as { type?: string; status?: number; message?: string };
    if (err instanceof ServiceError) return sendError(req, res, err.status, err.message, ctx);
    if (e?.type === 'entity.parse.failed') return sendError(req, res, 400, 'The request body is not valid JSON.', ctx);
    if (e?.type === 'entity.too.large') return sendError(req, res, 413, 'The request is too large.', ctx);
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      return sendError(req, res, e.status, 'The request could not be read.', ctx);
    }
    logger.error({ path: req.originalUrl, err: String(e?.message ?? err) }, 'server error');
    return sendError(req, res, 500, 'Something went wrong on the server; nothing was changed by this request.', ctx);
  });
  return ctx;
}

/**
 * Quotas on creating games (POST /new, /api/games): per client address (req.ip, the real client
 * behind a trusted proxy) an hour, and per organiser address a day, so one client cannot fill the
 * home page or the mail queue.
 */
function creationQuotas(
  q: QuotaSettings,
  now: () => Date,
  refuse: (req: Request, res: Response, message: string) => void,
  pool: PgPool | null,
) {
  const clock = () => now().getTime();
  // With PostgreSQL the processes count together (pg-quota.ts); otherwise in memory.
  const quota = (name: string, limit: number, windowMs: number): QuotaCounter =>
    pool ? new PgQuota(pool, name, limit, windowMs, clock) : new Quota(limit, windowMs, clock);
  const perClient = quota('creates-per-client', q.createsPerClientPerHour, 3600_000);
  const perAddress = quota('creates-per-address', q.createsPerAddressPerDay, 86_400_000);
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || (req.path !== '/new' && req.path !== '/api/games')) return next();
    const email = (req.body as { email?: unknown } | undefined)?.email;
    if (!(await perClient.take(req.ip ?? '')))
      return refuse(
        req,
        res,
        `Your address has created ${q.createsPerClientPerHour} games this hour; please wait a while.`,
      );
    if (typeof email === 'string' && !(await perAddress.take(email.trim().toLowerCase())))
      return refuse(
        req,
        res,
        `${q.createsPerAddressPerDay} games a day can be set up for one address; please try tomorrow.`,
      );
    next();
  };
}

export function sendError(req: Request, res: Response, status: number, message: string, ctx: AppContext): void {
  if (res.headersSent) return;
  res.status(status);
  if (req.originalUrl.startsWith('/api/') || req.originalUrl === '/api') {
    res.json({ error: message });
    return;
  }
  try {
    res.type('html').send(
      ctx.renderer.page('error', {
        title: status === 404 ? 'Not found' : status === 410 ? 'Seat given up' : 'Problem',
        status,
        message,
      }),
    );
  } catch {
    res.type('text').send(message);
  }
}

export interface RunningServer {
  url: string;
  server: Server;
  ctx: AppContext;
  /** Graceful stop: requests in flight get up to graceMs (default 0: cut at once, as tests want). */
  stop(graceMs?: number): Promise<void>;
}

/** Listens (port 0 picks a free port) and returns the base URL. */
export async function startServer(
  deps: Omit<AppDeps, 'baseUrl'> & { baseUrl?: string; port?: number; host?: string },
): Promise<RunningServer> {
  const host = deps.host ?? '127.0.0.1';
  // Listen first so the base URL can carry the port that was picked; requests
  // that arrive while the app is being made wait for it.
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const early: [IncomingMessage, ServerResponse][] = [];
  // Responses in flight, for a graceful stop.
  const inFlight = new Set<ServerResponse>();
  let onIdle: (() => void) | null = null;
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) onIdle?.();
    });
    if (holder.ctx?.draining) res.setHeader('Connection', 'close');
    if (handler) handler(req, res);
    else early.push([req, res]);
  });
  const holder: { ctx: AppContext | null } = { ctx: null };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // Without a base URL the links name this machine as a browser on it would reach it.
  const url = deps.baseUrl ?? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  const ctx = await createApp({ ...deps, baseUrl: url }).catch((err) => {
    server.close();
    throw err;
  });
  holder.ctx = ctx;
  handler = ctx.app;
  for (const [req, res] of early.splice(0)) ctx.app(req, res);
  // Idle keep-alive connections stay open a minute (clients that pause must not hit a closing socket).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return {
    url,
    server,
    ctx,
    async stop(graceMs = 0) {
      // Stop accepting; idle keep-alive connections go now, busy ones after their response.
      ctx.draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      if (inFlight.size > 0 && graceMs > 0) {
        await new Promise<void>((resolve) => {
          onIdle = resolve;
          setTimeout(resolve, graceMs).unref();
        });
      }
      // What the grace period did not see finish is cut; its writes are flushed below all the same.
      server.closeAllConnections();
      await closed;
      await ctx.close();
    },
  };
}
