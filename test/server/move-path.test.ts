// The move routes take a lean path (server/http/move-path.ts) past express's walk through the
// other middleware and routes. Every check the app makes on a POST still applies to them, with
// the same answers: the headers, the rate limit (one budget with every other POST), the
// same-site refusal, the 64 kB body limit, the nesting check, the JSON check. Paths spelled
// another way still reach the same handlers through express.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestGame, type TestServer } from '../support/server.ts';

let srv: TestServer;
let g: TestGame;

beforeAll(async () => {
  srv = await startTestServer({ trustProxy: 'loopback', postLimit: { windowMs: 60_000, limit: 1000 } });
  g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
});
afterAll(async () => srv?.stop());

const lastSeq = async () => (await srv.service.entry(g.gameId))!.lastSeq;
/** The seat to act now: its key and the seq its move is made against. */
async function toAct(): Promise<{ key: string; seq: number }> {
  for (const s of g.seats) {
    const st = await srv.state(s.key);
    if (st.yourTurn) return { key: s.key, seq: st.game.seq };
  }
  throw new Error('nobody to act');
}
function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(srv.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

describe('the lean path of the move routes', () => {
  it('plays a move at /api/play, /api/v1/play and the form, with the headers every answer has', async () => {
    let { key, seq } = await toAct();
    const api = await post(`/api/play/${key}/move`, JSON.stringify({ seq, n: 0 }));
    expect(api.status).toBe(200);
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(api.headers.get('cache-control')).toBe('no-store');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('ratelimit-policy')).toBe('1000;w=60');
    expect(((await api.json()) as { seq: number }).seq).toBeGreaterThan(seq);
    ({ key, seq } = await toAct());
    const v1 = await post(`/api/v1/play/${key}/move`, JSON.stringify({ seq, n: 0 }));
    expect(v1.status).toBe(200);
    ({ key, seq } = await toAct());
    const form = await fetch(`${srv.url}/play/${key}/move`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `seq=${seq}&n=0`,
      redirect: 'manual',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(`/play/${key}`);
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  });

  it('answers a refused form move with the play page, its script nonce in its headers', async () => {
    const { key } = await toAct();
    const res = await fetch(`${srv.url}/play/${key}/move`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'seq=0&n=0',
    });
    expect(res.status).toBe(409);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    const html = await res.text();
    expect(html).toContain('The game has moved on');
    for (const m of html.matchAll(/<script[^>]*nonce="([^"]+)"/g)) expect(m[1]).toBe(nonce);
  });

  it('refuses a move from another site, too large, nested too deep or not JSON, and plays nothing', async () => {
    const { key, seq } = await toAct();
    const before = await lastSeq();
    const body = JSON.stringify({ seq, n: 0 });
    for (const path of [`/api/play/${key}/move`, `/api/v1/play/${key}/move`]) {
      const cross = await post(path, body, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
      expect(cross.status).toBe(403);
      expect(((await cross.json()) as { error: string }).error).toMatch(/another web site/);
      const big = await post(path, JSON.stringify({ seq, n: 0, pad: 'x'.repeat(70_000) }));
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ error: 'The request is too large.' });
      const deep = await post(path, `{"seq":${seq},"action":${'['.repeat(40)}${']'.repeat(40)}}`);
      expect(deep.status).toBe(400);
      expect(((await deep.json()) as { error: string }).error).toMatch(/nests more than 32 levels/);
      const broken = await post(path, '{"seq":');
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({ error: 'The request body is not valid JSON.' });
      const unknown = await post(`/api/play/${'A'.repeat(24)}/move`, body);
      expect(unknown.status).toBe(404);
    }
    const crossForm = await fetch(`${srv.url}/play/${key}/move`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: `seq=${seq}&n=0`,
    });
    expect(crossForm.status).toBe(403);
    expect(crossForm.headers.get('content-type')).toMatch(/text\/html/);
    const bigForm = await fetch(`${srv.url}/play/${key}/move`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `seq=${seq}&n=0&pad=${'x'.repeat(70_000)}`,
    });
    expect(bigForm.status).toBe(413);
    expect(await lastSeq()).toBe(before);
  });

  it('leaves paths spelled another way to express, which plays them the same', async () => {
    let { key, seq } = await toAct();
    const slash = await post(`/api/play/${key}/move/`, JSON.stringify({ seq, n: 0 }));
    expect(slash.status).toBe(200);
    ({ key, seq } = await toAct());
    const upper = await post(`/API/PLAY/${key}/MOVE`, JSON.stringify({ seq, n: 0 }));
    expect(upper.status).toBe(200);
    const badEscape = await post('/api/play/%E0%A4%A/move', JSON.stringify({ seq, n: 0 }));
    expect(badEscape.status).toBe(400);
  });
});

describe("the move routes' JSON bodies", () => {
  // A plain JSON body is read without body-parser (http/json-body.ts); any other still goes
  // through the parsers. Both must take and refuse the same bodies with the same answers.
  it('takes a plain body with or without a charset, a byte-order mark or leading white space', async () => {
    for (const [type, text] of [
      ['application/json; charset=utf-8', (seq: number) => JSON.stringify({ seq, n: 0 })],
      ['Application/JSON', (seq: number) => `\ufeff${JSON.stringify({ seq, n: 0 })}`],
      ['application/json', (seq: number) => ` \r\n\t${JSON.stringify({ seq, n: 0 })}`],
    ] as const) {
      const { key, seq } = await toAct();
      const res = await post(`/api/play/${key}/move`, text(seq), { 'content-type': type });
      expect(res.status, type).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      // A POST's answer is kept by no cache: no ETag is hashed for it.
      expect(res.headers.get('etag')).toBeNull();
      const answer = (await res.json()) as { seq: number; status: string; toAct: number[] };
      expect(answer.seq).toBeGreaterThan(seq);
      expect(answer.status).toBe('active');
      expect(Array.isArray(answer.toAct)).toBe(true);
    }
  });

  it('takes a compressed body through the parsers', async () => {
    const { key, seq } = await toAct();
    const res = await fetch(`${srv.url}/api/play/${key}/move`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ seq, n: 0 })),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { seq: number }).seq).toBeGreaterThan(seq);
  });

  it('refuses a body that is not a JSON object, or in another charset, and plays nothing', async () => {
    const { key, seq } = await toAct();
    const before = await lastSeq();
    for (const body of ['5', '"move"', 'null', ' true', '{"seq":1}}', `{"seq":${seq},"n":0`]) {
      const res = await post(`/api/play/${key}/move`, body);
      expect(res.status, body).toBe(400);
      expect(await res.json()).toEqual({ error: 'The request body is not valid JSON.' });
    }
    const latin = await post(`/api/play/${key}/move`, JSON.stringify({ seq, n: 0 }), {
      'content-type': 'application/json; charset=latin1',
    });
    expect(latin.status).toBe(415);
    expect(await lastSeq()).toBe(before);
  });
});

describe('the rate limit on the lean path', () => {
  it('counts moves with every other POST of the same address', async () => {
    const limited = await startTestServer({ trustProxy: 'loopback', postLimit: { windowMs: 60_000, limit: 3 } });
    try {
      const game = await limited.createGame({ rules: 'high-card', players: ['Cy', 'Di'] });
      const from = { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' };
      const create = () =>
        fetch(`${limited.url}/api/games`, {
          method: 'POST',
          headers: from,
          body: JSON.stringify({ rules: 'high-card', seats: 2, name: 'Ed', email: 'ed@example.test' }),
        });
      const move = () =>
        fetch(`${limited.url}/api/play/${game.seats[0]!.key}/move`, {
          method: 'POST',
          headers: from,
          body: JSON.stringify({ seq: 0, n: 0 }),
        });
      expect((await create()).status).toBe(201);
      expect((await create()).status).toBe(201);
      expect((await move()).status).not.toBe(429);
      const refused = await move();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: string }).error).toMatch(/Too many requests/);
      expect((await create()).status).toBe(429);
      // Another address has its own budget.
      const other = await fetch(`${limited.url}/api/play/${game.seats[0]!.key}/move`, {
        method: 'POST',
        headers: { ...from, 'x-forwarded-for': '198.51.100.8' },
        body: JSON.stringify({ seq: 0, n: 0 }),
      });
      expect(other.status).not.toBe(429);
    } finally {
      await limited.stop();
    }
  });
});
