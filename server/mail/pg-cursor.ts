// The mail cursor in PostgreSQL (with DATABASE_URL; the file one is cursor.ts):
// per game, the log position up to which the mail of every entry has been
// queued, shared by every process (table mail_cursor).
// With several processes a position handled live by one process says nothing
// about positions another process was handling when it died, so live events
// never move the shared cursor (begin() is a no-op); only reconcile does,
// which hears every entry past the cursor again, whichever process wrote it
// (every mail is keyed by the entry it answers, so hearing an entry twice
// queues nothing twice). Every process reconciles every few seconds
// (createMailer's reconcileEveryMs), so the mail of a move acknowledged by a
// process killed before it queued that mail is queued by another.
import type pg from 'pg';

export class PgMailCursor {
  private marks = new Map<string, number>();
  private dirty = new Map<string, number>();

  constructor(private readonly pool: pg.Pool) {}

  /** Reads every game's position (again at each reconcile); always "known": a database starts empty. */
  async load(): Promise<boolean> {
    const r = await this.pool.query<{ game_id: string; seq: number }>('SELECT game_id, seq FROM mail_cursor');
    this.marks = new Map(r.rows.map((x) => [x.game_id, x.seq]));
    return true;
  }

  get(gameId: string): number | undefined {
    return this.marks.get(gameId);
  }

  set(gameId: string, seq: number): void {
    if ((this.marks.get(gameId) ?? -1) >= seq) return;
    this.marks.set(gameId, seq);
    this.dirty.set(gameId, seq);
  }

  begin(_gameId: string, _seq: number): (ok: boolean) => void {
    return () => {};
  }

  /** Writes the positions moved since the last save (never back: GREATEST). */
  async save(): Promise<void> {
    if (this.dirty.size === 0) return;
    const rows = [...this.dirty];
    this.dirty.clear();
    try {
      await this.pool.query(
        `INSERT INTO mail_cursor (game_id, seq) SELECT g, s FROM unnest($1::text[], $2::int[]) AS t(g, s)
         ON CONFLICT (game_id) DO UPDATE SET seq = GREATEST(mail_cursor.seq, EXCLUDED.seq)`,
        [rows.map((r) => r[0]), rows.map((r) => r[1])],
      );
    } catch (err) {
      for (const [g, s] of rows) if ((this.dirty.get(g) ?? -1) < s) this.dirty.set(g, s);
      throw err;
    }
  }
}
