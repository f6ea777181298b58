// Where queued mail goes: an SMTP server (SMTP_URL) or, by default, the outbox
// folder DATA_DIR/outbox/, one .eml file per message, listed at /outbox.
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import type Mail from 'nodemailer/lib/mailer';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, exists, writeFileDurable } from '../store/durable-file.ts';
import type { OutgoingMail } from './message.ts';
import type { MailTransport } from './queue.ts';

/** The nodemailer message for a stored mail (Message-ID and threading headers kept as given). */
export function toNodemailer(mail: OutgoingMail): Mail.Options {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    inReplyTo: mail.inReplyTo,
    replyTo: mail.replyTo,
    references: mail.references,
    headers: mail.headers,
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      cid: a.cid,
      content: Buffer.from(a.contentBase64, 'base64'),
      contentDisposition: a.cid ? ('inline' as const) : ('attachment' as const),
    })),
  };
}

export interface SmtpTransportOptions {
  /** Connection timeouts in ms (a dead server must not hang the queue). */
  timeoutMs?: number;
  /** DKIM-sign every message (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE). */
  dkim?: DkimKey;
}

/** A DKIM signing key: the d= domain, the s= selector and the PEM private key. */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * Sends through SMTP_URL (smtp://user:pass@host:587, smtps://...). With `?pool=true` it keeps up
 * to five connections open and sends message after message over them, instead of a connection
 * (greeting, EHLO, TLS, AUTH) per message: for a busy server, and a receiving server that holds
 * each new connection back (smtp-server waits 100 ms for early talkers before its greeting).
 */
export function smtpTransport(url: string, opts: SmtpTransportOptions = {}): MailTransport {
  const t = opts.timeoutMs ?? 30_000;
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  const transporter = nodemailer.createTransport({
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    // Loopback test servers and many small relays offer no certificate worth checking.
    ...(u.searchParams.get('pool') === 'true' ? { pool: true as const, maxConnections: 5 } : {}),
    ignoreTLS: u.searchParams.get('ignoreTLS') === 'true',
    tls: u.searchParams.get('rejectUnauthorized') === 'false' ? { rejectUnauthorized: false } : undefined,
    connectionTimeout: t,
    greetingTimeout: t,
    socketTimeout: t,
    ...(opts.dkim ? { dkim: opts.dkim } : {}),
  });
  return {
    async send(mail) {
      await transporter.sendMail(toNodemailer(mail));
    },
    close() {
      transporter.close();
    },
  };
}

/** Writes each message as DATA_DIR/outbox/<id>.eml (plus a small .json summary for the list). */
export function outboxTransport(dir: string, opts: { dkim?: DkimKey } = {}): MailTransport {
  const builder = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
    ...(opts.dkim ? { dkim: opts.dkim } : {}),
  });
  let ready: Promise<void> | null = null;
  return {
    async send(mail, id) {
      ready ??= ensureDir(dir);
      await ready;
      const eml = join(dir, `${id}.eml`);
      // Exactly once: a message already written (before a crash) is not written again.
      if (await exists(eml)) return;
      const info = await builder.sendMail(toNodemailer(mail));
      const summary: OutboxEntry = { id, to: mail.to, subject: mail.subject, at: new Date().toISOString() };
      await writeFileDurable(join(dir, `${id}.json`), JSON.stringify(summary));
      // No .html copy beside it: the page to look at in a browser is made from the .eml when
      // somebody opens it (outboxPage). The copy was as large as the message (the pictures
      // inline as data: URIs, 250-600 kB), built on the event loop and fsynced for every mail:
      // disk writes a move's journal sync waited behind, for a page hardly anybody opens.
      await writeFileDurable(eml, info.message as Buffer);
    },
  };
}

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  at: string;
}

/**
 * The page of an outbox message (/outbox/<id>.html): its HTML part with the inline pictures as
 * data: URIs, read from the .eml; null when there is no such message or it has no HTML part.
 * A copy written beside the .eml by an older server is served as it is.
 */
export async function outboxPage(dir: string, id: string): Promise<Buffer | string | null> {
  try {
    return await readFile(join(dir, `${id}.html`));
  } catch {
    // made from the .eml below
  }
  let eml: Buffer;
  try {
    eml = await readFile(join(dir, `${id}.eml`));
  } catch {
    return null;
  }
  // simpleParser writes each cid: picture into the HTML as a data: URI.
  const parsed = await simpleParser(eml, { skipTextToHtml: true, skipTextLinks: true });
  return typeof parsed.html === 'string' ? parsed.html : null;
}

/** The outbox, newest first. */
export async function listOutbox(dir: string): Promise<OutboxEntry[]> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return [];
  }
  const out: OutboxEntry[] = [];
  for (const f of files) {
    if (!f.endsWith('.json') || f.startsWith('.')) continue;
    if (!(await exists(join(dir, f.replace(/\.json$/, '.eml'))))) continue;
    try {
      out.push(JSON.parse(await readFile(join(dir, f), 'utf8')) as OutboxEntry);
    } catch {
      // a half-written summary is skipped; its .eml is still there
    }
  }
  return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** SMTP when SMTP_URL is set, else the outbox. */
export function transportFor(
  smtpUrl: string | undefined,
  dataDir: string,
  opts: { dkim?: DkimKey } = {},
): MailTransport {
  return smtpUrl ? smtpTransport(smtpUrl, opts) : outboxTransport(join(dataDir, 'outbox'), opts);
}
