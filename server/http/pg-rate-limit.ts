// express-rate-limit's counters in PostgreSQL (table rate_limits), so that a
// client's POSTs count once across every server process sharing the database:
// one UPSERT per request, the window starting again when it has run out.
// Expired rows are removed once a minute.
import type { Options, Store } from 'express-rate-limit';
import type pg from 'pg';

export class PgRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    prefix = 'post:',
  ) {
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
    this.sweeper = setInterval(() => {
      this.pool.query('DELETE FROM rate_limits WHERE reset_at < $1', [Date.now()]).catch(() => {});
    }, 60_000);
    this.sweeper.unref();
  }

  async increment(key: string): Promise<{ totalHits: number; resetTime: Date }> {
    const now = Date.now();
    const r = await this.pool.query<{ hits: number; reset_at: string }>(
      `INSERT INTO rate_limits (key, hits, reset_at) VALUES ($1, 1, $2::bigint + $3::bigint)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.reset_at <= $2 THEN 1 ELSE rate_limits.hits + 1 END,
         reset_at = CASE WHEN rate_limits.reset_at <= $2 THEN $2::bigint + $3::bigint ELSE rate_limits.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix + key, now, this.windowMs],
    );
    const row = r.rows[0]!;
    return { totalHits: row.hits, resetTime: new Date(Number(row.reset_at)) };
  }

  async get(key: string): Promise<{ totalHits: number; resetTime: Date } | undefined> {
    const r = await this.pool.query<{ hits: number; reset_at: string }>(
      'SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > $2',
      [this.prefix + key, Date.now()],
    );
    const row = r.rows[0];
    return row ? { totalHits: row.hits, resetTime: new Date(Number(row.reset_at)) } : undefined;
  }

  async decrement(key: string): Promise<void> {
    await this.pool.query('UPDATE rate_limits SET hits = GREATEST(hits - 1, 0) WHERE key = $1', [this.prefix + key]);
  }

  async resetKey(key: string): Promise<void> {
    await this.pool.query('DELETE FROM rate_limits WHERE key = $1', [this.prefix + key]);
  }

  shutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
