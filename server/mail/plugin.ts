// The app plugin that adds mail and reminders to the server (see app.ts):
//   createApp({ ..., plugins: [mailPlugin({ config: config.mail })] })
// It builds the mailer (queue + transport from SMTP_URL, or the outbox), mounts
// its routes (/mail/prefs, /mail/unsubscribe, /outbox), subscribes to game
// events, and runs the reminder job on REMINDER_CRON. Shutdown is registered
// in ctx.onClose.
import type { AppContext, AppPlugin } from '../app.ts';
import { type Env, type MailConfig, readConfig } from '../config.ts';
import { createMailer, type Mailer, type MailerOptions } from './index.ts';
import { ReminderJob, startReminderCron } from '../scheduler/reminders.ts';
import type { MailTransport } from './queue.ts';

export interface MailPluginOptions {
  /** The mail settings (server/config.ts); without them, `env` read through the same schema (tests), else the defaults. */
  config?: MailConfig;
  env?: Env;
  transport?: MailTransport;
  /** DNS for the replies' DKIM/SPF/DMARC checks (tests). */
  dnsResolver?: MailerOptions['dnsResolver'];
  queue?: MailerOptions['queue'];
  /** false: no cron (tests tick the job themselves). Default: the config's REMINDER_CRON. */
  cron?: string | false;
  /** With the PostgreSQL store: how often this process reconciles the shared mail cursor (default 10 s). */
  reconcileEveryMs?: number;
  /** Receives the mailer and the job once built (tests, the CLI). */
  onReady?: (parts: { mailer: Mailer; reminders: ReminderJob; ctx: AppContext }) => void;
}

export function mailPlugin(opts: MailPluginOptions = {}): AppPlugin {
  return async (ctx) => {
    const config = opts.config ?? readConfig(opts.env ?? {}).mail;
    const log = (event: Record<string, unknown>) => ctx.logger.info(event, String(event.msg ?? 'mail'));
    const mailer = createMailer({
      service: ctx.service,
      dataDir: ctx.dataDir,
      pages: ctx.renderer,
      config,
      transport: opts.transport,
      dnsResolver: opts.dnsResolver,
      queue: opts.queue,
      log,
      now: () => ctx.now().getTime(),
      reconcileEveryMs: opts.reconcileEveryMs,
    });
    ctx.app.use(mailer.router);
    if (config.mailDomain && mailer.desk) ctx.replyDomain = config.mailDomain;
    // Ready as soon as a transport is configured: a mail server that is down only delays
    // mail (the queue keeps it), it does not stop games.
    const transportName = opts.transport ? 'custom' : config.smtpUrl ? 'smtp' : 'outbox';
    ctx.readiness.mail = async () => {
      const st = mailer.queue.stats();
      // Since this process started: what left the queue (sent, or skipped as no longer relevant).
      return `${transportName}, ${st.pending} waiting, ${st.sent} sent, ${st.skipped} skipped`;
    };
    await mailer.start();
    const reminders = new ReminderJob({
      service: ctx.service,
      queue: mailer.queue,
      now: () => ctx.now().getTime(),
      log,
    });
    const cronExpr = opts.cron ?? config.reminderCron;
    const task = cronExpr === false ? null : startReminderCron(reminders, cronExpr);
    ctx.onClose.push(async () => {
      await task?.stop();
      await task?.destroy();
      await mailer.stop();
    });
    opts.onReady?.({ mailer, reminders, ctx });
  };
}
