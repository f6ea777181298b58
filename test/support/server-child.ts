// A server process for crash tests and benches: `tsx test/support/server-child.ts`
// with DATA_DIR (required), PORT (0), LOG_LEVEL (silent). Serves the small test
// game (and, with REGISTRY=all, every registered game); prints one JSON line
// { url } on stdout once listening. With SMTP_URL, mail is on and goes there (no reminder
// cron; MAIL_COMPOSE_THREADS as the server reads it): the embedded mail bench.
process.env.UV_THREADPOOL_SIZE ??= '16';
const { pino } = await import('pino');
const { startServer } = await import('../../server/app.ts');
const { highCard } = await import('./high-card.ts');
const games = process.env.REGISTRY === 'all' ? (await import('../../rules/index.ts')).games : [];

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is required');
const running = await startServer({
  dataDir,
  registry: [highCard, ...games],
  port: Number(process.env.PORT ?? 0),
  host: '127.0.0.1',
  logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  postLimit: { windowMs: 60_000, limit: 10_000_000 },
  // Crash tests and benches create many games from one address.
  quotas: { createsPerClientPerHour: 1e9, createsPerAddressPerDay: 1e9 },
  importLimits: { perClientPerHour: 1e9 },
  plugins: process.env.SMTP_URL
    ? [
        (await import('../../server/mail/plugin.ts')).mailPlugin({
          env: { SMTP_URL: process.env.SMTP_URL, MAIL_COMPOSE_THREADS: process.env.MAIL_COMPOSE_THREADS },
          cron: false,
          queue: { baseDelayMs: 200, maxDelayMs: 1000 },
        }),
      ]
    : [],
});
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
export {};
