// A database written by the server before migration 007 (the whole metadata and index row in
// each games row) opens after it: its games are split into games.hot and game_meta, and play on
// from where they were, found by key, address and due time as before. Skipped without PostgreSQL.
import pg from 'pg';
import { expect, it } from 'vitest';
import { createLinks } from '../../server/links.ts';
import { GameService } from '../../server/service.ts';
import { indexEntryOf, mailHash } from '../../server/store/index-entry.ts';
import { migrate } from '../../server/store/pg-migrate.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { highCard } from '../support/high-card.ts';
import { fakeClock } from '../support/service.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

/** Brings a schema to migration level `count` (the server always goes to the newest). */
async function migrateTo(schema: string, count: number): Promise<void> {
  const c = new pg.Client({ connectionString: pgUrl() });
  await c.connect();
  try {
    await migrate(c, schema, { upTo: count });
  } finally {
    await c.end();
  }
}

describePg('PostgreSQL store: games written before 007 (whole rows)', () => {
  it('open, list, remind and play on after the migration', async () => {
    const made = newSchema();
    const old = newSchema();
    const clock = fakeClock();
    const links = createLinks(Buffer.alloc(32, 5), 'http://example.test');
    const policy = { remindAfterHours: 24, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' as const };
    const move = async (svc: GameService, gameId: string) => {
      const g = await svc.open(gameId);
      const seat = highCard.toAct(g.state!)[0]!;
      await svc.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state!, seat)[0] });
    };
    const maker = new PgGameStore({ url: pgUrl(), schema: made });
    let store: PgGameStore | null = null;
    try {
      // A real game, played a little, then written into a database at level 006 as that server wrote it.
      const a = new GameService({ store: maker, registry: [highCard], links, now: clock.now });
      await a.init();
      const { gameId } = await a.create({
        rules: 'high-card',
        seats: 2,
        name: 'Ada',
        email: 'ada@example.test',
        join: true,
        policy,
      });
      await a.join(gameId, { name: 'Bob', email: 'Bob@Example.test' });
      await move(a, gameId);
      const meta = (await maker.readMeta(gameId))!;
      const log = await maker.readLog(gameId);
      const row = indexEntryOf(meta, log.length, log[log.length - 1]!.hash);
      const there = await a.open(gameId);

      await migrateTo(old, 6);
      const c = new pg.Client({ connectionString: pgUrl(), options: `-c search_path=${old}` });
      await c.connect();
      try {
        await c.query(
          `INSERT INTO games (id, meta, row, last_seq, last_hash, status, listed, free_seat, updated_at, next_reminder_at, attention)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            gameId,
            meta,
            row,
            row.lastSeq,
            row.lastHash,
            'active',
            true,
            false,
            row.updatedAt,
            row.nextReminderAt,
            false,
          ],
        );
        await c.query(
          'INSERT INTO game_log (game_id, seq, entry) SELECT $1, s, e FROM unnest($2::int[], $3::text[]) AS t(s, e)',
          [gameId, log.map((e) => e.seq), log.map((e) => JSON.stringify(e))],
        );
        await c.query(`INSERT INTO game_keys SELECT * FROM "${made}".game_keys`);
      } finally {
        await c.end();
      }

      // The server of today opens that database: migrated at open, the game as it was.
      store = new PgGameStore({ url: pgUrl(), schema: old });
      const b = new GameService({ store, registry: [highCard], links, now: clock.now });
      await b.init();
      expect(await store.readMeta(gameId)).toEqual(meta);
      expect(await store.entry(gameId)).toEqual(row);
      expect(await store.findKey(meta.seats[1]!.keyHash)).toEqual({ gameId, role: 'seat', seat: 1 });
      const listed = await store.listGames({ mailHash: mailHash('bob@example.test') });
      expect(listed.entries.map((e) => e.id)).toEqual([gameId]);
      const opened = await b.open(gameId);
      expect(opened.state).toEqual(there.state);
      expect(opened.doc.log).toEqual(there.doc.log);

      // It plays on, and is reminded when its wait is long.
      await move(b, gameId);
      expect(await store.readLog(gameId)).toHaveLength(log.length + 1);
      clock.advanceHours(25);
      const due = await store.dueReminders(clock.now().toISOString());
      expect(due.map((e) => e.id)).toEqual([gameId]);
      await b.logReminder(due[0]!, { text: 'A reminder', data: {} });
      const after = (await store.readMeta(gameId))!;
      expect(after.wait?.reminders).toBe(1);
      expect(after.seats).toEqual(meta.seats);
      expect((await b.open(gameId)).doc.log).toHaveLength(log.length + 2);
    } finally {
      await maker.close();
      await store?.close();
      await dropSchema(made);
      await dropSchema(old);
    }
  });
});
