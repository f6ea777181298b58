// STARTTLS on the SMTP listener for replies: with SMTP_INBOUND_TLS_KEY_FILE and
// SMTP_INBOUND_TLS_CERT_FILE the listener offers STARTTLS with that certificate
// (made here by the openssl binary, which .ci/run installs), a reply sent over it
// plays, and a plain session is still taken, as an MX must; without them no
// STARTTLS is offered at all (never smtp-server's built-in certificate, whose key
// is public). The settings are checked at start.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';
import { addressOf, buildReply, sendRaw } from '../support/mail-client.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';

let dir: string;
let keyFile: string;
let certFile: string;
let cert: string;
let m: MailTestServer | undefined;

/** A self-signed certificate for localhost (PEM), its key written to `keyOut` (a P-256 key: made in milliseconds). */
const selfSigned = (keyOut: string, ...more: string[]): string =>
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyOut,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      ...more,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  ).toString();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pbem-tls-'));
  keyFile = join(dir, 'key.pem');
  certFile = join(dir, 'cert.pem');
  cert = selfSigned(keyFile, '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1');
  writeFileSync(certFile, cert);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await m?.stop();
  m = undefined;
});

async function adaTurnMail(s: MailTestServer) {
  const g = await s.srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
  const ada = g.seats.find((x) => x.name === 'Ada')!;
  const mail = await s.smtp.waitForMail((x) => addressOf(x.to) === ada.email && /^Your turn/.test(x.subject ?? ''));
  return { g, ada, mail };
}

const said = async (s: MailTestServer, gameId: string) =>
  (await s.srv.service.open(gameId)).doc.log.filter((e) => typeof e.data?.talk === 'string').map((e) => e.data!.talk);

describe('STARTTLS on the reply listener', () => {
  it('offers STARTTLS with the configured certificate; a reply over it plays, and so does a plain one', async () => {
    m = await startMailServer({
      replies: true,
      env: { SMTP_INBOUND_TLS_KEY_FILE: keyFile, SMTP_INBOUND_TLS_CERT_FILE: certFile },
    });
    const { g, ada, mail } = await adaTurnMail(m);
    const port = m.mailer.inboundSmtpPort!;
    const envelope = { from: ada.email, to: addressOf(mail.replyTo) };
    // Encrypted, the certificate checked against the one made above.
    expect(await sendRaw(port, await buildReply(mail, 'say over TLS'), envelope, { ca: cert })).toMatch(/^250/);
    // A certificate the client does not trust: the client gives up before sending anything.
    const other = selfSigned('/dev/null');
    await expect(sendRaw(port, await buildReply(mail, 'say untrusted'), envelope, { ca: other })).rejects.toThrow(
      /certificate/i,
    );
    // A sending server without TLS is still heard.
    expect(await sendRaw(port, await buildReply(mail, 'say in the clear'), envelope)).toMatch(/^250/);
    expect(await said(m, g.gameId)).toEqual(['over TLS', 'in the clear']);
  });

  it('offers no STARTTLS without a certificate configured', async () => {
    m = await startMailServer({ replies: true });
    const { g, ada, mail } = await adaTurnMail(m);
    const envelope = { from: ada.email, to: addressOf(mail.replyTo) };
    await expect(
      sendRaw(m.mailer.inboundSmtpPort!, await buildReply(mail, 'say hi'), envelope, { ca: cert }),
    ).rejects.toThrow(/STARTTLS/);
    expect(await said(m, g.gameId)).toEqual([]);
  });

  it('refuses half a TLS setting, an unreadable file and a file that is no certificate, in one line', () => {
    const base = { MAIL_DOMAIN: 'play.example.test', SMTP_INBOUND_PORT: '2525' };
    const refusal = (env: Record<string, string>) => {
      try {
        readConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return 'taken';
    };
    expect(refusal({ ...base, SMTP_INBOUND_TLS_KEY_FILE: keyFile })).toMatch(/set both, or neither/);
    expect(
      refusal({ ...base, SMTP_INBOUND_TLS_KEY_FILE: keyFile, SMTP_INBOUND_TLS_CERT_FILE: join(dir, 'missing.pem') }),
    ).toMatch(/^SMTP_INBOUND_TLS_CERT_FILE=.*missing\.pem: cannot be read/);
    expect(refusal({ ...base, SMTP_INBOUND_TLS_KEY_FILE: certFile, SMTP_INBOUND_TLS_CERT_FILE: certFile })).toMatch(
      /^SMTP_INBOUND_TLS_KEY_FILE=.*: must be a PEM private key$/,
    );
    const notPem = join(dir, 'notes.txt');
    writeFileSync(notPem, 'hello');
    expect(refusal({ ...base, SMTP_INBOUND_TLS_KEY_FILE: keyFile, SMTP_INBOUND_TLS_CERT_FILE: notPem })).toMatch(
      /must be a PEM certificate$/,
    );
    expect(
      readConfig({ ...base, SMTP_INBOUND_TLS_KEY_FILE: keyFile, SMTP_INBOUND_TLS_CERT_FILE: certFile }).mail.inbound.tls
        ?.cert,
    ).toBe(cert);
  });
});
