// The SMTP listener for replies (SMTP_INBOUND_PORT), for a self-hoster whose MX
// points at the server: smtp-server receives, the reply desk (desk.ts) decides.
//
// - RCPT TO is checked at once: only a live play+<token>@MAIL_DOMAIN address is
//   taken (an unknown or retired one is refused with 550, so nothing is relayed
//   and no bounce is made by us).
// - SIZE is advertised and enforced (INBOUND_MAX_BYTES); a larger message is 552.
// - The message is accepted (250) only once its answer is durably queued; a
//   refusal is a 5xx the sending server reports to its sender; a temporary
//   problem (rate, a failure here) is a 4xx, and the sending server tries later.
// - Connections are limited in number and per client address a minute.
// - STARTTLS is offered when a key and certificate are configured
//   (SMTP_INBOUND_TLS_KEY_FILE, SMTP_INBOUND_TLS_CERT_FILE), never with
//   smtp-server's built-in certificate (its key is public). Sending servers use
//   it when offered; a plain session is still taken, as an MX must (RFC 3207).
// No AUTH: this listener only receives mail for its own addresses.
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { Quota } from '../../quota.ts';
import type { ReplyDesk, Verdict } from './desk.ts';

export interface InboundSmtpOptions {
  port: number;
  host: string;
  /** STARTTLS with this PEM key and certificate chain (unset: not offered). */
  tls?: { key: string; cert: string };
  /** Connections one client address may open a minute. */
  connectionsPerMinute?: number;
  log?: (event: Record<string, unknown>) => void;
  now?: () => number;
}

export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export async function startInboundSmtp(desk: ReplyDesk, o: InboundSmtpOptions): Promise<InboundSmtp> {
  const perClient = new Quota(o.connectionsPerMinute ?? 120, 60_000, o.now ?? Date.now);
  // Loaded only when the listener is asked for (SMTP_INBOUND_PORT): start-up stays light without.
  const { SMTPServer } = await import('smtp-server');
  const server = new SMTPServer({
    disabledCommands: o.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(o.tls ? { key: o.tls.key, cert: o.tls.cert, minVersion: 'TLSv1.2' as const } : {}),
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    banner: 'replies to games only',
    size: desk.maxBytes,
    maxClients: 100,
    socketTimeout: 60_000,
    onConnect(session: SMTPServerSession, callback) {
      if (!perClient.take(session.remoteAddress))
        return callback(smtpError(421, 'Too many connections from your address; try later'));
      callback();
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= 5) return callback(smtpError(452, 'Too many recipients'));
      desk.knowsRecipient(address.address).then(
        (known) => callback(known ? null : smtpError(550, 'No such address here')),
        () => callback(smtpError(451, 'Try again later')),
      );
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= desk.maxBytes) chunks.push(c);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded || size > desk.maxBytes)
          return callback(smtpError(552, `Message larger than ${desk.maxBytes} bytes`));
        const mailFrom = session.envelope.mailFrom;
        desk
          .receive(Buffer.concat(chunks), {
            recipients: session.envelope.rcptTo.map((r) => r.address),
            mailFrom: mailFrom ? mailFrom.address : undefined,
            ip: session.remoteAddress,
            helo: session.hostNameAppearsAs,
          })
          .then(
            (v: Verdict) => {
              o.log?.({
                msg: 'reply received',
                via: 'smtp',
                status: v.status,
                ...('reason' in v ? { reason: v.reason } : {}),
              });
              if (v.status === 'answered' || v.status === 'dropped') return callback();
              if (v.status === 'refused') return callback(smtpError(v.code, v.reason));
              return callback(smtpError(451, v.reason));
            },
            (err: unknown) => {
              o.log?.({ msg: 'reply failed', via: 'smtp', err: String((err as Error)?.message ?? err) });
              callback(smtpError(451, 'The server could not take this reply now; try later'));
            },
          );
      });
    },
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE')
      o.log?.({ msg: 'inbound SMTP error', err: String(err.message ?? err) });
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
