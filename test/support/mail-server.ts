// The set-up every mail suite that runs a real server shares: a loopback SMTP
// sink (test/mail/smtp.ts), a test server (server.ts) with the mail plugin
// sending to it, and the mailer the plugin built.
//
//   let m: MailTestServer;
//   beforeEach(async () => (m = await startMailServer({ replies: true })));
//   afterEach(() => m.stop());
//   ... m.srv.createGame(...); await m.settle(); m.smtp.received ...
import type { AnyRules } from '../../rules/types.ts';
import type { Env } from '../../server/config.ts';
import type { Mailer } from '../../server/mail/index.ts';
import { mailPlugin, type MailPluginOptions } from '../../server/mail/plugin.ts';
import { smtpTransport } from '../../server/mail/transport.ts';
import { startSmtp, type TestSmtp } from '../mail/smtp.ts';
import { highCard } from './high-card.ts';
import { startTestServer, type TestServer, type TestServerOptions } from './server.ts';

export interface MailTestServer {
  smtp: TestSmtp;
  srv: TestServer;
  mailer: Mailer;
  /** Waits until the service's listeners ran and the queue has sent everything due. */
  settle(): Promise<void>;
  /** Stops the server, and the SMTP sink unless it was handed in. */
  stop(): Promise<void>;
}

export interface MailTestServerOptions {
  /** Default: the small test game. */
  registry?: AnyRules[];
  /** The reply addresses (MAIL_DOMAIN play.example.test) and the SMTP listener for replies on a free port. */
  replies?: boolean;
  /** More settings (they win over the defaults); a function gets the SMTP sink (for SMTP_URL). */
  env?: Env | ((smtp: TestSmtp) => Env);
  /** Send through the configuration's own transport (SMTP_URL in env) instead of a plain one to the sink. */
  configuredTransport?: boolean;
  /** An SMTP sink to keep using (a second server in one test); it is then not closed by stop(). */
  smtp?: TestSmtp;
  dnsResolver?: MailPluginOptions['dnsResolver'];
  queue?: MailPluginOptions['queue'];
  /** The rest of the test server's options (clock, data folder...). */
  server?: Omit<TestServerOptions, 'registry' | 'plugins'>;
}

export const REPLY_DOMAIN = 'play.example.test';

export async function startMailServer(o: MailTestServerOptions = {}): Promise<MailTestServer> {
  const smtp = o.smtp ?? (await startSmtp());
  const extra = typeof o.env === 'function' ? o.env(smtp) : (o.env ?? {});
  let mailer: Mailer | undefined;
  const srv = await startTestServer({
    ...o.server,
    registry: o.registry ?? [highCard],
    plugins: [
      mailPlugin({
        env: {
          MAIL_FROM: 'Share Games <games@example.test>',
          ...(o.replies ? { MAIL_DOMAIN: REPLY_DOMAIN, SMTP_INBOUND_PORT: '0', SMTP_INBOUND_HOST: '127.0.0.1' } : {}),
          ...extra,
        },
        ...(o.configuredTransport ? {} : { transport: smtpTransport(`${smtp.url}?pool=true`) }),
        dnsResolver: o.dnsResolver,
        cron: false,
        queue: o.queue ?? { baseDelayMs: 20, maxDelayMs: 100 },
        onReady: (p) => (mailer = p.mailer),
      }),
    ],
  });
  if (!mailer) throw new Error('the mail plugin did not start');
  const m = mailer;
  return {
    smtp,
    srv,
    mailer: m,
    async settle() {
      await srv.service.settled();
      await m.queue.idle();
    },
    async stop() {
      await srv.stop();
      if (!o.smtp) await smtp.close();
    },
  };
}
