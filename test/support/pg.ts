// The PostgreSQL suites' helpers. Each test gets a schema of its own (a fresh,
// empty store) on the database pg-setup.ts found; `describePg` skips the suite
// when there is none.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject } from 'vitest';

export function pgUrl(): string {
  return inject('pgUrl');
}

/** describe() when a PostgreSQL server is reachable, describe.skip() otherwise (pg-setup.ts said so once). */
export const describePg: typeof describe = ((...args: Parameters<typeof describe>) =>
  pgUrl() ? describe(...args) : describe.skip(...args)) as typeof describe;

/** A new schema name for one test's store (created by the store's migrations). */
export function newSchema(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgUrl() });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await c.end();
  }
}
