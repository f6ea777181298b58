// The POST rate limit's counters in PostgreSQL (server/http/pg-rate-limit.ts): requests made at
// the same moment share one statement, and every one of them is counted, once, across stores
// (processes). Skipped without PostgreSQL.
import { expect, it } from 'vitest';
import type { Options } from 'express-rate-limit';
import { PgRateLimitStore } from '../../server/http/pg-rate-limit.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

describePg('POST rate limit on PostgreSQL', () => {
  it('counts every request made at once, each seeing its own count, across two processes', async () => {
    const schema = newSchema();
    const stores = [new PgGameStore({ url: pgUrl(), schema }), new PgGameStore({ url: pgUrl(), schema })];
    await Promise.all(stores.map((s) => s.open()));
    const limits = stores.map((s) => new PgRateLimitStore(s.pool));
    for (const l of limits) l.init({ windowMs: 60_000 } as Options);
    try {
      // 40 requests from one client and 10 from another, at the same moment, through two processes.
      const calls = [
        ...Array.from({ length: 40 }, (_, i) => limits[i % 2]!.increment('203.0.113.7')),
        ...Array.from({ length: 10 }, (_, i) => limits[i % 2]!.increment('198.51.100.2')),
      ];
      const hits = await Promise.all(calls);
      // Each request saw a different count: 1 to 40 for the first client, 1 to 10 for the other.
      expect(
        hits
          .slice(0, 40)
          .map((h) => h.totalHits)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(
        hits
          .slice(40)
          .map((h) => h.totalHits)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect((await limits[1]!.get('203.0.113.7'))?.totalHits).toBe(40);
      expect((await limits[0]!.increment('198.51.100.2')).totalHits).toBe(11);
      await limits[0]!.resetKey('203.0.113.7');
      expect(await limits[1]!.get('203.0.113.7')).toBeUndefined();
      expect((await limits[1]!.increment('203.0.113.7')).totalHits).toBe(1);
    } finally {
      for (const l of limits) l.shutdown();
      await Promise.all(stores.map((s) => s.close()));
      await dropSchema(schema);
    }
  });

  it('starts a new window once the old one has run out', async () => {
    const schema = newSchema();
    const store = new PgGameStore({ url: pgUrl(), schema });
    await store.open();
    const limit = new PgRateLimitStore(store.pool);
    limit.init({ windowMs: 300 } as Options);
    try {
      await Promise.all([limit.increment('a'), limit.increment('a'), limit.increment('a')]);
      expect((await limit.get('a'))?.totalHits).toBe(3);
      await new Promise((r) => setTimeout(r, 350));
      const [x, y] = await Promise.all([limit.increment('a'), limit.increment('a')]);
      expect([x!.totalHits, y!.totalHits].sort()).toEqual([1, 2]);
    } finally {
      limit.shutdown();
      await store.close();
      await dropSchema(schema);
    }
  });
});
