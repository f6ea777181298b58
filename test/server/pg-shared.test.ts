// Two servers on one PostgreSQL database share what a client meets: the secret (a link made on
// one opens on the other), the creation quota and the POST rate limit. Skipped without PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { highCard } from '../support/high-card.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

async function post(url: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

describePg('two servers on one PostgreSQL database', () => {
  it('share the secret, the creation quota and the POST rate limit', async () => {
    const schema = newSchema();
    const dirs = [0, 1].map((i) => mkdtempSync(join(tmpdir(), `pbem-shared-${i}-`)));
    const start = (dataDir: string, postLimit: number) =>
      startServer({
        dataDir,
        store: new PgGameStore({ url: pgUrl(), schema }),
        registry: [highCard],
        port: 0,
        host: '127.0.0.1',
        logger: pino({ level: 'silent' }),
        quotas: { createsPerClientPerHour: 3, createsPerAddressPerDay: 100 },
        postLimit: { windowMs: 60_000, limit: postLimit },
      });
    const a = await start(dirs[0]!, 1000);
    const b = await start(dirs[1]!, 1000);
    try {
      const game = { rules: 'high-card', seats: 2, name: 'Ada', email: 'ada@example.test', join: true };
      const made = await post(a.url, '/api/games', game);
      expect(made.status).toBe(201);
      // The seat link made by A opens on B: both derive keys from the secret in the database.
      const page = await fetch(`${b.url}/api/play/${made.body.seatKey}`);
      expect(page.status).toBe(200);
      expect((await post(b.url, '/api/games', game)).status).toBe(201);
      expect((await post(a.url, '/api/games', game)).status).toBe(201);
      // The fourth game from this client this hour, on either server, is refused.
      const fourth = await post(b.url, '/api/games', game);
      expect(fourth.status).toBe(429);
      expect(fourth.body.error).toMatch(/created 3 games this hour/);
      expect((await post(a.url, '/api/games', game)).status).toBe(429);
    } finally {
      await a.stop();
      await b.stop();
    }
    // The POST limit counts across servers too: 5 a minute, alternating between them (counting
    // afresh: the POSTs above counted under the first servers' limit). A server adds its counts to
    // the table within its flush interval and learns the other's at its own flush (waited for
    // here): the sixth request, on a server that last heard of four, is one over (the bound of
    // two servers and one interval); from the seventh on both refuse.
    const c = await start(dirs[0]!, 5);
    const pool = (c.ctx.service.store as PgGameStore).pool;
    await pool.query('DELETE FROM rate_limits');
    const d = await start(dirs[1]!, 5);
    try {
      const statuses: number[] = [];
      for (const [i, s] of [c, d, c, d, c, d, c, d].entries()) {
        statuses.push((await post(s.url, '/api/join/nothing', { name: 'X' })).status);
        for (;;) {
          const r = await pool.query<{ n: string | null }>('SELECT sum(hits) AS n FROM rate_limits');
          if (Number(r.rows[0]!.n) === i + 1) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      expect(statuses.map((x) => x === 429)).toEqual([false, false, false, false, false, false, true, true]);
    } finally {
      await c.stop();
      await d.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      await dropSchema(schema);
    }
  });
});
