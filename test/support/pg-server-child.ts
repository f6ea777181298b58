// A server process on a shared PostgreSQL database, for the several-process
// test: `tsx test/support/pg-server-child.ts` with TEST_DATABASE_URL, PG_SCHEMA,
// SMTP_URL and DATA_DIR (its own), GAMES=all for the real games besides the small test game. Serves the small test game with mail on (MAIL=off: none, for benches)
// (reconciling the shared mail cursor every RECONCILE_MS) and no cron: the
// parent ticks the reminder job over IPC ({ tick: true, skewMs }), on a clock
// skewMs ahead of the real one. Prints one JSON line { url } once listening.
process.env.UV_THREADPOOL_SIZE ??= '16';
const { pino } = await import('pino');
const { startServer } = await import('../../server/app.ts');
const { mailPlugin } = await import('../../server/mail/plugin.ts');
const { PgGameStore } = await import('../../server/store/pg-store.ts');
const { highCard } = await import('./high-card.ts');
const { games } = await import('../../rules/index.ts');
type ReminderJob = import('../../server/scheduler/reminders.ts').ReminderJob;

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
let skew = 0;
let reminders: ReminderJob | null = null;
const store = new PgGameStore({ url: env('TEST_DATABASE_URL'), schema: env('PG_SCHEMA') });
const running = await startServer({
  dataDir: env('DATA_DIR'),
  store,
  // GAMES=all: the five real games too (the mail bench plays them).
  registry: process.env.GAMES === 'all' ? [...games, highCard] : [highCard],
  port: 0,
  host: '127.0.0.1',
  now: () => new Date(Date.now() + skew),
  logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  postLimit: { windowMs: 60_000, limit: 10_000_000 },
  quotas: { createsPerClientPerHour: 1e9, createsPerAddressPerDay: 1e9 },
  plugins:
    process.env.MAIL === 'off'
      ? []
      : [
          mailPlugin({
            env: {
              SMTP_URL: process.env.MAIL === 'off' ? undefined : env('SMTP_URL'),
              MAIL_COMPOSE_THREADS: process.env.MAIL_COMPOSE_THREADS,
            },
            cron: false,
            queue: { baseDelayMs: 200, maxDelayMs: 1000 },
            reconcileEveryMs: Number(process.env.RECONCILE_MS ?? 1000),
            onReady: (parts) => {
              reminders = parts.reminders;
            },
          }),
        ],
});
process.on('message', (m: { tick?: boolean; skewMs?: number }) => {
  if (!m.tick) return;
  skew = m.skewMs ?? skew;
  void reminders!.tick().then(
    (result) => process.send!({ ticked: result }),
    (err) => process.send!({ error: String(err) }),
  );
});
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
export {};
