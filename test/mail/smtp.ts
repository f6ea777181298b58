// A real SMTP server on loopback for the mail suites: smtp-server receives,
// mailparser parses. `refuse` makes it answer 451 (try again later) to every
// message, as a mail server under maintenance does.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface TestSmtp {
  url: string;
  port: number;
  received: ParsedMail[];
  /** The raw message of each in `received`, same order (for signature checks). */
  raw: Buffer[];
  /** Raw Message-ID of every accepted message, in order (duplicates visible). */
  messageIds: string[];
  refused: number;
  refuse: boolean;
  /** Resolves once at least `n` messages were accepted in total. */
  waitFor(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Resolves with the first message (accepted so far or later) matching; `from`: only those from that index on. */
  waitForMail(match: (m: ParsedMail) => boolean, timeoutMs?: number, from?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const waiters: (() => void)[] = [];
  const t: TestSmtp = {
    url: '',
    port: 0,
    received: [],
    raw: [],
    messageIds: [],
    refused: 0,
    refuse: false,
    waitFor(n, timeoutMs = 20_000) {
      return t.waitForMail(() => t.received.length >= n, timeoutMs).then(() => t.received);
    },
    waitForMail(match, timeoutMs = 20_000, from = 0) {
      return new Promise((resolve, reject) => {
        // Messages already looked at did not match: each check reads only the newer ones.
        let next = from;
        const check = () => {
          let found: ParsedMail | undefined;
          for (; next < t.received.length && !found; next++) if (match(t.received[next]!)) found = t.received[next];
          if (found) {
            clearTimeout(timer);
            resolve(found);
            return true;
          }
          return false;
        };
        const timer = setTimeout(
          () => reject(new Error(`no matching mail after ${timeoutMs} ms (${t.received.length} received)`)),
          timeoutMs,
        );
        if (check()) return;
        const w = () => {
          if (!check()) waiters.push(w);
        };
        waiters.push(w);
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    disableReverseLookup: true,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (t.refuse) {
          t.refused++;
          const err = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks);
        // No HTML made of the text part (textAsHtml, its links found): no suite reads it, and the
        // games played by replies receive a thousand mails.
        simpleParser(raw, { skipTextToHtml: true, skipTextLinks: true }).then((parsed) => {
          t.messageIds.push(parsed.messageId ?? '');
          t.raw.push(raw);
          t.received.push(parsed);
          callback();
          for (const w of waiters.splice(0)) w();
        }, callback);
      });
    },
  });
  // A sender killed mid-delivery (the kill tests) resets its connection; the
  // server reports that as an 'error' event, which is expected here and must
  // not become an uncaught exception in the test run.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') console.error('test SMTP server:', err);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.port = (server.server.address() as AddressInfo).port;
  t.url = `smtp://127.0.0.1:${t.port}`;
  return t;
}
