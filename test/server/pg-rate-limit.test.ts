// The POST rate limit's counters in PostgreSQL (server/http/pg-rate-limit.ts): each process counts
// in memory and adds its counts to the table in batches; a client's requests count across every
// process (each learns the others' counts at its own flush), and the limit refuses on the total.
// Skipped without PostgreSQL.
import express from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { PgRateLimitStore } from '../../server/http/pg-rate-limit.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

describePg('POST rate limit on PostgreSQL', () => {
  it('counts a client once across two processes, without a statement per request', async () => {
    const schema = newSchema();
    const stores = [new PgGameStore({ url: pgUrl(), schema }), new PgGameStore({ url: pgUrl(), schema })];
    await Promise.all(stores.map((s) => s.open()));
    // Flushed only when the test says so (the interval is an hour here).
    const [a, b] = stores.map((s) => new PgRateLimitStore(s.pool, 'post:', 3_600_000));
    for (const l of [a!, b!]) l.init({ windowMs: 60_000, limit: 1000 } as Options);
    const queries = stores.map((s) => {
      let n = 0;
      const query = s.pool.query.bind(s.pool);
      s.pool.query = ((...args: Parameters<typeof query>) => {
        n++;
        return query(...args);
      }) as typeof query;
      return () => n;
    });
    try {
      // 40 requests from one client and 10 from another, half through each process: each process
      // knows its own counts at once, with no statement sent.
      const seen = { a: [] as number[], b: [] as number[] };
      for (let i = 0; i < 20; i++) {
        seen.a.push((await a!.increment('203.0.113.7')).totalHits);
        seen.b.push((await b!.increment('203.0.113.7')).totalHits);
      }
      for (let i = 0; i < 5; i++) {
        await a!.increment('198.51.100.2');
        await b!.increment('198.51.100.2');
      }
      expect(seen.a).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(seen.b).toEqual(seen.a);
      expect(queries.map((q) => q())).toEqual([0, 0]);

      // One statement per flush, for every key counted since. Once both have flushed, the table
      // holds every count, and each process counts on from what it learned at its last flush.
      await a!.flush();
      await b!.flush();
      expect(queries.map((q) => q())).toEqual([1, 1]);
      expect((await a!.get('203.0.113.7'))?.totalHits).toBe(40);
      expect((await b!.get('198.51.100.2'))?.totalHits).toBe(10);
      expect((await b!.increment('203.0.113.7')).totalHits).toBe(41);
      // The first process flushed before the second: it knows its own five (and this one) until
      // its next flush tells it the other's.
      expect((await a!.increment('198.51.100.2')).totalHits).toBe(6);
      await a!.flush();
      expect((await a!.increment('198.51.100.2')).totalHits).toBe(12);

      await b!.flush();
      await a!.resetKey('203.0.113.7');
      expect(await b!.get('203.0.113.7')).toBeUndefined();
      expect((await a!.increment('203.0.113.7')).totalHits).toBe(1);
    } finally {
      for (const l of [a!, b!]) await l.shutdown();
      await Promise.all(stores.map((s) => s.close()));
      await dropSchema(schema);
    }
  });

  it('refuses a client past the limit through either process, on the counts of both', async () => {
    const schema = newSchema();
    const stores = [new PgGameStore({ url: pgUrl(), schema }), new PgGameStore({ url: pgUrl(), schema })];
    await Promise.all(stores.map((s) => s.open()));
    const limits = stores.map((s) => new PgRateLimitStore(s.pool));
    // Two "processes": the same middleware (5 POSTs a minute) on each of two stores.
    const servers = await Promise.all(
      limits.map(
        (store) =>
          new Promise<{ url: string; close: () => void }>((resolve) => {
            const app = express();
            app.use(rateLimit({ windowMs: 60_000, limit: 5, store, validate: { xForwardedForHeader: false } }));
            app.post('/x', (_req, res) => {
              res.send('ok');
            });
            const server = app.listen(0, '127.0.0.1', () =>
              resolve({
                url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
                close: () => server.close(),
              }),
            );
          }),
      ),
    );
    try {
      // Alternating between the processes, each flushing after the request (as its interval does):
      // a process learns the other's counts at its own flush, so the limit is reached together.
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        statuses.push((await fetch(`${servers[i % 2]!.url}/x`, { method: 'POST' })).status);
        await limits[i % 2]!.flush();
      }
      // Five a minute: the sixth request went to a process that had last heard of four (the
      // other's fifth came after its own flush): one over, the bound of two processes and one
      // flush interval. From the seventh on, both refuse.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      const table = await stores[0]!.pool.query<{ hits: number }>('SELECT hits FROM rate_limits');
      expect(table.rows.map((r) => r.hits)).toEqual([8]);
    } finally {
      for (const s of servers) s.close();
      for (const l of limits) await l.shutdown();
      await Promise.all(stores.map((s) => s.close()));
      await dropSchema(schema);
    }
  });

  it('starts a new window once the old one has run out', async () => {
    const schema = newSchema();
    const store = new PgGameStore({ url: pgUrl(), schema });
    await store.open();
    const limit = new PgRateLimitStore(store.pool);
    limit.init({ windowMs: 300, limit: 100 } as Options);
    try {
      await Promise.all([limit.increment('a'), limit.increment('a'), limit.increment('a')]);
      expect((await limit.get('a'))?.totalHits).toBe(3);
      await new Promise((r) => setTimeout(r, 350));
      const [x, y] = await Promise.all([limit.increment('a'), limit.increment('a')]);
      expect([x!.totalHits, y!.totalHits].sort()).toEqual([1, 2]);
      expect((await limit.get('a'))?.totalHits).toBe(2);
    } finally {
      await limit.shutdown();
      await store.close();
      await dropSchema(schema);
    }
  });
});
