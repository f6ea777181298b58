// The PostgreSQL store against the GameStore contract, and two stores on one database as two
// processes have them (skipped without PostgreSQL: test/support/pg-setup.ts).
import { expect, it } from 'vitest';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { warmIdle, warmWith } from '../../server/store/pg-warm.ts';
import { StaleSeqError, type LogEntry } from '../../server/store/types.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';
import { entriesAfter, metaFor, storeContract } from './store-contract.ts';

describePg('PostgreSQL store', () => {
  storeContract('postgresql', async () => {
    const schema = newSchema();
    const stores: PgGameStore[] = [new PgGameStore({ url: pgUrl(), schema })];
    await stores[0]!.open();
    return {
      store: stores[0]!,
      async reopen() {
        await stores[stores.length - 1]!.close();
        const next = new PgGameStore({ url: pgUrl(), schema });
        await next.open();
        stores.push(next);
        return next;
      },
      async cleanup() {
        await stores[stores.length - 1]!.close();
        await dropSchema(schema);
      },
    };
  });

  it('appends of many games in one statement: a game another process wrote meanwhile is refused, the others land', async () => {
    const schema = newSchema();
    const a = new PgGameStore({ url: pgUrl(), schema });
    const b = new PgGameStore({ url: pgUrl(), schema });
    try {
      await Promise.all([a.open(), b.open()]);
      const games = Array.from({ length: 12 }, () => ({ meta: metaFor(), log: [] as LogEntry[] }));
      await Promise.all(games.map((g) => a.create(g.meta, entriesAfter(g.log, 1))));
      // B changes game 3's metadata (its row's version moves; the seq does not), and appends to game 7.
      await b.append(games[3]!.meta.id, { expectedSeq: 1, entries: [], meta: { attention: 'set by b' } });
      await b.append(games[7]!.meta.id, { expectedSeq: 1, entries: entriesAfter(games[7]!.log, 1) });
      // A, which remembers every game as it created it, appends to all twelve at once.
      const results = await Promise.allSettled(
        games.map((g, i) =>
          a.append(g.meta.id, { expectedSeq: 1, entries: entriesAfter(i === 7 ? g.log.slice(0, 1) : g.log, 1) }),
        ),
      );
      results.forEach((r, i) => {
        if (i === 7) expect(r.status === 'rejected' && r.reason).toBeInstanceOf(StaleSeqError);
        else expect(r.status).toBe('fulfilled');
      });
      // Game 3 was written on its fresh row: B's change is kept.
      expect(await b.readMeta(games[3]!.meta.id)).toMatchObject({ attention: 'set by b' });
      for (const g of games) expect(await b.readLog(g.meta.id)).toEqual(g.log);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await dropSchema(schema);
    }
  });

  it('two stores on one database (two processes): each sees the other, neither writes over the other', async () => {
    const schema = newSchema();
    const a = new PgGameStore({ url: pgUrl(), schema });
    const b = new PgGameStore({ url: pgUrl(), schema });
    try {
      await Promise.all([a.open(), b.open()]); // migrations under the advisory lock, once
      const meta = metaFor();
      const log: LogEntry[] = [];
      await a.create(meta, entriesAfter(log, 1));
      expect(await b.readMeta(meta.id)).toEqual(meta);
      // A appends (it remembers the game); B, which read it before, appends on the old seq: refused.
      await a.append(meta.id, { expectedSeq: 1, entries: entriesAfter(log, 1), meta: { title: 'by a' } });
      const stale = entriesAfter(log.slice(0, 1), 1);
      await expect(b.append(meta.id, { expectedSeq: 1, entries: stale })).rejects.toBeInstanceOf(StaleSeqError);
      // B changes metadata only (seq unchanged); A's next append keeps B's change and its own.
      await b.append(meta.id, { expectedSeq: 2, entries: [], meta: { attention: 'set by b' } });
      await a.append(meta.id, { expectedSeq: 2, entries: entriesAfter(log, 1), meta: { listed: false } });
      expect(await b.readMeta(meta.id)).toMatchObject({ title: 'by a', attention: 'set by b', listed: false });
      expect(await b.readLog(meta.id)).toEqual(log);
      expect(await a.entry(meta.id)).toMatchObject({ lastSeq: 3, attention: 'set by b', listed: false });
      // Both at once on the same seq, from the two stores: one lands.
      const tries = [a, b].map((s) => s.append(meta.id, { expectedSeq: 3, entries: entriesAfter([...log], 1) }));
      const results = await Promise.allSettled(tries);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await a.readLog(meta.id)).toHaveLength(4);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await dropSchema(schema);
    }
  });

  it('warms its connections with statements that change nothing; one that fails is reported, and the connection serves', async () => {
    const schema = newSchema();
    const problems: string[] = [];
    const store = new PgGameStore({ url: pgUrl(), schema, onProblem: (m) => problems.push(m) });
    try {
      warmWith(store.pool, { text: 'SELECT no_such_column FROM games', values: [] });
      // One that writes and rolls back (as game_log's key check is warmed), failing: the
      // connection is not left inside its transaction.
      warmWith(store.pool, {
        text: 'INSERT INTO game_log (game_id, seq, entry) VALUES ($1, 1, $2)',
        values: ['no-such-game', ''],
        rollback: true,
      });
      await store.open();
      // The connections opened with the store ran the warm-ups (the broken one failed on each).
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.every((m) => m.startsWith('warming a database connection'))).toBe(true);
      expect(store.pool.totalCount).toBeGreaterThan(1);
      const meta = metaFor();
      const log: LogEntry[] = [];
      await store.create(meta, entriesAfter(log, 2));
      expect(await store.readLog(meta.id)).toEqual(log);
      // Connections opened now that a game exists (whose warm-up writes a log row for it and
      // rolls it back) serve outside any transaction, and see only what was written.
      const clients = await Promise.all(Array.from({ length: 8 }, () => store.pool.connect()));
      try {
        for (const c of clients) {
          const r = await c.query<{ log: number; txid: string | null }>(
            'SELECT (SELECT count(*) FROM game_log)::int AS log, txid_current_if_assigned()::text AS txid',
          );
          expect(r.rows[0]).toEqual({ log: 2, txid: null });
        }
      } finally {
        for (const c of clients) c.release();
      }
      // Nothing was written but the game.
      const n = await store.pool.query<{ games: number; log: number }>(
        'SELECT (SELECT count(*) FROM games)::int AS games, (SELECT count(*) FROM game_log)::int AS log',
      );
      expect(n.rows[0]).toEqual({ games: 1, log: 2 });
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });
  it('warms the connections it already opened with what a module sharing its pool adds later', async () => {
    const schema = newSchema();
    const store = new PgGameStore({ url: pgUrl(), schema });
    try {
      await store.open();
      const opened = store.pool.idleCount;
      expect(opened).toBeGreaterThan(1);
      // As the mail queue does when it starts: a statement of its own, on the connections open.
      warmWith(store.pool, { text: "SELECT set_config('pbem.warmed', 'yes', false)", values: [] });
      await warmIdle(store.pool);
      const clients = await Promise.all(Array.from({ length: opened + 1 }, () => store.pool.connect()));
      try {
        for (const c of clients) {
          const r = await c.query<{ w: string | null }>("SELECT current_setting('pbem.warmed', true) AS w");
          expect(r.rows[0]?.w).toBe('yes');
        }
      } finally {
        for (const c of clients) c.release();
      }
    } finally {
      await store.close();
      await dropSchema(schema);
    }
  });
});
