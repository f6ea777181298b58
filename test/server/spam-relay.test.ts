// Issue 13, item 3: the server relays no mail for strangers. Nothing leaves
// for third parties until the organiser has confirmed their address through
// the link in the set-up mail; until then the game is not listed and nobody
// joins. Creations are held to quotas per client and per address, invitations
// to a quota per receiving address, and games nobody confirms expire quietly.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../server/config.ts';
import type { Mailer } from '../../server/mail/index.ts';
import { mailPlugin } from '../../server/mail/plugin.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const mailers = new Map<TestServer, Mailer>();

/** A server that asks organisers to confirm, with mail to the outbox. */
async function serve(opts: Parameters<typeof startTestServer>[0] = {}, env: Env = {}): Promise<TestServer> {
  let mailer: Mailer | undefined;
  const srv = await startTestServer({
    confirmOrganiser: true,
    ...opts,
    plugins: [mailPlugin({ env, cron: false, onReady: (p) => (mailer = p.mailer) })],
  });
  mailers.set(srv, mailer!);
  return srv;
}

async function outbox(srv: TestServer): Promise<{ to: string; subject: string; text: string }[]> {
  await srv.service.settled();
  await mailers.get(srv)!.queue.idle();
  const dir = join(srv.dataDir, 'outbox');
  const mails = [];
  for (const f of existsSync(dir) ? readdirSync(dir).filter((x) => x.endsWith('.eml')) : []) {
    const m = await simpleParser(readFileSync(join(dir, f)));
    const to = (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';
    mails.push({ to, subject: m.subject ?? '', text: m.text ?? '' });
  }
  return mails;
}

const create = (srv: TestServer, body: Record<string, unknown> = {}) =>
  srv.api('POST', '/api/games', {
    rules: 'high-card',
    seats: 3,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
    invite: ['bob@example.test', 'cy@example.test'],
    ...body,
  });

describe('no mail relay for strangers', () => {
  it('sends only the set-up mail until the organiser confirms; then the invitations, the listing and the seats', async () => {
    const srv = await serve();
    try {
      const c = await create(srv);
      expect(c.status).toBe(201);
      expect(c.body.confirmed).toBe(false);
      let mails = await outbox(srv);
      expect(mails.map((m) => m.to)).toEqual(['ada@example.test']);
      expect((await srv.api('GET', '/api/games')).body.open).toEqual([]);
      const early = await srv.api('POST', `/api/join/${c.body.inviteKey}`, { name: 'Eve', email: 'eve@example.test' });
      expect(early.status).toBe(409);
      expect(early.body.error).toMatch(/not confirmed/);
      // The admin may name another invitee: it waits too.
      const admin = await (await fetch(`${srv.url}/admin/${c.body.adminKey}`)).text();
      expect(admin).toContain('confirm the game');
      expect(admin).not.toContain('/confirm/');

      const link = /(http:\/\/\S+\/confirm\/[A-Za-z0-9_-]+)/.exec(mails[0]!.text)![1]!;
      // Opening the link changes nothing (mail scanners open links); the button does.
      expect((await fetch(link)).status).toBe(200);
      expect((await outbox(srv)).length).toBe(1);
      const confirmed = await fetch(link, { method: 'POST', redirect: 'manual' });
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe(`/admin/${c.body.adminKey}?confirmed=1`);
      mails = await outbox(srv);
      expect(
        mails
          .filter((m) => /invites you/.test(m.subject))
          .map((m) => m.to)
          .sort(),
      ).toEqual(['bob@example.test', 'cy@example.test']);
      expect((await srv.api('GET', '/api/games')).body.open.map((g: { id: string }) => g.id)).toEqual([c.body.gameId]);
      expect(
        (await srv.api('POST', `/api/join/${c.body.inviteKey}`, { name: 'Bob', email: 'bob@example.test' })).status,
      ).toBe(201);
      // The link works once.
      expect((await fetch(link)).status).toBe(404);
    } finally {
      await srv.stop();
    }
  });

  it('holds creations to quotas per client and per organiser address, and invitations per receiving address', async () => {
    const srv = await serve(
      { quotas: { createsPerClientPerHour: 4, createsPerAddressPerDay: 2 } },
      { QUOTA_INVITES_PER_ADDRESS_DAY: '1' },
    );
    try {
      expect((await create(srv, { email: 'a1@example.test' })).status).toBe(201);
      expect((await create(srv, { email: 'a1@example.test' })).status).toBe(201);
      const third = await create(srv, { email: 'a1@example.test' });
      expect(third.status).toBe(429);
      expect(third.body.error).toMatch(/a day/);
      expect((await create(srv, { email: 'a2@example.test' })).status).toBe(201);
      const fifth = await create(srv, { email: 'a3@example.test' });
      expect(fifth.status).toBe(429);
      expect(fifth.body.error).toMatch(/this hour/);
      // Two confirmed games invite bob: he gets one invitation today.
      const mails = await outbox(srv);
      for (const m of mails) {
        const link = /(http:\/\/\S+\/confirm\/[A-Za-z0-9_-]+)/.exec(m.text)?.[1];
        if (link) await fetch(link, { method: 'POST', redirect: 'manual' });
      }
      const invites = (await outbox(srv)).filter((m) => /invites you/.test(m.subject));
      expect(invites.filter((m) => m.to === 'bob@example.test')).toHaveLength(1);
    } finally {
      await srv.stop();
    }
  });

  it('ends games nobody confirms or joins, quietly for the unconfirmed, and lists them no more', async () => {
    const srv = await serve();
    try {
      const unconfirmed = await create(srv, { invite: [] });
      const confirmedOpen = await create(srv, { invite: [], email: 'org@example.test' });
      const setUp = (await outbox(srv)).find((m) => m.to === 'org@example.test')!;
      await fetch(/(http:\/\/\S+\/confirm\/[A-Za-z0-9_-]+)/.exec(setUp.text)![1]!, {
        method: 'POST',
        redirect: 'manual',
      });
      srv.clock.advanceHours(49);
      expect(await srv.service.expireStale()).toEqual([unconfirmed.body.gameId]);
      expect((await srv.service.entry(unconfirmed.body.gameId))!.status).toBe('abandoned');
      expect((await srv.api('GET', `/api/join/${unconfirmed.body.inviteKey}`)).status).toBe(404);
      srv.clock.advanceHours(30 * 24);
      expect(await srv.service.expireStale()).toEqual([confirmedOpen.body.gameId]);
      expect((await srv.api('GET', '/api/games')).body.open).toEqual([]);
      const mails = await outbox(srv);
      expect(mails.filter((m) => m.to === 'ada@example.test')).toHaveLength(1); // the set-up mail only
      expect(mails.filter((m) => m.to === 'org@example.test' && /abandoned/i.test(m.subject))).toHaveLength(1);
    } finally {
      await srv.stop();
    }
  });
});
