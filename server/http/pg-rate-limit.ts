// express-rate-limit's counters shared through PostgreSQL (table rate_limits), so that a client's
// POSTs count across every server process sharing the database, without a round trip per
// request: each process counts in memory and adds its counts to the table in batches, one UPSERT
// for every key counted since the last (at most FLUSH_MS after a key's first unflushed count, or
// at once when a key's unflushed count reaches a tenth of the limit). The UPSERT answers each
// key's total in the table, which includes what the other processes flushed; a request is refused
// on what this process knows: that total plus its own counts not yet in it. The window starts
// again in the table when it has run out (decided by the UPSERT, so once for all processes).
//
// The bound: one process alone counts every request it lets through, so it never lets a client
// past the limit. With P processes, a process learns what the others counted only at its own
// next flush, and they add theirs at theirs: a client that spreads its requests over P processes
// can get past the limit by about what it sends to the other P-1 processes in one flush interval
// (FLUSH_MS, plus a round trip), in each window. At the default 300 POSTs a minute and
// FLUSH_MS = 100 that is a handful of requests, not a way around the limit; the flush at a tenth
// of the limit keeps a fast client's counts from waiting for the interval.
//
// Counts not yet flushed are lost if the process dies (at most one interval's worth), as the
// table itself is emptied if PostgreSQL crashes (UNLOGGED): a rate limit, not a ledger. A flush
// that fails keeps its counts for the next one and refuses nobody for it. Expired rows are
// removed once a minute; keys whose window has run out are forgotten in memory at each flush.
import type { Options, Store } from 'express-rate-limit';
import type pg from 'pg';

type Hits = { totalHits: number; resetTime: Date };

/** At most this long between a key's first unflushed count and the flush that adds it. */
export const FLUSH_MS = 100;

/** What this process knows of one key. */
interface KeyCount {
  /** The key's total in the table at its last flush (every process's counts flushed by then). */
  stored: number;
  /** When the window of `stored` runs out (ms since the epoch). */
  resetAt: number;
  /** Counts of this process not yet sent. */
  unsent: number;
  /** Counts of this process in the flush under way. */
  sending: number;
}

export class PgRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;
  /** A key's unsent count that flushes at once (a tenth of the limit). */
  private flushAt = Number.POSITIVE_INFINITY;
  private counts = new Map<string, KeyCount>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    prefix = 'post:',
    private readonly flushMs = FLUSH_MS,
  ) {
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
    if (typeof options.limit === 'number') this.flushAt = Math.max(1, Math.ceil(options.limit / 10));
    this.sweeper = setInterval(() => {
      this.pool.query('DELETE FROM rate_limits WHERE reset_at < $1', [Date.now()]).catch(() => {});
    }, 60_000);
    this.sweeper.unref();
  }

  /** Counts a request: the total known now (no round trip); the count reaches the table at the next flush. */
  async increment(key: string): Promise<Hits> {
    const now = Date.now();
    const k = this.counted(this.prefix + key, now);
    k.unsent++;
    if (k.unsent >= this.flushAt) this.flushSoon(0);
    else this.flushSoon(this.flushMs);
    return { totalHits: k.stored + k.sending + k.unsent, resetTime: new Date(k.resetAt) };
  }

  async decrement(key: string): Promise<void> {
    const k = this.counted(this.prefix + key, Date.now());
    k.unsent--;
    this.flushSoon(this.flushMs);
  }

  /** The key's count: flushed first, so that the table has every process's counts so far. */
  async get(key: string): Promise<Hits | undefined> {
    await this.flush();
    const r = await this.pool.query<{ hits: number; reset_at: string }>(
      'SELECT hits, reset_at FROM rate_limits WHERE key = $1 AND reset_at > $2',
      [this.prefix + key, Date.now()],
    );
    const row = r.rows[0];
    return row ? { totalHits: row.hits, resetTime: new Date(Number(row.reset_at)) } : undefined;
  }

  async resetKey(key: string): Promise<void> {
    this.counts.delete(this.prefix + key);
    await this.pool.query('DELETE FROM rate_limits WHERE key = $1', [this.prefix + key]);
  }

  /** Sends the counts not yet sent and stops the timers. */
  async shutdown(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush().catch(() => {});
  }

  /**
   * Sends every unsent count (one statement) and learns each key's total in the table; resolves
   * when the counts counted before the call are in the table, or the attempt failed. One flush
   * at a time: a call made while one is under way sends after it.
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.sendCounts().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  /** The key's counts, its window started again here once it has run out (the table decides at the flush). */
  private counted(key: string, now: number): KeyCount {
    let k = this.counts.get(key);
    if (!k) {
      k = { stored: 0, resetAt: now + this.windowMs, unsent: 0, sending: 0 };
      this.counts.set(key, k);
    } else if (k.resetAt <= now) {
      k.stored = 0;
      k.resetAt = now + this.windowMs;
    }
    return k;
  }

  /** A flush within delayMs (0: now, after the one under way), unless one is due sooner. */
  private flushSoon(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    this.schedule(delayMs);
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  private async sendCounts(): Promise<void> {
    const now = Date.now();
    const keys: string[] = [];
    const adds: number[] = [];
    for (const [key, k] of this.counts) {
      if (k.unsent !== 0) {
        keys.push(key);
        adds.push(k.unsent);
        k.sending += k.unsent;
        k.unsent = 0;
      } else if (k.sending === 0 && k.resetAt <= now) this.counts.delete(key);
    }
    if (keys.length === 0) return;
    let rows: { key: string; hits: number; reset_at: string }[];
    try {
      rows = (
        await this.pool.query<{ key: string; hits: number; reset_at: string }>(
          `INSERT INTO rate_limits (key, hits, reset_at)
           SELECT k, GREATEST(n, 0), $3::bigint + $4::bigint FROM unnest($1::text[], $2::int[]) AS t(k, n)
           ON CONFLICT (key) DO UPDATE SET
             hits = CASE WHEN rate_limits.reset_at <= $3 THEN EXCLUDED.hits
                         ELSE GREATEST(rate_limits.hits + EXCLUDED.hits, 0) END,
             reset_at = CASE WHEN rate_limits.reset_at <= $3 THEN $3::bigint + $4::bigint ELSE rate_limits.reset_at END
           RETURNING key, hits, reset_at`,
          [keys, adds, now, this.windowMs],
        )
      ).rows;
    } catch {
      // Kept for the next flush; nobody is refused for a database that did not answer.
      keys.forEach((key, i) => {
        const k = this.counts.get(key);
        if (!k) return;
        k.sending -= adds[i]!;
        k.unsent += adds[i]!;
      });
      this.flushSoon(this.flushMs);
      return;
    }
    const totals = new Map(rows.map((r) => [r.key, r]));
    for (const [i, key] of keys.entries()) {
      const k = this.counts.get(key);
      const row = totals.get(key);
      if (!k || !row) continue;
      k.sending -= adds[i]!;
      k.stored = row.hits;
      k.resetAt = Number(row.reset_at);
    }
  }
}
