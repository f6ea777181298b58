// A player's mail client for the reply suites: it answers a received mail the
// way common clients do (their quoting, their "On ... wrote:" line, their
// signature), keeps the thread (In-Reply-To, References) and sends the reply over
// real SMTP to the server's inbound listener.
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { ParsedMail } from 'mailparser';

/** How a client quotes: 'inline' pastes the original under the reply as it is (no quote marks, no header). */
export type ClientStyle = 'gmail' | 'outlook' | 'apple' | 'thunderbird' | 'phone' | 'inline';

export interface ReplyOptions {
  /** The sender (default: the address the mail was sent to). */
  from?: string;
  style?: ClientStyle;
  /** An HTML-only reply (the client sends no text part). */
  htmlOnly?: boolean;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** Body charset other than UTF-8 (e.g. iso-8859-1). */
  charset?: string;
  /** Headers to add (Auto-Submitted, DKIM-Signature...). */
  headers?: Record<string, string>;
  /** Recipient other than the mail's Reply-To. */
  to?: string;
}

const addressOf = (a: ParsedMail['to'] | ParsedMail['from'] | ParsedMail['replyTo']): string => {
  const first = Array.isArray(a) ? a[0] : a;
  return first?.value[0]?.address ?? '';
};

/** The original mail's text quoted as `style` quotes it, below the reply. */
export function quoted(mail: ParsedMail, style: ClientStyle): string {
  const text = (mail.text ?? '').replace(/\r\n/g, '\n');
  const date = 'Tue, 1 Dec 2026 at 10:00';
  const sender = 'Share Games <games@example.test>';
  const q = text
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
  switch (style) {
    case 'gmail':
      return `\n\nOn ${date}, ${sender} wrote:\n\n${q}\n`;
    case 'apple':
      return `\n\n> On 1 Dec 2026, at 10:00, ${sender} wrote:\n> \n${q}\n`;
    case 'thunderbird':
      return `\n\n-- \nAda\n\n-------- Original Message --------\nSubject: ${mail.subject}\nDate: ${date}\nFrom: ${sender}\n\n${text}\n`;
    case 'outlook':
      return `\n\nBest regards,\nAda\n\n________________________________\nFrom: ${sender}\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: ${addressOf(mail.to)}\nSubject: ${mail.subject}\n\n${text}\n`;
    case 'phone':
      return `\n\nSent from my iPhone\n\n> On 1 Dec 2026, at 10:00, Share Games <games@example.test> wrote:\n> \n${q}\n`;
    case 'inline':
      return `\n\n${text}\n`;
  }
}

/** Builds the raw reply (RFC 5322) to `mail` with `body` typed at the top. */
export async function buildReply(mail: ParsedMail, body: string, o: ReplyOptions = {}): Promise<Buffer> {
  const style = o.style ?? 'gmail';
  const text = body + quoted(mail, style);
  const refs = [...(Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : [])];
  if (mail.messageId) refs.push(mail.messageId);
  const html = `<div dir="ltr">${body
    .split('\n')
    .map((l) => `<div>${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</div>`)
    .join(
      '',
    )}</div><br><div class="gmail_quote">On Tue, 1 Dec 2026 Share Games wrote:<br><blockquote class="gmail_quote">${(mail.text ?? '').replace(/</g, '&lt;').replace(/\n/g, '<br>')}</blockquote></div>`;
  const composer = new MailComposer({
    from: o.from ?? addressOf(mail.to),
    to: o.to ?? addressOf(mail.replyTo),
    subject: /^re:/i.test(mail.subject ?? '') ? mail.subject : `Re: ${mail.subject ?? ''}`,
    inReplyTo: mail.messageId,
    references: refs,
    ...(o.htmlOnly ? { html } : { text: o.charset ? { content: text } : text }),
    ...(o.charset && !o.htmlOnly ? { textEncoding: 'quoted-printable' as const } : {}),
    attachments: o.attachments,
    headers: o.headers,
  });
  let raw = await new Promise<Buffer>((resolve, reject) =>
    composer.compile().build((err, msg) => (err ? reject(err) : resolve(msg))),
  );
  if (o.charset) raw = recode(raw, o.charset);
  return raw;
}

/** Re-encodes a single-part UTF-8 quoted-printable text message into `charset` (latin-1 only). */
function recode(raw: Buffer, charset: string): Buffer {
  const s = raw.toString('utf8');
  const split = s.indexOf('\r\n\r\n');
  const head = s.slice(0, split).replace(/charset=utf-8/i, `charset=${charset}`);
  const qp = s.slice(split + 4);
  const decoded = Buffer.from(
    qp.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
  const body = [...Buffer.from(decoded, 'latin1')]
    .map((b) => (b > 126 || b === 61 ? `=${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b)))
    .join('')
    .replace(/\n/g, '\r\n');
  return Buffer.from(`${head}\r\n\r\n${body}`, 'latin1');
}

/**
 * Sends a raw message over SMTP to 127.0.0.1:port; resolves with the server's answer or rejects with its refusal.
 * Plain unless `tls` is given: then STARTTLS is required, and the server's certificate must verify against `ca`.
 */
export async function sendRaw(
  port: number,
  raw: Buffer,
  envelope: { from: string; to: string },
  tls?: { ca: string },
): Promise<string> {
  const t = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ...(tls ? { requireTLS: true, tls: { ca: tls.ca, servername: 'localhost' } } : { ignoreTLS: true }),
  });
  try {
    const info = await t.sendMail({ envelope, raw });
    return info.response;
  } finally {
    t.close();
  }
}

/**
 * A sending mail server that keeps its connection to 127.0.0.1:port open and delivers message
 * after message over it, as busy servers do (one connection, not one per reply).
 */
export interface SmtpSender {
  send(raw: Buffer, envelope: { from: string; to: string }): Promise<string>;
  close(): void;
}

export function smtpSender(port: number): SmtpSender {
  const t = nodemailer.createTransport({
    pool: true,
    maxConnections: 1,
    maxMessages: Number.POSITIVE_INFINITY,
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
  });
  return {
    send: async (raw, envelope) => (await t.sendMail({ envelope, raw })).response,
    close: () => t.close(),
  };
}

/** Replies to `mail` over SMTP with `body` (through `via`, else a connection of its own); resolves with the server's 250 answer. */
export async function reply(
  port: number,
  mail: ParsedMail,
  body: string,
  o: ReplyOptions & { via?: SmtpSender } = {},
): Promise<string> {
  const raw = await buildReply(mail, body, o);
  const envelope = { from: o.from ?? addressOf(mail.to), to: o.to ?? addressOf(mail.replyTo) };
  return o.via ? o.via.send(raw, envelope) : sendRaw(port, raw, envelope);
}

export { addressOf };
