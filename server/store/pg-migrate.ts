// The PostgreSQL schema: versioned migration files in ./pg-migrations
// (001_games.ts, 002_..., compiled to .js by the build), applied by
// node-pg-migrate when a store opens. node-pg-migrate takes a PostgreSQL
// advisory lock for the run, and we wait for it (advisoryLockMode 'wait'), so
// several server processes starting at once apply each migration once: the
// first runs it, the others find it done. A database migrated by a newer
// server (a migration this server has no file for) is refused with
// StoreFormatError before anything is written.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import type { ClientBase } from 'pg';
import { StoreFormatError } from './types.ts';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'pg-migrations');
export const MIGRATIONS_TABLE = 'pbem_migrations';
/** Source maps and dotfiles beside the migrations are not migrations. */
const IGNORE = '(\\..*|.*\\.map|.*\\.d\\.ts)';

/** Migration names this server knows (file names without extension), in order. */
export function knownMigrations(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d+_.*\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.(ts|js)$/, ''))
    .sort();
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Brings the schema `schema` up to date on this client's database (creating the schema if need
 * be). `upTo` stops after that many migrations: only the tests use it, to write a database as an
 * older server left it.
 */
export async function migrate(
  client: ClientBase,
  schema: string,
  opts: { onProblem?: (m: string) => void; upTo?: number } = {},
): Promise<void> {
  const { onProblem, upTo } = opts;
  const known = new Set(knownMigrations());
  const table = await client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [
    `${quoteIdent(schema)}.${MIGRATIONS_TABLE}`,
  ]);
  if (table.rows[0]?.exists) {
    const ran = await client.query<{ name: string }>(
      `SELECT name FROM ${quoteIdent(schema)}.${MIGRATIONS_TABLE} ORDER BY run_on, id`,
    );
    const unknown = ran.rows.map((r) => r.name).filter((n) => !known.has(n));
    if (unknown.length > 0)
      throw new StoreFormatError(
        `the database (schema ${schema}) was migrated by a newer server (${unknown.join(', ')}; this server knows ${[...known].join(', ')}). Run the newer server, or restore a backup.`,
      );
  }
  await runner({
    dbClient: client,
    dir: MIGRATIONS_DIR,
    ignorePattern: IGNORE,
    migrationsTable: MIGRATIONS_TABLE,
    schema,
    migrationsSchema: schema,
    createSchema: true,
    createMigrationsSchema: true,
    direction: 'up',
    ...(upTo === undefined ? {} : { count: upTo }),
    checkOrder: true,
    singleTransaction: true,
    advisoryLockMode: 'wait',
    log: () => {},
    logger: {
      ...quiet,
      error: (m: string) => onProblem?.(`migration: ${m}`),
    },
  });
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
