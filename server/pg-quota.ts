// A quota (quota.ts) kept in PostgreSQL (table quota_uses), so that several
// server processes count one client's or one address's uses together: at most
// `limit` uses of a key in any `windowMs`. One statement per use: it takes a
// transaction-scoped advisory lock on the key (two processes counting the same
// key wait for each other), counts the uses in the window and records this one
// only if there is room. Old uses are removed now and then.
import type pg from 'pg';
import type { QuotaCounter } from './quota.ts';

export class PgQuota implements QuotaCounter {
  private uses = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async take(key: string): Promise<boolean> {
    const t = this.now();
    const r = await this.pool.query(
      `WITH turn AS (SELECT pg_advisory_xact_lock(hashtext($1 || ':' || $2))),
            used AS (SELECT count(*) AS n FROM quota_uses, turn WHERE name = $1 AND key = $2 AND at > $3::bigint - $4::bigint)
       INSERT INTO quota_uses (name, key, at) SELECT $1, $2, $3 FROM used WHERE n < $5 RETURNING 1`,
      [this.name, key, t, this.windowMs, this.limit],
    );
    if (++this.uses % 500 === 0)
      void this.pool
        .query('DELETE FROM quota_uses WHERE name = $1 AND at <= $2', [this.name, t - this.windowMs])
        .catch(() => {});
    return (r.rowCount ?? 0) > 0;
  }
}
