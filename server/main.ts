// `npm start` (the build, dist/server/main.js) and `npm run dev` (tsx): the server
// as server/config.ts configures it from the environment. A bad variable stops
// the start with one line naming it and exit status 78 (EX_CONFIG).
// The secret key is made on first start as DATA_DIR/secret.key (mode 0600).
// More threads for fsync under load; must be set before the first file operation.
process.env.UV_THREADPOOL_SIZE ??= '16';

const { ConfigError, readConfig } = await import('./config.ts');
type AppPlugin = import('./app.ts').AppPlugin;

let config: import('./config.ts').Config;
try {
  config = readConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`configuration error: ${err.message}\n`);
  process.exit(78);
}

// The module graphs load side by side (the loader reads and compiles while
// the main thread evaluates). Mail and reminders come as a plugin; MAIL=off leaves it out.
const [{ pino }, { startServer }, { games }, mailMod] = await Promise.all([
  import('pino'),
  import('./app.ts'),
  import('../rules/index.ts'),
  config.mailOn ? import('./mail/plugin.ts') : Promise.resolve(null),
]);
const logger = pino({ level: config.logLevel });
const plugins: AppPlugin[] = [];
if (mailMod) plugins.push(mailMod.mailPlugin({ config: config.mail }));

const { dataDir, host } = config;
const { trustProxySetting } = await import('./http/client.ts');
const trustProxy = trustProxySetting(config.trustProxy);
const quotas = config.quotas;
// With mail on, organisers confirm their address before any invitation leaves.
const confirmOrganiser = plugins.length > 0 && config.confirmOrganiser;
// A port in use or an unwritable DATA_DIR is one line too, not a stack trace.
const running = await startServer({
  dataDir,
  databaseUrl: config.databaseUrl,
  secret: config.secretKey,
  baseUrl: config.baseUrl,
  registry: games,
  logger,
  port: config.port,
  host,
  plugins,
  trustProxy,
  quotas,
  confirmOrganiser,
}).catch((err: NodeJS.ErrnoException) => {
  const why =
    err.code === 'EADDRINUSE'
      ? `port ${config.port} on ${host} is already in use (PORT, HOST)`
      : err.code === 'EACCES' && err.syscall === 'listen'
        ? `no permission to listen on port ${config.port} (PORT)`
        : String(err.message ?? err);
  process.stderr.write(`cannot start: ${why}\n`);
  process.exit(1);
});
const port = (running.server.address() as import('node:net').AddressInfo).port;
const baseUrl = running.url;
const local = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
logger.info({ port, baseUrl, dataDir, games: games.map((g) => g.id) }, 'listening');
process.stdout.write(`listening on http://${local}:${port} (links: ${baseUrl})\n`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal, graceMs: config.shutdownGraceMs }, 'stopping');
  // Requests in flight get the grace period, then flushing the writes gets as long again
  // (at least 10 s); a stop that still hangs exits 1.
  const force = setTimeout(() => process.exit(1), 2 * config.shutdownGraceMs + 10_000);
  force.unref();
  await running.stop(config.shutdownGraceMs);
  logger.info({ signal }, 'stopped');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
export {};
