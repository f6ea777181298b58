// Warm connections. A new PostgreSQL connection is a new server process, whose caches of
// tables, indexes, types and functions start empty: the first time it runs a statement it reads
// them from the catalogs, which cost the reminder tick 13-22 ms for its first SELECT of due games
// (1-3.5 ms warm) and 8-12 ms for its first INSERT of mail, on a process's first tick. So every
// connection the store's pool opens runs, before it serves anything, the statements the process
// will run on its busy paths, each once with inputs that match nothing (no row read or written,
// no transaction id taken), and the store opens a few such connections when it opens (pg-store.ts).
// The modules that share the store's pool (the mail queue) add their statements here.
import type pg from 'pg';

/** A statement as the process runs it, with inputs that make it a no-op. */
export interface Warmup {
  text: string;
  values: unknown[];
}

const byPool = new WeakMap<pg.Pool, Warmup[]>();

/** Adds statements every new connection of this pool runs once before it serves. */
export function warmWith(pool: pg.Pool, ...statements: Warmup[]): void {
  const list = byPool.get(pool) ?? [];
  list.push(...statements);
  byPool.set(pool, list);
}

/**
 * Runs the pool's warm-up statements on one of its connections, one after the other (outside any
 * transaction, so one that fails does not stop the others); throws the first failure at the end.
 */
export async function warmConnection(pool: pg.Pool, client: pg.ClientBase): Promise<void> {
  let failed: unknown = null;
  for (const w of byPool.get(pool) ?? []) {
    try {
      await client.query(w.text, w.values);
    } catch (err) {
      failed ??= err;
    }
  }
  if (failed) throw failed;
}
