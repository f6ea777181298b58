// Mail, wired together: the persisted queue, the transport (SMTP_URL or the
// outbox), the composer that renders queued specs, the event listener that
// queues them, and the router for preferences, unsubscribe and /outbox.
//
//   const mailer = createMailer({ service, dataDir, config: readConfig(process.env).mail });
//   await mailer.start();            // loads the queue, subscribes to game events
//   app.use(mailer.router);          // /mail/prefs/<key>, /mail/unsubscribe/<key>, /outbox
//   await mailer.stop();
import { Quota } from '../quota.ts';
import { PgQuota } from '../pg-quota.ts';
import { join } from 'node:path';
import type { Router } from 'express';
import type { GameService } from '../service.ts';
import { MailQueue, type MailQueueApi, type MailQueueOptions, type MailSpec, type MailTransport } from './queue.ts';
import { PgMailQueue } from './pg-queue.ts';
import { PgMailCursor } from './pg-cursor.ts';
import { pgStoreOf } from '../store/types.ts';
import { transportFor } from './transport.ts';
import { MailComposer } from './compose.ts';
import { MailRenderer, DEFAULT_TEMPLATES_DIR } from './render.ts';
import { processPicturePool } from './picture-pool.ts';
import { ComposePool, MAIN_THREAD_KINDS } from './compose-pool.ts';
import { games } from '../../rules/index.ts';
import { LowdbGameStore } from '../store/lowdb-store.ts';
import { DigestBook, type DigestBookApi } from './digest.ts';
import { PgDigestBook } from './pg-digest.ts';
import { createMailNotifier } from './notifier.ts';
import { createMailRouter } from './routes.ts';
import { mailId, type OutgoingMail } from './message.ts';
import { MailCursor, type MailCursorApi } from './cursor.ts';
import { ReplyDesk } from './inbound/desk.ts';
import { inboundRouter } from './inbound/http.ts';
import { replyRoutes } from './inbound/routes.ts';
import { startInboundSmtp, type InboundSmtp } from './inbound/smtp.ts';
import { PageRenderer } from '../render.ts';
import { type Env, type MailConfig, readConfig } from '../config.ts';

export interface MailerOptions {
  service: GameService;
  dataDir: string;
  /** The mail settings (server/config.ts); without them, `env` read through the same schema (tests), else the defaults. */
  config?: MailConfig;
  env?: Env;
  /** Overrides the transport the environment would choose (tests). */
  transport?: MailTransport;
  queue?: Partial<Omit<MailQueueOptions, 'dir' | 'transport' | 'compose'>>;
  templatesDir?: string;
  /** The app's page renderer, for the preference, unsubscribe and outbox pages (default: one of its own). */
  pages?: PageRenderer;
  /** The game clock (ms). */
  now?: () => number;
  /** false: rasterise every board afresh instead of reusing a recent identical one (benchmarks). */
  pngCache?: boolean;
  log?: (event: Record<string, unknown>) => void;
  /** DNS for the replies' DKIM/SPF/DMARC checks (tests); default: the system's. */
  dnsResolver?: (name: string, type: string) => Promise<unknown>;
  /**
   * With the PostgreSQL store: how often this process hears again the entries past the shared
   * mail cursor (pg-cursor.ts), so mail of a process that died is queued by another (default 10 s).
   */
  reconcileEveryMs?: number;
}

export interface Mailer {
  queue: MailQueueApi;
  composer: MailComposer;
  /** The compose workers (null: mails are composed on the event loop). */
  composePool: ComposePool | null;
  router: Router;
  /** The event listener (subscribed by start()). */
  notifier: ReturnType<typeof createMailNotifier>;
  /** The reply desk (null without MAIL_DOMAIN). */
  desk: ReplyDesk | null;
  /** The port the SMTP listener for replies took (null: none). */
  readonly inboundSmtpPort: number | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** "Name <addr@host>" or "addr@host" -> host; falls back to BASE_URL's host. */
export function mailDomain(from: string, baseUrl: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  if (m) return m[1]!;
  try {
    return new URL(baseUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

export function createMailer(o: MailerOptions): Mailer {
  const config = o.config ?? readConfig(o.env ?? {}).mail;
  const baseUrl = o.service.links.baseUrl;
  const defaultHost = (() => {
    try {
      const h = new URL(baseUrl).hostname;
      return h.includes('.') ? h : `${h}.localdomain`;
    } catch {
      return 'localhost.localdomain';
    }
  })();
  const from = config.mailFrom ?? `Share Games <games@${defaultHost}>`;
  const domain = mailDomain(from, baseUrl);
  const mailDir = join(o.dataDir, 'mail');
  // With the PostgreSQL store the digest book is in the database, shared by every process.
  const pgStore = pgStoreOf(o.service.store);
  const digest: DigestBookApi = pgStore ? new PgDigestBook(pgStore.pool) : new DigestBook(mailDir);
  // The pictures are drawn on worker threads (MAIL_PICTURE_THREADS; 0: on the event loop), the
  // process's own (a mailer that stops leaves them to the next).
  const pictures = config.pictureThreads > 0 ? processPicturePool(config.pictureThreads) : null;
  const renderer = new MailRenderer(
    o.templatesDir ?? DEFAULT_TEMPLATES_DIR,
    pictures ? (svg, opts, route) => pictures.draw(svg, opts, route) : undefined,
  );
  const composer = new MailComposer({
    service: o.service,
    renderer,
    from,
    domain,
    digest,
    pngCache: o.pngCache,
    replyDomain: config.mailDomain,
  });
  const transport = o.transport ?? transportFor(config.smtpUrl, o.dataDir, { dkim: config.dkim });
  // With the PostgreSQL store the queue and the cursor are in the database too, shared by
  // every process (pg-queue.ts, pg-cursor.ts); otherwise files in DATA_DIR/mail.
  const store = o.service.store;
  const shared = pgStoreOf(store);
  const pool = composePool(o, config, { from, domain }, (spec, key) => composer.compose(spec, key));
  const compose = (spec: MailSpec, key: string) =>
    pool && !MAIN_THREAD_KINDS.has(spec.type) ? pool.composeSpec(spec, key) : composer.compose(spec, key);
  // With compose workers, more mails at once: each worker has the next one in hand while the
  // main thread sends and records the one before.
  const concurrency = pool ? 2 + 2 * config.composeThreads : undefined;
  const queue: MailQueueApi = shared
    ? new PgMailQueue({ pool: shared.pool, transport, compose, log: o.log, concurrency, ...o.queue })
    : new MailQueue({ dir: mailDir, transport, compose, log: o.log, concurrency, ...o.queue });
  const cursor: MailCursorApi = shared ? new PgMailCursor(shared.pool) : new MailCursor(join(mailDir, 'cursor.json'));
  const notifier = createMailNotifier({
    service: o.service,
    queue,
    digest,
    cursor,
    digestHourUtc: config.digestHour,
    inviteQuota: shared
      ? new PgQuota(shared.pool, 'invites-per-address', config.invitesPerAddressPerDay, 86_400_000, o.now ?? Date.now)
      : new Quota(config.invitesPerAddressPerDay, 86_400_000, o.now ?? Date.now),
    log: o.log,
  });
  const router = createMailRouter({
    service: o.service,
    pages: o.pages ?? new PageRenderer(o.templatesDir ?? DEFAULT_TEMPLATES_DIR),
    digest,
    defaultDigestHour: config.digestHour,
    outboxDir: config.smtpUrl ? null : join(o.dataDir, 'outbox'),
    outboxPublic: config.outboxPublic,
    onPrefChanged: (gameId, seat) => notifier.prefChanged(gameId, seat, new Date((o.now ?? Date.now)()).toISOString()),
    now: o.now ?? Date.now,
    // One list an hour per address, however often it is asked for.
    requestGamesList: async (email) => {
      const hour = new Date((o.now ?? Date.now)()).toISOString().slice(0, 13);
      await queue.enqueueSpec(`mygames:${mailId(email.toLowerCase())}:${hour}`, { type: 'mygames', email });
    },
  });
  // Replies by mail: the desk both ways in hand their messages to (inbound/desk.ts).
  const desk = config.mailDomain
    ? new ReplyDesk({
        service: o.service,
        queue,
        domain: config.mailDomain,
        auth: config.inbound.auth,
        maxBytes: config.inbound.maxBytes,
        perSenderPerHour: config.inbound.perSenderPerHour,
        resolver: o.dnsResolver,
        log: o.log,
      })
    : null;
  if (desk && config.inbound.secret) router.use(inboundRouter({ desk, secret: config.inbound.secret, log: o.log }));
  if (config.mailDomain) router.use(replyRoutes(o.service, config.mailDomain));
  let smtpIn: InboundSmtp | null = null;
  let unsubscribe: (() => void) | null = null;
  let reconciling: NodeJS.Timeout | null = null;
  let lastReconcile: Promise<unknown> = Promise.resolve();
  const reconcileAgain = () => {
    reconciling = setTimeout(() => {
      lastReconcile = notifier
        .reconcile(false)
        .catch((err) => o.log?.({ msg: 'mail reconcile failed', err: String((err as Error)?.message ?? err) }))
        .finally(() => {
          if (reconciling) reconcileAgain();
        });
    }, o.reconcileEveryMs ?? 10_000);
    reconciling.unref?.();
  };
  return {
    queue,
    composer,
    composePool: pool,
    router,
    notifier,
    desk,
    get inboundSmtpPort() {
      return smtpIn?.port ?? null;
    },
    async start() {
      pool?.warm();
      await queue.start();
      const known = await cursor.load();
      unsubscribe = o.service.on(notifier);
      if (desk && config.inbound.smtpPort !== undefined)
        smtpIn = await startInboundSmtp(desk, {
          port: config.inbound.smtpPort,
          host: config.inbound.smtpHost,
          tls: config.inbound.tls,
          log: o.log,
        });
      // Mail for writes whose events died with the process (crash recovery: server/mail/cursor.ts).
      try {
        const opened = await notifier.reconcile(!known);
        o.log?.({ msg: 'mail reconciled', opened, fresh: !known });
      } catch (err) {
        o.log?.({ msg: 'mail reconcile failed', err: String((err as Error)?.message ?? err) });
      }
      if (shared) reconcileAgain();
    },
    async stop() {
      await smtpIn?.close();
      smtpIn = null;
      unsubscribe?.();
      unsubscribe = null;
      if (reconciling) clearTimeout(reconciling);
      reconciling = null;
      await lastReconcile;
      await cursor.save();
      await queue.stop();
      await pool?.close();
    },
  };
}

/**
 * The compose workers (MAIL_COMPOSE_THREADS), or null to compose on the event loop: also when a
 * worker could not read the games as this service does (a store other than the two, links made
 * without their makings, a registry without any of the server's rules). A game of rules only
 * this service has (a test's own game) is composed here (the worker says so).
 * The queue claims and sends as before; a worker only composes (compose-pool.ts).
 */
function composePool(
  o: MailerOptions,
  config: MailConfig,
  envelope: { from: string; domain: string },
  here: (spec: MailSpec, key: string) => Promise<OutgoingMail | null>,
) {
  const makings = o.service.links.makings?.();
  if (config.composeThreads <= 0 || !makings) return null;
  // A worker has the server's rules; a service with none of them (a test's own game) composes here.
  if (!o.service.registry.some((r) => games.includes(r))) return null;
  const store = o.service.store;
  const pg = pgStoreOf(store);
  const files = store instanceof LowdbGameStore ? store : null;
  if (!pg && !files) return null;
  const pool = new ComposePool({
    threads: config.composeThreads,
    here,
    init: {
      store: files
        ? { kind: 'files', gamesDir: files.files.gamesDir, snapshotsDir: files.files.snapshotsDir }
        : { kind: 'pg', url: String(pg!.pool.options.connectionString), schema: pg!.schema },
      links: makings,
      templatesDir: o.templatesDir,
      ...envelope,
      replyDomain: config.mailDomain,
      pngCache: o.pngCache,
    },
  });
  return Object.assign(pool, {
    // The embedded store's position of the game, taken as the job is handed over (compose-reader.ts).
    composeSpec: (spec: MailSpec, key: string) =>
      pool.compose(
        spec,
        key,
        files && typeof spec.gameId === 'string' ? () => files.captured(spec.gameId as string) : undefined,
      ),
  });
}
