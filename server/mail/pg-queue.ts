// The mail queue in PostgreSQL (with DATABASE_URL): the same guarantees as the
// file queue (queue.ts), across every server process sharing the database.
//   mail_jobs  one row per idempotency key (id = mailId(key), the primary
//              key): state pending | sent | skipped | failed, attempts, the
//              next attempt time, the rendered mail or the spec to render
// Enqueueing is INSERT ... ON CONFLICT DO NOTHING: the same key queued twice,
// by one process or two, is one row and one message; sent rows stay as
// receipts (pruned after keepReceiptsMs), so a key is never queued again.
// Sending: each worker takes one due row with SELECT ... FOR UPDATE SKIP
// LOCKED inside a transaction and keeps it locked while it composes and
// sends; the UPDATE to sent commits with it. Another process skips a locked
// row, so a mail is claimed by exactly one process at a time. If the process
// dies while it holds the row, the transaction rolls back, the lock goes, and
// another process sends it. The only ambiguous moment is the same as the file
// queue's: the mail server said 250 and the process died before the COMMIT;
// the mail is then sent again with the same Message-ID (at-least-once there,
// exactly-once everywhere else). An enqueue that adds rows also sends
// NOTIFY pbem_mail; every process LISTENs on its own connection and looks for
// due mail when told, and besides polls every pollMs (mail whose retry time
// has come, a lost notification).
import type pg from 'pg';

/** pg's Client, loaded when first needed: a server without PostgreSQL never loads the driver. */
const clientClass = async () => (await import('pg')).default.Client;
import { mailId, type OutgoingMail } from './message.ts';
import type { MailQueueOptions, MailQueueStats, MailSpec, MailTransport, QueuedMail } from './queue.ts';
import { warmIdle, warmWith } from '../store/pg-warm.ts';

export interface PgMailQueueOptions extends Omit<MailQueueOptions, 'dir' | 'transport'> {
  pool: pg.Pool;
  transport: MailTransport;
  /** How often to look for due mail without being told (default 2 s). */
  pollMs?: number;
}

const LATER: Record<string, number> = { created: 1, digest: 1, invite: 2 };
const priorityOf = (spec?: MailSpec) => LATER[spec?.type ?? ''] ?? 0;

/**
 * A turn mail's place in its line (migration 006): the seat and holder it is for, and the seq
 * its turn began at. Of one line only the newest queued mail is wanted: it is composed from the
 * game as it is then, as an older one would be (which would only add a copy, or nothing if the
 * seat has moved since).
 */
function latestOf(spec?: MailSpec): { of: string; rank: number } | null {
  const s = spec as
    | { type?: string; gameId?: string; seat?: number; slot?: number; generation?: number; stateSeq?: number }
    | undefined;
  if (s?.type !== 'turn' || typeof s.stateSeq !== 'number') return null;
  return { of: `turn:${s.gameId}:${s.seat}:${s.slot}.${s.generation}`, rank: s.stateSeq };
}

interface JobRow {
  id: string;
  key: string;
  attempts: number;
  created_at: string;
  spec: MailSpec | null;
  mail: OutgoingMail | null;
}

export class PgMailQueue {
  private readonly pool: pg.Pool;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly log: (event: Record<string, unknown>) => void;
  private running = false;
  private workers = 0;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private pending = 0;
  private listener: pg.Client | null = null;
  private readonly counters = { sent: 0, skipped: 0, failed: 0, attempts: 0, transportErrors: 0 };

  constructor(private readonly opts: PgMailQueueOptions) {
    this.pool = opts.pool;
    this.now = opts.now ?? Date.now;
    this.concurrency = Math.max(1, opts.concurrency ?? 2);
    this.log = opts.log ?? (() => {});
    // The pool's new connections run the enqueue once before they serve (pg-warm.ts): a reminder
    // tick's first INSERT on a cold connection cost 8-12 ms.
    warmWith(this.pool, { text: ENQUEUE, values: [[], [], [], [], 0, [], [], [], []] });
  }

  async start(): Promise<void> {
    this.running = true;
    // The connections the store opened before this queue added its enqueue to their warm-ups.
    await warmIdle(this.pool).catch((err) =>
      this.log({ msg: 'mail queue: warming database connections', err: String((err as Error)?.message ?? err) }),
    );
    try {
      const listener = new (await clientClass())(this.pool.options);
      listener.on('notification', () => this.kick());
      listener.on('error', (err) => this.log({ msg: 'mail queue: LISTEN connection lost; polling', err: String(err) }));
      await listener.connect();
      await listener.query('LISTEN pbem_mail');
      this.listener = listener;
    } catch (err) {
      this.log({ msg: 'mail queue: cannot LISTEN; polling', err: String((err as Error)?.message ?? err) });
    }
    this.kick();
    this.poll();
  }

  private poll(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.kick();
      this.poll();
    }, this.opts.pollMs ?? 2000);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.listener?.end().catch(() => {});
    this.listener = null;
    const claimer = this.claimer;
    this.claimer = null;
    if (claimer) await (await claimer.catch(() => null))?.end().catch(() => {});
    while (this.workers > 0) await new Promise((r) => setTimeout(r, 5));
    await this.opts.transport.close?.();
  }

  enqueue(key: string, mail: OutgoingMail): Promise<boolean> {
    return this.insert([{ key, mail }]).then((n) => n > 0);
  }

  enqueueSpec(key: string, spec: MailSpec, opts: { notBefore?: number } = {}): Promise<boolean> {
    return this.insert([{ key, spec, notBefore: opts.notBefore }]).then((n) => n > 0);
  }

  enqueueSpecs(items: { key: string; spec: MailSpec; notBefore?: number }[]): Promise<number> {
    return this.insert(items);
  }

  /** One INSERT for all of them (one commit); keys already known are left out. Resolves with the number queued now. */
  private async insert(items: { key: string; spec?: MailSpec; mail?: OutgoingMail; notBefore?: number }[]) {
    if (items.length === 0) return 0;
    const t = this.now();
    const lines = items.map((i) => latestOf(i.spec));
    // The older turn mails of the lines queued now are skipped in the same statement (one a
    // worker is composing right now is left to it: SKIP LOCKED).
    const r = await this.pool.query<{ n: number; superseded: number }>(ENQUEUE, [
      items.map((i) => mailId(i.key)),
      items.map((i) => i.key),
      items.map((i) => priorityOf(i.spec)),
      items.map((i) => Math.max(t, i.notBefore ?? t)),
      t,
      items.map((i) => (i.spec ? JSON.stringify(i.spec) : null)),
      items.map((i) => (i.mail ? JSON.stringify(i.mail) : null)),
      lines.map((l) => l?.of ?? null),
      lines.map((l) => l?.rank ?? null),
    ]);
    const n = r.rows[0]?.n ?? 0;
    this.counters.skipped += r.rows[0]?.superseded ?? 0;
    if (n > 0) this.kick();
    return n;
  }

  /** Whether a message under this key was ever queued (pending, sent, skipped or failed; receipts until pruned). */
  /**
   * Holds `key` across every process on the database while this one decides what to queue under
   * it (a reply being played: inbound/desk.ts): a session advisory lock, taken on a connection of
   * the queue's own (never one of the pool's, which the reply's own writes need). Resolves with
   * the release, or null when another process holds it. A connection lost meanwhile drops its
   * locks; the next claim opens another.
   */
  async claim(key: string): Promise<(() => Promise<void>) | null> {
    const client = await this.claimConnection();
    const args = [mailId(key)];
    const r = await client.query<{ held: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext('pbem-mail-claim'), hashtext($1)) AS held",
      args,
    );
    if (r.rows[0]?.held !== true) return null;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await client
        .query("SELECT pg_advisory_unlock(hashtext('pbem-mail-claim'), hashtext($1))", args)
        .catch((err) => this.log({ msg: 'mail queue: claim not released', err: String(err) }));
    };
  }

  private claimer: Promise<pg.Client> | null = null;

  private claimConnection(): Promise<pg.Client> {
    this.claimer ??= (async () => {
      const client = new (await clientClass())(this.pool.options);
      client.on('error', (err) => {
        this.log({ msg: 'mail queue: claim connection lost', err: String(err) });
        this.claimer = null;
      });
      client.on('end', () => {
        this.claimer = null;
      });
      await client.connect();
      return client;
    })().catch((err) => {
      this.claimer = null;
      throw err;
    });
    return this.claimer;
  }

  async knows(key: string): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM mail_jobs WHERE id = $1', [mailId(key)]);
    return (r.rowCount ?? 0) > 0;
  }

  clock(): number {
    return this.now();
  }

  /** Counts of this process's work; `pending` as last seen in the database. */
  stats(): MailQueueStats {
    return { pending: this.pending, sending: this.workers, ...this.counters };
  }

  /** Waiting mail is in the database, not in memory: see pendingRows(). */
  list(): QueuedMail[] {
    return [];
  }

  /** Mail waiting in the database (every process's), oldest first, at most `limit`. */
  async pendingRows(limit = 1000): Promise<{ key: string; attempts: number; nextAttemptAt: number }[]> {
    const r = await this.pool.query<{ key: string; attempts: number; next_attempt_at: string }>(
      "SELECT key, attempts, next_attempt_at FROM mail_jobs WHERE state = 'pending' ORDER BY created_at LIMIT $1",
      [limit],
    );
    return r.rows.map((x) => ({ key: x.key, attempts: x.attempts, nextAttemptAt: Number(x.next_attempt_at) }));
  }

  /** Resolves when no mail is due in the database and none is being sent here (or rejects after timeoutMs). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM mail_jobs WHERE state = 'pending' AND (next_attempt_at <= $1 OR attempts > 0)",
        [this.now()],
      );
      const n = Number(r.rows[0]?.n ?? 0);
      if (n === 0 && this.workers === 0) return;
      if (Date.now() > until) throw new Error(`mail queue not idle after ${timeoutMs} ms (${n} pending)`);
      this.kick();
      await new Promise((res) => setTimeout(res, 20));
    }
  }

  retryNow(): void {
    void this.pool
      .query("UPDATE mail_jobs SET next_attempt_at = $1 WHERE state = 'pending' AND next_attempt_at > $1", [this.now()])
      .then(() => this.kick())
      .catch((err) => this.log({ msg: 'mail retry failed', err: String(err) }));
  }

  async pruneReceipts(): Promise<number> {
    const r = await this.pool.query("DELETE FROM mail_jobs WHERE state IN ('sent', 'skipped') AND sent_at < $1", [
      Date.now() - (this.opts.keepReceiptsMs ?? 60 * 24 * 3600_000),
    ]);
    return r.rowCount ?? 0;
  }

  private kick(): void {
    if (!this.running) return;
    this.again = true;
    while (this.workers < this.concurrency) {
      this.workers++;
      void this.work().finally(() => this.workers--);
    }
  }

  /** Sends due mail one row at a time until none is due. */
  private async work(): Promise<void> {
    while (this.running) {
      this.again = false;
      let took: boolean;
      try {
        took = await this.attemptOne();
      } catch (err) {
        this.log({ msg: 'mail queue: database error', err: String((err as Error)?.message ?? err) });
        return;
      }
      if (!took && !this.again) return;
    }
  }

  /** Claims one due row (skipping rows other workers hold), sends it, records the outcome. False when none is due. */
  private async attemptOne(): Promise<boolean> {
    const c = await this.pool.connect();
    let done = false;
    try {
      await c.query('BEGIN');
      const t = this.now();
      const r = await c.query<JobRow>(
        `SELECT id, key, attempts, created_at, spec, mail FROM mail_jobs
         WHERE state = 'pending' AND next_attempt_at <= $1
         ORDER BY priority, next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [t],
      );
      const job = r.rows[0];
      if (!job) {
        await c.query('COMMIT');
        done = true;
        void this.countPending();
        return false;
      }
      const attempts = job.attempts + 1;
      let mail: OutgoingMail | null;
      try {
        mail = job.mail ?? (job.spec && this.opts.compose ? await this.opts.compose(job.spec, job.key) : null);
      } catch (err) {
        await this.failed(c, job, attempts, err);
        await c.query('COMMIT');
        done = true;
        return true;
      }
      if (mail) {
        this.counters.attempts++;
        try {
          await this.opts.transport.send(mail, job.id);
        } catch (err) {
          this.counters.transportErrors++;
          await this.failed(c, job, attempts, err);
          await c.query('COMMIT');
          done = true;
          return true;
        }
      }
      await c.query(
        `UPDATE mail_jobs SET state = $2, attempts = $3, sent_at = $4, message_id = $5, recipient = $6, subject = $7,
           mail = NULL, spec = NULL WHERE id = $1`,
        [
          job.id,
          mail ? 'sent' : 'skipped',
          attempts,
          this.now(),
          mail?.messageId ?? '',
          mail?.to ?? '',
          mail?.subject ?? '',
        ],
      );
      await c.query('COMMIT');
      done = true;
      if (mail) this.counters.sent++;
      else this.counters.skipped++;
      this.log({ msg: mail ? 'mail sent' : 'mail no longer relevant, skipped', id: job.id, attempts });
      return true;
    } finally {
      if (!done) await c.query('ROLLBACK').catch(() => {});
      c.release();
    }
  }

  private async failed(c: pg.PoolClient, job: JobRow, attempts: number, err: unknown): Promise<void> {
    const code = (err as { responseCode?: number })?.responseCode;
    const message = String((err as Error)?.message ?? err).slice(0, 500);
    const permanent = typeof code === 'number' && code >= 500 && code < 600;
    const t = this.now();
    const giveUp =
      (permanent && attempts >= (this.opts.maxPermanentAttempts ?? 5)) ||
      t - Number(job.created_at) >= (this.opts.giveUpAfterMs ?? 3 * 24 * 3600_000);
    if (giveUp) {
      await c.query("UPDATE mail_jobs SET state = 'failed', attempts = $2, last_error = $3 WHERE id = $1", [
        job.id,
        attempts,
        message,
      ]);
      this.counters.failed++;
      this.log({ msg: 'mail given up', id: job.id, attempts, err: message });
      return;
    }
    const delay = Math.min(
      this.opts.maxDelayMs ?? 60 * 60_000,
      (this.opts.baseDelayMs ?? 30_000) * 2 ** Math.min(attempts - 1, 30),
    );
    const next = t + Math.round(delay * (0.9 + (0.2 * ((attempts * 7919 + job.id.charCodeAt(0)) % 10)) / 10));
    await c.query('UPDATE mail_jobs SET attempts = $2, next_attempt_at = $3, last_error = $4 WHERE id = $1', [
      job.id,
      attempts,
      next,
      message,
    ]);
    this.log({ msg: 'mail retry scheduled', id: job.id, attempts, in_ms: next - t, err: message });
  }

  private async countPending(): Promise<void> {
    try {
      const r = await this.pool.query<{ n: string }>("SELECT count(*) AS n FROM mail_jobs WHERE state = 'pending'");
      this.pending = Number(r.rows[0]?.n ?? 0);
    } catch {
      /* a figure for /readyz only */
    }
  }
}

/**
 * insert's statement: the jobs as arrays ($1 ids, $2 keys, $3 priorities, $4 first attempts, $5 now,
 * $6 specs, $7 mails, $8 and $9 the turn-mail line and rank each supersedes by).
 */
const ENQUEUE = `WITH ins AS (
         INSERT INTO mail_jobs (id, key, state, priority, attempts, created_at, next_attempt_at, spec, mail, latest_of, latest_rank)
         SELECT id, key, 'pending', pr, 0, $5, na, sp, ml, lo, lr
         FROM unnest($1::text[], $2::text[], $3::smallint[], $4::bigint[], $6::jsonb[], $7::jsonb[], $8::text[], $9::int[])
           AS t(id, key, pr, na, sp, ml, lo, lr)
         ON CONFLICT (id) DO NOTHING RETURNING latest_of, latest_rank
       ), older AS (
         UPDATE mail_jobs m SET state = 'skipped', sent_at = $5, spec = NULL, mail = NULL
         WHERE m.id IN (
           SELECT o.id FROM mail_jobs o JOIN ins ON o.latest_of = ins.latest_of AND o.latest_rank < ins.latest_rank
           WHERE o.state = 'pending' FOR UPDATE OF o SKIP LOCKED)
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM ins)::int AS n, (SELECT count(*) FROM older)::int AS superseded,
         CASE WHEN (SELECT count(*) FROM ins) > 0 THEN pg_notify('pbem_mail', '') END AS told`;
