// The mailer (server/mail) of a test service, sending to a loopback SMTP sink
// (test/mail/smtp.ts): what the mail, recovery and scheduler suites that run no
// HTTP server share. A mailer can be stopped and a new one started on the same
// data folder, as a process that died (or restarted) and came back.
//
//   let t: TestService; let m: TestMailer;
//   beforeEach(async () => { t = await makeService(); m = await startTestMailer(t); });
//   afterEach(async () => { await m.close(); await t.cleanup(); });
//   ... await m.settle(); m.smtp.received ...; await m.stop(); await m.start(); // a restart
import type { Env } from '../../server/config.ts';
import { createMailer, type Mailer, type MailerOptions } from '../../server/mail/index.ts';
import { smtpTransport } from '../../server/mail/transport.ts';
import type { GameService } from '../../server/service.ts';
import { startSmtp, type TestSmtp } from '../mail/smtp.ts';
import type { TestService } from './service.ts';

export interface TestMailer {
  smtp: TestSmtp;
  /** The mailer running now (each start makes a new one). */
  readonly mailer: Mailer;
  /**
   * Starts a new mailer on the data folder (after stop(): a restart), for `service` (default: the
   * test's), on the fake clock or real time (default: as the options said).
   */
  start(o?: { service?: GameService; fakeClock?: boolean }): Promise<Mailer>;
  /** Stops the running mailer (the process dies or stops; its queue and cursor stay on disk). */
  stop(): Promise<void>;
  /** Waits until the service's listeners ran and the queue has sent everything due. */
  settle(): Promise<void>;
  /** Stops the mailer and the SMTP sink. */
  close(): Promise<void>;
}

export interface TestMailerOptions {
  /** The mailer's clock is the test service's fake clock (default: real time). */
  fakeClock?: boolean;
  env?: Env;
  log?: MailerOptions['log'];
}

/** A loopback SMTP sink and a started mailer for `t`. */
export async function startTestMailer(t: TestService, o: TestMailerOptions = {}): Promise<TestMailer> {
  const smtp = await startSmtp();
  let current: Mailer | null = null;
  let service = t.service;
  const m: TestMailer = {
    smtp,
    get mailer() {
      if (!current) throw new Error('no mailer is running');
      return current;
    },
    async start({ service: svc = t.service, fakeClock = o.fakeClock } = {}) {
      service = svc;
      current = createMailer({
        service: svc,
        dataDir: t.dataDir,
        env: { MAIL_FROM: 'Games <games@example.test>', ...o.env },
        transport: smtpTransport(`${smtp.url}?pool=true`),
        queue: { baseDelayMs: 20, maxDelayMs: 100 },
        ...(fakeClock ? { now: () => t.clock.now().getTime() } : {}),
        ...(o.log ? { log: o.log } : {}),
      });
      await current.start();
      return current;
    },
    async stop() {
      await current?.stop();
      current = null;
    },
    async settle() {
      await service.settled();
      await m.mailer.queue.idle();
    },
    async close() {
      await m.stop();
      await smtp.close();
    },
  };
  await m.start();
  return m;
}
