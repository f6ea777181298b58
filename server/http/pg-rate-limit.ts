// express-rate-limit's counters in PostgreSQL (table rate_limits), so that a
// client's POSTs count once across every server process sharing the database:
// one UPSERT per request, the window starting again when it has run out.
// Requests that arrive at the same moment share one UPSERT (store/batcher.ts),
// each counted. Expired rows are removed once a minute.
import type { Options, Store } from 'express-rate-limit';
import type pg from 'pg';
import { Batcher } from '../store/batcher.ts';

type Hits = { totalHits: number; resetTime: Date };

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

  private increments = new Batcher<string, Hits>((keys) => this.incrementMany(keys), {
    maxBatch: 512,
    maxInFlight: 4,
  });

  increment(key: string): Promise<Hits> {
    return this.increments.add(this.prefix + key);
  }

  /** One UPSERT for the requests of a moment: each key counted as often as it was asked for. */
  private async incrementMany(keys: string[]): Promise<Hits[]> {
    const counts = new Map<string, number>();
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    const now = Date.now();
    const r = await this.pool.query<{ key: string; hits: number; reset_at: string }>(
      `INSERT INTO rate_limits (key, hits, reset_at)
       SELECT k, n, $3::bigint + $4::bigint FROM unnest($1::text[], $2::int[]) AS t(k, n)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limits.reset_at <= $3 THEN EXCLUDED.hits ELSE rate_limits.hits + EXCLUDED.hits END,
         reset_at = CASE WHEN rate_limits.reset_at <= $3 THEN $3::bigint + $4::bigint ELSE rate_limits.reset_at END
       RETURNING key, hits, reset_at`,
      [[...counts.keys()], [...counts.values()], now, this.windowMs],
    );
    const rows = new Map(r.rows.map((row) => [row.key, row]));
    // The n requests of one key in this batch are its last n hits: the first of them sees the
    // total less n-1, the last the total.
    const seen = new Map<string, number>();
    return keys.map((k) => {
      const row = rows.get(k)!;
      const i = seen.get(k) ?? 0;
      seen.set(k, i + 1);
      return { totalHits: row.hits - (counts.get(k)! - 1 - i), resetTime: new Date(Number(row.reset_at)) };
    });
  }

  async get(key: string): Promise<Hits | undefined> {
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
