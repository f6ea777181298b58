// "My games": every mail to a player links one list of all their games (whose turn, since when,
// their links); the server mails that list to an address on request, answering the same whether
// the address has games or not, at most once an hour.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { TestServer } from '../support/server.ts';
import type { TestSmtp } from './smtp.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';

let smtp: TestSmtp;
let srv: TestServer;
let m: MailTestServer;

beforeEach(async () => {
  m = await startMailServer();
  ({ smtp, srv } = m);
});
afterEach(() => m.stop());

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

const settle = () => m.settle();

const post = (path: string, fields: Record<string, string>) =>
  fetch(srv.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  }).then(async (r) => ({ status: r.status, text: await r.text() }));

describe('my games', () => {
  it('is linked from every mail, and lists whose turn, since when, and the links', async () => {
    const one = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const two = await srv.createGame({ rules: 'high-card', players: ['Cy', 'Bob'] });
    await settle();
    const bobMails = smtp.received.filter((m) => to(m) === 'bob@example.test');
    expect(bobMails.length).toBeGreaterThan(0);
    const url = /All your games: (\S+)/.exec(bobMails[0]!.text ?? '')![1]!;
    for (const m of bobMails) expect(m.text).toContain(`All your games: ${url}`);
    const page = await fetch(url).then(async (r) => ({ status: r.status, text: await r.text() }));
    expect(page.status).toBe(200);
    for (const g of [one, two]) {
      const bob = g.seats.find((s) => s.name === 'Bob')!;
      expect(page.text).toContain(srv.service.links.playUrl(bob.key));
    }
    expect(page.text).toMatch(/you and (Ada|Cy) to act/); // the opening stake: everyone acts
    expect(page.text).toMatch(/just now|minutes? ago/);
    // Nobody else's list, and not a forged one.
    expect(page.text).not.toContain(srv.service.links.playUrl(one.seats.find((s) => s.name === 'Ada')!.key));
    const forged = url.replace(/\/games\/[^.]+/, `/games/${Buffer.from('ada@example.test').toString('base64url')}`);
    expect((await fetch(forged)).status).toBe(404);
  });

  it('mails the list on request, answering the same for an address without games', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    await settle();
    const before = smtp.received.length;
    const known = await post('/games', { email: 'bob@example.test' });
    const unknown = await post('/games', { email: 'nobody@example.test' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.text.replace('nobody@example.test', 'X')).toBe(known.text.replace('bob@example.test', 'X'));
    expect((await post('/games', { email: 'bob@example.test' })).status).toBe(200); // again: still one mail
    await settle();
    const sent = smtp.received.slice(before);
    expect(sent.map(to)).toEqual(['bob@example.test']);
    const bob = g.seats.find((s) => s.name === 'Bob')!;
    expect(sent[0]!.subject).toMatch(/^Your game on /);
    expect(sent[0]!.text).toContain(srv.service.links.playUrl(bob.key));
    expect((await post('/games', { email: 'not an address' })).status).toBe(400);
  });
});
