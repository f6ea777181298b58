// Issue 13, items 4 and 5. Cross-site forms: a page on another site cannot make
// its visitors' browsers create games, join, move or change anything here; the
// refusal explains itself. Behind a proxy: X-Forwarded-For is believed only
// from a proxy named in TRUST_PROXY; the outbox opens to the client's real
// address, and rate limits count per real client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailPlugin } from '../../server/mail/plugin.ts';
import { keyedRoutes } from '../support/routes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const EVIL = 'https://evil.example';

describe('cross-site requests', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ plugins: [mailPlugin({ env: {}, cron: false })] });
  });
  afterAll(async () => {
    await srv?.stop();
  });

  const post = (path: string, headers: Record<string, string>, body: Record<string, string>) =>
    fetch(srv.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString(),
      redirect: 'manual',
    });
  const newGame = {
    rules: 'high-card',
    seats: '2',
    name: 'Ada',
    email: 'ada@example.test',
    join: 'on',
    remindAfterHours: '24',
    repeatHours: '24',
    maxReminders: '3',
    onTimeout: 'notify',
  };

  it('refuses a form posted from another site, with a page that says why, and changes nothing', async () => {
    const before = (await srv.service.list()).length;
    for (const headers of <Record<string, string>[]>[
      { origin: EVIL },
      { 'sec-fetch-site': 'cross-site', origin: EVIL },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
    ]) {
      const res = await post('/new', headers, newGame);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const text = await res.text();
      expect(text).toContain('not from a page of this server');
      expect(text).toContain(srv.url);
    }
    const api = await fetch(`${srv.url}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: EVIL },
      body: JSON.stringify({ ...newGame, seats: 2, join: true }),
    });
    expect(api.status).toBe(403);
    expect(((await api.json()) as { error: string }).error).toMatch(/another web site|evil\.example/);
    expect((await srv.service.list()).length).toBe(before);
  });

  it('refuses every keyed state change from another site, and takes the same from its own pages', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const seq = (await srv.state(g.seats[0]!.key)).game.seq;
    const lastSeq = async () => (await srv.service.entry(g.gameId))!.lastSeq;
    const before = await lastSeq();
    for (const key of [g.seats[0]!.key, g.adminKey, g.inviteKey])
      for (const r of keyedRoutes(key, seq).filter((x) => x.method === 'POST')) {
        const res = await fetch(srv.url + r.path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: EVIL, 'sec-fetch-site': 'cross-site' },
          body: JSON.stringify(r.body ?? {}),
        });
        expect(res.status, r.path).toBe(403);
      }
    expect(await lastSeq()).toBe(before);
    const own = await post(
      `/play/${g.seats[0]!.key}/move`,
      { origin: srv.url, 'sec-fetch-site': 'same-origin' },
      {
        seq: String(seq),
        n: '0',
      },
    );
    expect(own.status).toBe(303);
    // Scripts send neither header: the API stays usable from them.
    expect((await post('/new', {}, newGame)).status).toBe(303);
  });
});

describe('behind a reverse proxy', () => {
  it('without TRUST_PROXY: a forwarded request never opens the outbox', async () => {
    const srv = await startTestServer({ plugins: [mailPlugin({ env: {}, cron: false })] });
    try {
      expect((await fetch(`${srv.url}/outbox`)).status).toBe(200);
      const proxied = await fetch(`${srv.url}/outbox`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(proxied.status).toBe(404);
    } finally {
      await srv.stop();
    }
  });

  it('with TRUST_PROXY=loopback: the outbox and rate limits go by the real client address', async () => {
    const srv = await startTestServer({
      trustProxy: 'loopback',
      postLimit: { windowMs: 60_000, limit: 3 },
      plugins: [mailPlugin({ env: {}, cron: false })],
    });
    try {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      expect((await fetch(`${srv.url}/outbox`, { headers: from('203.0.113.9') })).status).toBe(404);
      expect((await fetch(`${srv.url}/outbox`, { headers: from('127.0.0.1') })).status).toBe(200);
      const create = (ip: string) =>
        fetch(`${srv.url}/api/games`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...from(ip) },
          body: JSON.stringify({ rules: 'high-card', seats: 2, name: 'Ada', email: 'ada@example.test' }),
        });
      for (let i = 0; i < 3; i++) expect((await create('198.51.100.1')).status).toBe(201);
      expect((await create('198.51.100.1')).status).toBe(429);
      expect((await create('198.51.100.2')).status).toBe(201);
    } finally {
      await srv.stop();
    }
  });
});
