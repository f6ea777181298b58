// Where queued mail goes: an SMTP server (SMTP_URL) or, by default, the outbox
// folder DATA_DIR/outbox/, one .eml file per message, listed at /outbox.
import nodemailer from 'nodemailer';
import { simpleParser } from 'mailparser';
import type Mail from 'nodemailer/lib/mailer';
import { open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
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

/**
 * Writes each message as DATA_DIR/outbox/<id>.eml (plus a small .json summary for the list).
 * Only the .eml is made durable: the summary is derived from it (listOutbox reads the .eml's
 * headers when the summary is missing or cut short by a crash), and its own temp file, fsync,
 * rename and folder fsync were disk flushes that the moves' journal syncs queued behind.
 */
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
      // No .html copy beside it: the page to look at in a browser is made from the .eml when
      // somebody opens it (outboxPage). The copy was as large as the message (the pictures
      // inline as data: URIs, 250-600 kB), built on the event loop and fsynced for every mail:
      // disk writes a move's journal sync waited behind, for a page hardly anybody opens.
      await writeFileDurable(eml, info.message as Buffer);
      await writeFile(join(dir, `${id}.json`), JSON.stringify(summary), { mode: 0o600 });
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
  const names = new Set(files);
  for (const f of files) {
    if (!f.endsWith('.eml') || f.startsWith('.')) continue;
    const id = f.slice(0, -'.eml'.length);
    if (names.has(`${id}.json`)) {
      try {
        out.push(JSON.parse(await readFile(join(dir, `${id}.json`), 'utf8')) as OutboxEntry);
        continue;
      } catch {
        // cut short by a crash (it is written without a sync): read from the .eml below
      }
    }
    const entry = await summaryFromEml(dir, id);
    if (entry) out.push(entry);
  }
  return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** The list entry of a message whose summary is missing, from the headers of its .eml (its time: the file's). */
async function summaryFromEml(dir: string, id: string): Promise<OutboxEntry | null> {
  const path = join(dir, `${id}.eml`);
  try {
    // The headers come first and are short; the pictures after them are not read.
    const fh = await open(path, 'r');
    let head: Buffer;
    try {
      const buf = Buffer.alloc(64 * 1024);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
    const end = head.indexOf('\n\n');
    const parsed = await simpleParser(end >= 0 ? head.subarray(0, end + 2) : head);
    const to = parsed.to ? (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).map((a) => a.text).join(', ') : '';
    return { id, to, subject: parsed.subject ?? '', at: (await stat(path)).mtime.toISOString() };
  } catch {
    return null;
  }
}

/** SMTP when SMTP_URL is set, else the outbox. */
export function transportFor(
  smtpUrl: string | undefined,
  dataDir: string,
  opts: { dkim?: DkimKey } = {},
): MailTransport {
  return smtpUrl ? smtpTransport(smtpUrl, opts) : outboxTransport(join(dataDir, 'outbox'), opts);
}
