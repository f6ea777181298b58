// The PostgreSQL store against the GameStore contract, and two stores on one database as two
// processes have them (skipped without PostgreSQL: test/support/pg-setup.ts).
import { expect, it } from 'vitest';
import { PgGameStore } from '../../server/store/pg-store.ts';
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
});
