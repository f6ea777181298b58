// DKIM both ways: outgoing mail signed with the configured key verifies against
// the published public key; with INBOUND_AUTH=dkim a reply plays only if it
// carries a passing DKIM signature of its sender's domain, so a forged From
// (the player's own address, unsigned) cannot play. DNS is a table here.
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dkimVerify } from 'mailauth';
import type { TestServer } from '../support/server.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import type { Env } from '../../server/config.ts';
import type { Mailer } from '../../server/mail/index.ts';
import type { TestSmtp } from './smtp.ts';
import { addressOf, buildReply, sendRaw } from '../support/mail-client.ts';
import { dkimSigned } from '../support/dkim.ts';

const keyOf = () => generateKeyPairSync('rsa', { modulusLength: 1024 });
// The server's key (games@example.org signs as example.org) and the players' domain's key (example.test).
const server = keyOf();
const players = keyOf();
// Node's crypto as mailauth (CommonJS) sees it, to watch its RSA signing.
const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
const pemOf = (key: typeof server.privateKey) => key.export({ type: 'pkcs8', format: 'pem' }) as string;
const txt = (pub: typeof server.publicKey) =>
  `v=DKIM1; k=rsa; p=${pub.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const DNS: Record<string, string> = {
  'games2026._domainkey.example.org': txt(server.publicKey),
  'home._domainkey.example.test': txt(players.publicKey),
  '_dmarc.example.test': 'v=DMARC1; p=reject',
};
const resolver = async (name: string, type: string): Promise<string[][]> => {
  const record = DNS[name.toLowerCase()];
  if (type === 'TXT' && record) return [[record]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
};

let dir: string;
let smtp: TestSmtp;
let srv: TestServer;
let mailer: Mailer;
let m: MailTestServer;

/** A server whose mail goes out through SMTP_URL (the transport that signs), with these settings. */
const start = (env: Env) =>
  startMailServer({
    env: (s) => ({
      MAIL_FROM: 'Share Games <games@example.org>',
      MAIL_DOMAIN: 'play.example.org',
      SMTP_INBOUND_PORT: '0',
      SMTP_INBOUND_HOST: '127.0.0.1',
      SMTP_URL: `${s.url}?ignoreTLS=true`,
      ...env,
    }),
    configuredTransport: true,
    dnsResolver: resolver,
  });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pbem-dkim-'));
  const keyFile = join(dir, 'dkim.pem');
  writeFileSync(keyFile, server.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  m = await start({
    INBOUND_AUTH: 'dkim',
    DKIM_DOMAIN: 'example.org',
    DKIM_SELECTOR: 'games2026',
    DKIM_PRIVATE_KEY_FILE: keyFile,
  });
  ({ smtp, srv, mailer } = m);
});
afterEach(async () => {
  await m.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A High Card game of Ada and Bob on the running server: Ada's first turn mail, and how to reply to it. */
async function adasTurn() {
  const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
  const ada = g.seats.find((s) => s.name === 'Ada')!;
  const turn = await smtp.waitForMail((m) => addressOf(m.to) === ada.email && /^Your turn/.test(m.subject ?? ''));
  return { g, ada, turn, port: mailer.inboundSmtpPort!, envelope: { from: ada.email, to: addressOf(turn.replyTo) } };
}

/** The server again, checking DMARC instead of DKIM. */
async function checkingDmarc() {
  await m.stop();
  m = await start({ INBOUND_AUTH: 'dmarc' });
  ({ smtp, srv, mailer } = m);
}

describe('DKIM', () => {
  it('signs outgoing mail, and takes only DKIM-signed replies under INBOUND_AUTH=dkim', async () => {
    const { g, turn, port, envelope } = await adasTurn();
    // Outgoing: signed by example.org with the configured selector, and the signature verifies.
    const raw = smtp.raw[smtp.received.indexOf(turn)]!;
    const verified = await dkimVerify(raw, { resolver });
    expect(verified.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([
      ['example.org', 'games2026', 'pass'],
    ]);

    // Inbound: Ada's address, unsigned (anyone can write that From): refused, nothing played.
    const unsigned = await buildReply(turn, 'say I am Ada, honest');
    await expect(sendRaw(port, unsigned, envelope)).rejects.toThrow(/550.*authenticated/);
    // Signed by another domain's key: refused too.
    const sign = (signingDomain: string, selector: string, key: typeof server.privateKey) =>
      dkimSigned(unsigned, { signingDomain, selector, privateKey: pemOf(key) });
    const wrongDomain = await sign('example.org', 'games2026', server.privateKey);
    expect(wrongDomain.toString()).toMatch(/^DKIM-Signature:/);
    await expect(sendRaw(port, wrongDomain, envelope)).rejects.toThrow(/550/);
    expect((await srv.service.open(g.gameId)).doc.log.some((e) => e.data?.talk)).toBe(false);
    // Signed by the players' domain: it plays.
    const signed = await sign('example.test', 'home', players.privateKey);
    expect(await sendRaw(port, signed, envelope)).toMatch(/^250/);
    expect((await srv.service.open(g.gameId)).doc.log.filter((e) => e.data?.talk)).toHaveLength(1);
  });
});

describe('a reply signed across a half second', () => {
  // The bench's intermittent "bad signature" (one DKIM-signed reply in 60 to 200): mailauth's signer
  // read the clock once for the t= it signed and once more for the t= it wrote. Here the clock
  // crosses a half second between those reads, every time: the signature must still verify, and
  // the reply play.
  it('verifies and plays, the signing time being fixed once', async () => {
    const { g, turn } = await adasTurn();
    const unsigned = await buildReply(turn, 'say signed at the turn of a second');
    // The clock stands just before a half second (ten seconds ago) and moves 2 ms while the RSA
    // signature is made, as it does on a busy machine.
    let now = (Math.floor(Date.now() / 1000) - 10) * 1000 + 499;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now);
    const rsaSign = crypto.sign;
    let signatures = 0;
    const rsa = vi.spyOn(crypto, 'sign').mockImplementation(((...args: Parameters<typeof crypto.sign>) => {
      signatures++;
      now += 2;
      return rsaSign(...args);
    }) as typeof crypto.sign);
    let signed: Buffer;
    try {
      signed = await dkimSigned(unsigned, {
        signingDomain: 'example.test',
        selector: 'home',
        privateKey: pemOf(players.privateKey),
      });
    } finally {
      clock.mockRestore();
      rsa.mockRestore();
    }
    expect(signatures).toBe(1);
    const verified = await dkimVerify(signed, { resolver });
    expect(verified.results.map((r) => r.status.result)).toEqual(['pass']);
    const verdict = await mailer.desk!.receive(signed, { recipients: [addressOf(turn.replyTo)] });
    expect(verdict.status).toBe('answered');
    expect((await srv.service.open(g.gameId)).doc.log.filter((e) => e.data?.talk)).toHaveLength(1);
  });
});

describe('DMARC', () => {
  it('takes a reply under INBOUND_AUTH=dmarc only when it passes DMARC (an aligned DKIM signature here)', async () => {
    await checkingDmarc();
    const { g, turn, port, envelope } = await adasTurn();
    const unsigned = await buildReply(turn, 'say dmarc says yes');
    await expect(sendRaw(port, unsigned, envelope)).rejects.toThrow(/550.*DMARC/);
    const signed = await dkimSigned(unsigned, {
      signingDomain: 'example.test',
      selector: 'home',
      privateKey: pemOf(players.privateKey),
    });
    expect(await sendRaw(port, signed, envelope)).toMatch(/^250/);
    expect((await srv.service.open(g.gameId)).doc.log.filter((e) => e.data?.talk)).toHaveLength(1);
  });

  it('takes an unsigned reply under INBOUND_AUTH=dmarc when SPF passes for the sending server and aligns', async () => {
    await checkingDmarc();
    const { g, ada, turn, port, envelope } = await adasTurn();
    const { to } = envelope;
    // The players' domain names the sending server (here 127.0.0.1, the test's own) in SPF.
    DNS['example.test'] = 'v=spf1 ip4:127.0.0.1 -all';
    try {
      // Envelope sender of another domain (no SPF there, so nothing aligned): refused.
      const unaligned = await buildReply(turn, 'say bounced through elsewhere');
      await expect(sendRaw(port, unaligned, { from: 'bounce@elsewhere.test', to })).rejects.toThrow(/550.*DMARC/);
      // The player's own domain, sent from a server its SPF names: DMARC passes by SPF.
      const aligned = await buildReply(turn, 'say sent by my own server');
      expect(await sendRaw(port, aligned, { from: ada.email, to })).toMatch(/^250/);
    } finally {
      delete DNS['example.test'];
    }
    const talk = (await srv.service.open(g.gameId)).doc.log.filter((e) => e.data?.talk).map((e) => e.data!.talk);
    expect(talk).toEqual(['sent by my own server']);
  });
});
