// Every environment variable the server reads, checked once at start through one
// zod schema. An unset or empty variable takes its default; a bad value refuses
// the start with one line naming the variable (server/main.ts prints it and
// exits with status 78, EX_CONFIG, which the systemd unit in deploy/ does not
// restart on). Every variable here is listed in .env.example and the README
// (test/server/config.test.ts checks both).
//
//   const config = readConfig(process.env);   // throws ConfigError
//   config.port, config.baseUrl, config.mail.smtpUrl, ...
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import cron from 'node-cron';
import { z } from 'zod';
import { packageRoot } from './paths.ts';
import { DEFAULT_QUOTAS, type QuotaSettings } from './quota.ts';

const flag = z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'], {
  errorMap: () => ({ message: 'must be one of 1, 0, true, false, yes, no, on, off' }),
});
const isOn = (v: z.infer<typeof flag>) => v === '1' || v === 'true' || v === 'yes' || v === 'on';

const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be ${what} (a whole number from ${min} to ${max})`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be ${what} (a whole number from ${min} to ${max})`);

const httpUrl = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'must be an http:// or https:// URL')
  .transform((v) => v.replace(/\/+$/, ''));

/** The variables, with the words .env.example and the README use for them. */
export const envSchema = z.object({
  PORT: wholeNumber(0, 65535, 'a port number').default('3000'),
  HOST: z.string().default('0.0.0.0'),
  BASE_URL: httpUrl.optional(),
  DATA_DIR: z.string().optional(),
  // Set: games live in PostgreSQL (server/store/pg-store.ts), shared by every process given the same URL.
  DATABASE_URL: z
    .string()
    .refine(
      (v) => URL.canParse(v) && /^postgres(ql)?:$/.test(new URL(v).protocol),
      'must be postgres://user:password@host:port/database',
    )
    .optional(),
  // The server secret as 64 hex digits; unset: DATA_DIR/secret.key, or with DATABASE_URL the database's.
  SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (openssl rand -hex 32)')
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      errorMap: () => ({ message: 'must be one of fatal, error, warn, info, debug, trace, silent' }),
    })
    .default('info'),
  SHUTDOWN_GRACE_SECONDS: wholeNumber(0, 3600, 'a number of seconds').default('10'),
  MAIL: z.enum(['on', 'off'], { errorMap: () => ({ message: 'must be on or off' }) }).default('on'),
  SMTP_URL: z
    .string()
    .refine((v) => {
      if (!URL.canParse(v)) return false;
      const u = new URL(v);
      return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
    }, 'must be smtp://[user:password@]host[:port] or smtps://...')
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(/^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'must be "Name <address@host>" or address@host')
    .optional(),
  REMINDER_CRON: z
    .string()
    .refine((v) => cron.validate(v), 'must be a cron expression such as "*/5 * * * *"')
    .default('*/5 * * * *'),
  DIGEST_HOUR: wholeNumber(0, 23, 'an hour of the day in UTC').default('7'),
  OUTBOX_PUBLIC: flag.default('0').transform(isOn),
  // Behind a reverse proxy: which proxies' X-Forwarded-For to believe (http/client.ts).
  TRUST_PROXY: z.string().optional(),
  CONFIRM_ORGANISER: flag.default('on').transform(isOn),
  QUOTA_CREATES_PER_CLIENT_HOUR: wholeNumber(0, 1_000_000, 'a number of games').optional(),
  QUOTA_CREATES_PER_ADDRESS_DAY: wholeNumber(0, 1_000_000, 'a number of games').optional(),
  QUOTA_INVITES_PER_ADDRESS_DAY: wholeNumber(0, 1_000_000, 'a number of invitations').optional(),
  // Play by replying (server/mail/inbound/): the domain of the reply addresses, the two ways in.
  MAIL_DOMAIN: z
    .string()
    .regex(
      /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/,
      'must be a domain name such as play.example.org',
    )
    .optional(),
  SMTP_INBOUND_PORT: wholeNumber(0, 65535, 'a port number').optional(),
  SMTP_INBOUND_HOST: z.string().optional(),
  // STARTTLS on that listener (both, or neither): PEM files, read at start.
  SMTP_INBOUND_TLS_KEY_FILE: z.string().optional(),
  SMTP_INBOUND_TLS_CERT_FILE: z.string().optional(),
  INBOUND_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  INBOUND_MAX_BYTES: wholeNumber(1024, 50_000_000, 'a size in bytes').default('1048576'),
  INBOUND_PER_SENDER_HOUR: wholeNumber(1, 1_000_000, 'a number of replies').default('60'),
  INBOUND_AUTH: z
    .enum(['off', 'dkim', 'dmarc'], { errorMap: () => ({ message: 'must be off, dkim or dmarc' }) })
    .default('off'),
  // Worker threads drawing the mail pictures (server/mail/picture-pool.ts); auto: one fewer
  // than the machine's cores, at least 1 and at most 4; 0: drawn on the event loop.
  MAIL_PICTURE_THREADS: z
    .string()
    .regex(/^(auto|\d+)$/, 'must be auto or a number of threads')
    .default('auto')
    .transform((v) => (v === 'auto' ? Math.min(4, Math.max(1, availableParallelism() - 1)) : Math.min(64, Number(v)))),
  // Worker threads composing the mails (server/mail/compose-pool.ts): the game, the view, the
  // pictures, the templates, off the event loop that answers clicks. auto: one fewer than the
  // machine's cores, at least 1 and at most 4; 0: composed on the event loop (small hosts, tests).
  MAIL_COMPOSE_THREADS: z
    .string()
    .regex(/^(auto|\d+)$/, 'must be auto or a number of threads')
    .default('auto')
    .transform((v) => (v === 'auto' ? Math.min(4, Math.max(1, availableParallelism() - 1)) : Math.min(64, Number(v)))),
  // DKIM signing of outgoing mail (all three, or none).
  DKIM_DOMAIN: z.string().optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'must be a DKIM selector such as mail2026')
    .optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().optional(),
});

export type Env = Partial<Record<keyof typeof envSchema.shape, string>>;

export interface MailConfig {
  /** Unset: mail is written to DATA_DIR/outbox/ instead of sent. */
  smtpUrl?: string;
  mailFrom?: string;
  reminderCron: string;
  digestHour: number;
  outboxPublic: boolean;
  /** Invitations one address may receive a day (server/quota.ts). */
  invitesPerAddressPerDay: number;
  /** The domain of the seats' reply addresses (play+<token>@mailDomain); unset: mail carries no Reply-To. */
  mailDomain?: string;
  inbound: InboundConfig;
  /** Worker threads drawing the mail pictures (0: drawn on the event loop). */
  pictureThreads: number;
  /** Worker threads composing the mails (0: composed on the event loop). */
  composeThreads: number;
  /** DKIM signing of outgoing mail, when a key is configured. */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

export interface InboundConfig {
  /** The SMTP listener's port (unset: no listener). */
  smtpPort?: number;
  smtpHost: string;
  /** STARTTLS on the listener: the PEM key and certificate chain (unset: no STARTTLS offered). */
  tls?: { key: string; cert: string };
  /** The shared secret of POST /mail/inbound (unset: the endpoint is off). */
  secret?: string;
  /** Largest message taken, in bytes. */
  maxBytes: number;
  /** Replies one sender address may send an hour. */
  perSenderPerHour: number;
  /** off: the sender's address is enough; dkim: a passing DKIM signature of the From domain; dmarc: DMARC pass. */
  auth: 'off' | 'dkim' | 'dmarc';
}

export interface Config {
  port: number;
  host: string;
  /** Set: every link is built from it. Unset: http://localhost:<the port listened on>. */
  baseUrl?: string;
  dataDir: string;
  /** Set: the PostgreSQL store on this database; unset: the embedded lowdb store in dataDir. */
  databaseUrl?: string;
  /** SECRET_KEY: the server secret every link key derives from (links.ts). */
  secretKey?: Buffer;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  shutdownGraceMs: number;
  mailOn: boolean;
  mail: MailConfig;
  /** TRUST_PROXY as written (unset: no proxy is believed); http/client.ts reads it. */
  trustProxy?: string;
  /** With mail on, organisers confirm their address before invitations leave (off: a private server). */
  confirmOrganiser: boolean;
  quotas: QuotaSettings;
}

/** A bad variable, in one line: `PORT=abc: must be a port number (a whole number from 0 to 65535)`. */
export class ConfigError extends Error {}

// Values that may carry a password are named, never printed.
const SECRET: ReadonlySet<string> = new Set(['SMTP_URL', 'DATABASE_URL', 'SECRET_KEY', 'INBOUND_SECRET']);

/** A PEM file a variable names, read now (a start that cannot read it stops with one line). */
function readPem(name: string, file: string, begins: RegExp, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${name}=${file}: cannot be read (${(err as Error).message})`);
  }
  if (!begins.test(text)) throw new ConfigError(`${name}=${file}: must be ${what}`);
  return text;
}

/** Reads the environment (only the variables of envSchema; others are ignored). Throws ConfigError. */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const given: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v.trim() !== '') given[key] = v.trim();
  }
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0]);
      const shown = SECRET.has(key) ? key : `${key}=${given[key]}`;
      return `${shown}: ${issue.message}`;
    });
    throw new ConfigError(lines.join('; '));
  }
  const e = parsed.data;
  const dkimGiven = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY_FILE].filter((v) => v !== undefined).length;
  if (dkimGiven !== 0 && dkimGiven !== 3)
    throw new ConfigError('DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE: set all three, or none');
  if ((e.SMTP_INBOUND_PORT !== undefined || e.INBOUND_SECRET !== undefined) && e.MAIL_DOMAIN === undefined)
    throw new ConfigError(
      'SMTP_INBOUND_PORT, INBOUND_SECRET: replies need MAIL_DOMAIN (the domain of the reply addresses)',
    );
  const tlsGiven = [e.SMTP_INBOUND_TLS_KEY_FILE, e.SMTP_INBOUND_TLS_CERT_FILE].filter((v) => v !== undefined).length;
  if (tlsGiven === 1)
    throw new ConfigError('SMTP_INBOUND_TLS_KEY_FILE, SMTP_INBOUND_TLS_CERT_FILE: set both, or neither');
  if (tlsGiven === 2 && e.SMTP_INBOUND_PORT === undefined)
    throw new ConfigError('SMTP_INBOUND_TLS_KEY_FILE, SMTP_INBOUND_TLS_CERT_FILE: STARTTLS needs SMTP_INBOUND_PORT');
  let inboundTls: InboundConfig['tls'];
  if (tlsGiven === 2) {
    const key = readPem(
      'SMTP_INBOUND_TLS_KEY_FILE',
      e.SMTP_INBOUND_TLS_KEY_FILE!,
      /-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/,
      'a PEM private key',
    );
    const cert = readPem(
      'SMTP_INBOUND_TLS_CERT_FILE',
      e.SMTP_INBOUND_TLS_CERT_FILE!,
      /-----BEGIN CERTIFICATE-----/,
      'a PEM certificate',
    );
    inboundTls = { key, cert };
  }
  let dkim: MailConfig['dkim'];
  if (dkimGiven === 3) {
    let privateKey: string;
    try {
      privateKey = readFileSync(e.DKIM_PRIVATE_KEY_FILE!, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `DKIM_PRIVATE_KEY_FILE=${e.DKIM_PRIVATE_KEY_FILE}: cannot be read (${(err as Error).message})`,
      );
    }
    if (!/-----BEGIN (?:RSA )?PRIVATE KEY-----/.test(privateKey))
      throw new ConfigError(`DKIM_PRIVATE_KEY_FILE=${e.DKIM_PRIVATE_KEY_FILE}: must be a PEM private key`);
    dkim = { domainName: e.DKIM_DOMAIN!, keySelector: e.DKIM_SELECTOR!, privateKey };
  }
  return {
    port: e.PORT,
    host: e.HOST,
    baseUrl: e.BASE_URL,
    dataDir: resolve(e.DATA_DIR ?? join(packageRoot(), 'data')),
    databaseUrl: e.DATABASE_URL,
    secretKey: e.SECRET_KEY ? Buffer.from(e.SECRET_KEY, 'hex') : undefined,
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    mailOn: e.MAIL === 'on',
    mail: {
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      pictureThreads: e.MAIL_PICTURE_THREADS,
      composeThreads: e.MAIL_COMPOSE_THREADS,
      reminderCron: e.REMINDER_CRON,
      digestHour: e.DIGEST_HOUR,
      outboxPublic: e.OUTBOX_PUBLIC,
      invitesPerAddressPerDay: e.QUOTA_INVITES_PER_ADDRESS_DAY ?? DEFAULT_QUOTAS.invitesPerAddressPerDay,
      mailDomain: e.MAIL_DOMAIN?.toLowerCase(),
      inbound: {
        smtpPort: e.SMTP_INBOUND_PORT,
        smtpHost: e.SMTP_INBOUND_HOST ?? e.HOST,
        ...(inboundTls ? { tls: inboundTls } : {}),
        secret: e.INBOUND_SECRET,
        maxBytes: e.INBOUND_MAX_BYTES,
        perSenderPerHour: e.INBOUND_PER_SENDER_HOUR,
        auth: e.INBOUND_AUTH,
      },
      dkim,
    },
    trustProxy: e.TRUST_PROXY,
    confirmOrganiser: e.CONFIRM_ORGANISER,
    quotas: {
      createsPerClientPerHour: e.QUOTA_CREATES_PER_CLIENT_HOUR ?? DEFAULT_QUOTAS.createsPerClientPerHour,
      createsPerAddressPerDay: e.QUOTA_CREATES_PER_ADDRESS_DAY ?? DEFAULT_QUOTAS.createsPerAddressPerDay,
      invitesPerAddressPerDay: e.QUOTA_INVITES_PER_ADDRESS_DAY ?? DEFAULT_QUOTAS.invitesPerAddressPerDay,
    },
  };
}
