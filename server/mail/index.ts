// Mail, wired together: the persisted queue, the transport (SMTP_URL or the
// outbox), the composer that renders queued specs, the event listener that
// queues them, and the router for preferences, unsubscribe and /outbox.
//
//   const mailer = createMailer({ service, dataDir, env: process.env });
//   await mailer.start();            // loads the queue, subscribes to game events
//   app.use(mailer.router);          // /mail/prefs/<key>, /mail/unsubscribe/<key>, /outbox
//   await mailer.stop();
import { Quota, quotasFromEnv } from '../quota.ts';
import { join } from 'node:path';
import type { Router } from 'express';
import type { GameService } from '../service.ts';
import { MailQueue, type MailQueueOptions, type MailTransport } from './queue.ts';
import { transportFromEnv } from './transport.ts';
import { MailComposer } from './compose.ts';
import { MailRenderer, DEFAULT_TEMPLATES_DIR } from './render.ts';
import { DigestBook } from './digest.ts';
import { createMailNotifier } from './notifier.ts';
import { createMailRouter } from './routes.ts';

export interface MailEnv {
  SMTP_URL?: string;
  MAIL_FROM?: string;
  BASE_URL?: string;
  DIGEST_HOUR?: string;
  OUTBOX_PUBLIC?: string;
  /** Invitations one address may receive a day (default 5; server/quota.ts). */
  QUOTA_INVITES_PER_ADDRESS_DAY?: string;
}

export interface MailerOptions {
  service: GameService;
  dataDir: string;
  env?: MailEnv;
  /** Overrides the transport the environment would choose (tests). */
  transport?: MailTransport;
  queue?: Partial<Omit<MailQueueOptions, 'dir' | 'transport' | 'compose'>>;
  templatesDir?: string;
  /** The game clock (ms), for the restart reconciliation window. */
  now?: () => number;
  /** Games changed this recently before start() get their current mail re-queued (idempotent). Default 15 min. */
  reconcileWindowMs?: number;
  /** false: rasterise every board afresh instead of reusing a recent identical one (benchmarks). */
  pngCache?: boolean;
  log?: (event: Record<string, unknown>) => void;
}

export interface Mailer {
  queue: MailQueue;
  composer: MailComposer;
  router: Router;
  /** The event listener (subscribed by start()). */
  notifier: ReturnType<typeof createMailNotifier>;
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
  const env = o.env ?? {};
  const baseUrl = o.service.links.baseUrl;
  const defaultHost = (() => {
    try {
      const h = new URL(baseUrl).hostname;
      return h.includes('.') ? h : `${h}.localdomain`;
    } catch {
      return 'localhost.localdomain';
    }
  })();
  const from = env.MAIL_FROM || `Share Games <games@${defaultHost}>`;
  const domain = mailDomain(from, baseUrl);
  const mailDir = join(o.dataDir, 'mail');
  const digest = new DigestBook(mailDir);
  const renderer = new MailRenderer(o.templatesDir ?? DEFAULT_TEMPLATES_DIR);
  const composer = new MailComposer({ service: o.service, renderer, from, domain, digest, pngCache: o.pngCache });
  const transport = o.transport ?? transportFromEnv(env, o.dataDir);
  const queue = new MailQueue({
    dir: mailDir,
    transport,
    compose: (spec, key) => composer.compose(spec, key),
    log: o.log,
    ...o.queue,
  });
  const digestHour = Number(env.DIGEST_HOUR ?? 7);
  const notifier = createMailNotifier({
    service: o.service,
    queue,
    digest,
    digestHourUtc: Number.isInteger(digestHour) && digestHour >= 0 && digestHour < 24 ? digestHour : 7,
    inviteQuota: new Quota(
      quotasFromEnv(env as Record<string, string | undefined>).invitesPerAddressPerDay,
      86_400_000,
      o.now ?? Date.now,
    ),
    log: o.log,
  });
  const router = createMailRouter({
    service: o.service,
    digest,
    defaultDigestHour: Number.isInteger(digestHour) && digestHour >= 0 && digestHour < 24 ? digestHour : 7,
    outboxDir: env.SMTP_URL ? null : join(o.dataDir, 'outbox'),
    outboxPublic: env.OUTBOX_PUBLIC === '1' || env.OUTBOX_PUBLIC === 'true',
    onPrefChanged: (gameId, seat) => notifier.prefChanged(gameId, seat, new Date((o.now ?? Date.now)()).toISOString()),
  });
  let unsubscribe: (() => void) | null = null;
  return {
    queue,
    composer,
    router,
    notifier,
    async start() {
      await queue.start();
      unsubscribe = o.service.on(notifier);
      // Mail for writes that landed just before a crash (their events were lost with the process).
      try {
        await notifier.reconcile((o.now ?? Date.now)(), o.reconcileWindowMs ?? 15 * 60_000);
      } catch (err) {
        o.log?.({ msg: 'mail reconcile failed', err: String((err as Error)?.message ?? err) });
      }
    },
    async stop() {
      unsubscribe?.();
      unsubscribe = null;
      await queue.stop();
    },
  };
}
