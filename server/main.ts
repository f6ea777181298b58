// `npm start`: the server with its defaults (DESIGN.md, "Configuration").
//   PORT (3000)  HOST (all interfaces)  BASE_URL (http://localhost:PORT)
//   DATA_DIR (./data)  LOG_LEVEL (info)  TRUST_PROXY (unset)  SMTP_URL, MAIL_FROM, REMINDER_CRON (mail plugin)
// The secret key is made on first start as DATA_DIR/secret.key (mode 0600).
// More threads for fsync under load; must be set before the first file operation.
process.env.UV_THREADPOOL_SIZE ??= '16';

const { existsSync } = await import('node:fs');
const { dirname, join, resolve } = await import('node:path');
const { fileURLToPath, pathToFileURL } = await import('node:url');
type AppPlugin = import('./app.ts').AppPlugin;

const here = dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST || '0.0.0.0';
const baseUrl = process.env.BASE_URL || `http://localhost:${port}`;
const dataDir = resolve(process.env.DATA_DIR || join(here, '..', 'data'));

// Mail and reminders come as a plugin (server/mail/plugin.ts) when present.
// The module graphs load side by side (the loader reads and compiles while
// the main thread evaluates).
const mailPluginFile = join(here, 'mail', 'plugin.ts');
const wantMail = process.env.MAIL !== 'off' && existsSync(mailPluginFile);
const [{ pino }, { startServer }, { games }, mailMod] = await Promise.all([
  import('pino'),
  import('./app.ts'),
  import('../rules/index.ts'),
  wantMail
    ? (import(pathToFileURL(mailPluginFile).href) as Promise<{ mailPlugin?: () => AppPlugin }>)
    : Promise.resolve(null),
]);
const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
const plugins: AppPlugin[] = [];
if (mailMod?.mailPlugin) plugins.push(mailMod.mailPlugin());

const { trustProxySetting } = await import('./http/client.ts');
// TRUST_PROXY: which proxies' X-Forwarded-For to believe ("loopback", a hop count, addresses); unset: none.
const trustProxy = trustProxySetting(process.env.TRUST_PROXY);
const { quotasFromEnv } = await import('./quota.ts');
// Quotas on creations (QUOTA_CREATES_PER_CLIENT_HOUR, QUOTA_CREATES_PER_ADDRESS_DAY); the mail
// plugin reads QUOTA_INVITES_PER_ADDRESS_DAY. With mail on, organisers confirm their address
// (CONFIRM_ORGANISER=off lifts that, for a private server).
const quotas = quotasFromEnv(process.env);
const confirmOrganiser = plugins.length > 0 && process.env.CONFIRM_ORGANISER !== 'off';
const running = await startServer({
  dataDir,
  baseUrl,
  registry: games,
  logger,
  port,
  host,
  plugins,
  trustProxy,
  quotas,
  confirmOrganiser,
});
logger.info({ port, baseUrl, dataDir, games: games.map((g) => g.id) }, 'listening');
process.stdout.write(`listening on ${baseUrl} (port ${port})\n`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await running.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
export {};
