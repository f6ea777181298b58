// Warm connections. A new PostgreSQL connection is a new server process, whose caches of
// tables, indexes, types and functions start empty: the first time it runs a statement it reads
// them from the catalogs, which cost the reminder tick 13-22 ms for its first SELECT of due games
// (1-3.5 ms warm) and 8-12 ms for its first INSERT of mail, on a process's first tick. So every
// connection the store's pool opens runs, before it serves anything, the statements the process
// will run on its busy paths, each once with inputs that match nothing (no row read or written,
// no transaction id taken), and the store opens a few such connections when it opens (pg-store.ts).
// Two of the store's warm what only real rows warm: the log's key check (a row written and rolled
// back: see `rollback`) and the pages of the games due next (read, not sent).
// The modules that share the store's pool (the mail queue) add their statements here.
import type pg from 'pg';

/** A statement as the process runs it, with inputs that make it a no-op. */
export interface Warmup {
  /** The prepared statement's name, where the process runs it by name. */
  name?: string;
  text: string;
  values: unknown[];
  /**
   * Run inside a transaction that is rolled back: for what only a row written warms, such as a
   * foreign key's check (its plan is made the first time a row is checked, and kept by the
   * connection: 4.5 ms of the server process's CPU on the first insert into game_log otherwise).
   */
  rollback?: boolean;
}

const byPool = new WeakMap<pg.Pool, Warmup[]>();
/** How many of its pool's warm-ups a connection has run (a module may add some after it opened). */
const warmed = new WeakMap<pg.ClientBase, number>();

/** Adds statements every new connection of this pool runs once before it serves. */
export function warmWith(pool: pg.Pool, ...statements: Warmup[]): void {
  const list = byPool.get(pool) ?? [];
  list.push(...statements);
  byPool.set(pool, list);
}

/**
 * Runs the pool's warm-up statements on one of its connections, one after the other (outside any
 * transaction, so one that fails does not stop the others), those it has not run yet; throws the
 * first failure at the end.
 */
export async function warmConnection(pool: pg.Pool, client: pg.ClientBase): Promise<void> {
  let failed: unknown = null;
  const list = byPool.get(pool) ?? [];
  const from = warmed.get(client) ?? 0;
  warmed.set(client, list.length);
  for (const w of list.slice(from)) {
    try {
      if (w.rollback) await client.query('BEGIN');
      try {
        await client.query({ name: w.name, text: w.text, values: w.values });
      } finally {
        if (w.rollback) await client.query('ROLLBACK');
      }
    } catch (err) {
      failed ??= err;
    }
  }
  if (failed) throw failed;
}

/**
 * Runs the warm-ups added since on the pool's idle connections: the store opens and warms a few
 * connections before the modules sharing its pool (the mail queue) add theirs, and a process's
 * first reminder tick runs on those. Failures are the caller's to report.
 */
export async function warmIdle(pool: pg.Pool): Promise<void> {
  const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
  try {
    await Promise.all(clients.map((c) => warmConnection(pool, c)));
  } finally {
    for (const c of clients) c.release();
  }
}
