// The mail cursor in PostgreSQL (with DATABASE_URL; the file one is cursor.ts):
// per game, the log position up to which the mail of every entry has been
// queued, shared by every process: the column games.mail_seq, with a partial
// index on the games whose log is past it (games_mail_behind).
// With several processes a position handled live by one process says nothing
// about positions another process was handling when it died, so live events
// never move the shared cursor (begin() is a no-op); only reconcile does,
// which hears every entry past the cursor again, whichever process wrote it
// (every mail is keyed by the entry it answers, so hearing an entry twice
// queues nothing twice). Every process reconciles every few seconds
// (createMailer's reconcileEveryMs), asking only for the games behind (behind()),
// so the mail of a move acknowledged by a process killed before it queued
// that mail is queued by another.
import type pg from 'pg';
import { indexRowOf, STORED_GAME, type StoredGame } from '../store/pg-store.ts';
import type { IndexEntry } from '../store/types.ts';

/** Games handed to one reconcile at most (the rest wait for the next). */
const BEHIND_MAX = 2000;

export class PgMailCursor {
  private marks = new Map<string, number>();
  private dirty = new Map<string, number>();

  constructor(private readonly pool: pg.Pool) {}

  /** Always "known": a database starts empty, and copy-store marks the games it brings as mailed. */
  async load(): Promise<boolean> {
    return true;
  }

  /** The games whose log is past their cursor (index rows), remembering their positions for get(). */
  async behind(): Promise<IndexEntry[]> {
    const r = await this.pool.query<StoredGame & { mail_seq: number }>(
      `SELECT ${STORED_GAME}, g.mail_seq FROM games g JOIN game_meta m ON m.game_id = g.id
       WHERE g.last_seq > g.mail_seq LIMIT ${BEHIND_MAX}`,
    );
    return r.rows.map((x) => {
      const row = indexRowOf(x);
      this.marks.set(row.id, Math.max(x.mail_seq, this.marks.get(row.id) ?? 0));
      return row;
    });
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
        `UPDATE games SET mail_seq = GREATEST(mail_seq, t.s) FROM unnest($1::text[], $2::int[]) AS t(g, s)
         WHERE games.id = t.g`,
        [rows.map((r) => r[0]), rows.map((r) => r[1])],
      );
    } catch (err) {
      for (const [g, s] of rows) if ((this.dirty.get(g) ?? -1) < s) this.dirty.set(g, s);
      throw err;
    }
    if (this.marks.size > 50_000) this.marks.clear();
  }
}
