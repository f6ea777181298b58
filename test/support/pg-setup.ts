// vitest global set-up for the PostgreSQL suites: TEST_DATABASE_URL (set by
// .ci/run, or by hand: README "Testing against PostgreSQL") is tried once.
// Reachable: the suites get it through inject('pgUrl'). Unset or unreachable:
// one line says the PostgreSQL suites are skipped, unless REQUIRE_POSTGRES=1
// (CI), where the run fails instead.
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** '' when no PostgreSQL is reachable (the PostgreSQL suites skip). */
    pgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.TEST_DATABASE_URL ?? '';
  const required = /^(1|true|yes|on)$/i.test(process.env.REQUIRE_POSTGRES ?? '');
  let why = '';
  if (!url) why = 'TEST_DATABASE_URL is not set';
  else {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (err) {
      why = `${url.replace(/\/\/[^@/]*@/, '//***@')} is not reachable (${(err as Error).message})`;
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (why && required) throw new Error(`REQUIRE_POSTGRES is set but ${why}`);
  if (why) process.stdout.write(`PostgreSQL suites skipped: ${why}.\n`);
  project.provide('pgUrl', why ? '' : url);
}
