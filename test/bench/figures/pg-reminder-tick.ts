// pg_reminder_tick: one tick of the reminder job on the PostgreSQL store with
// 100,000 active games, 100 of them due. Goal: under 50 ms. The tick asks the
// index (games_due, a partial index) for the due games (a cold service: none in
// memory; its connection pool warm, as a running server's is), decides each
// reminder on the game's index row without opening it (`opened` stays 0),
// queues the reminders in one INSERT into mail_jobs and logs them, each
// conditional on its game's row, in one statement.
// The 100 due games are real (made through the game service); the other
// 99,900 are rows copied from one of them with a reminder time a month ahead
// and no log behind them.
// Without DATABASE_URL or TEST_DATABASE_URL the figure is skipped with one line.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Emit } from '../index.ts';
import { highCard } from '../../support/high-card.ts';
import { fakeClock } from '../../support/service.ts';
import { createLinks } from '../../../server/links.ts';
import { GameService } from '../../../server/service.ts';
import { PgGameStore } from '../../../server/store/pg-store.ts';
import { PgMailQueue } from '../../../server/mail/pg-queue.ts';
import { ReminderJob } from '../../../server/scheduler/reminders.ts';
import { round } from '../../support/bench-http.ts';

const TOTAL = 100_000;
const DUE = 100;

export const figures = ['pg_reminder_tick'];

export async function run(emit: Emit): Promise<void> {
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!url) {
    emit({ name: 'pg_reminder_tick', skipped: 'no DATABASE_URL or TEST_DATABASE_URL' });
    return;
  }
  const schema = `bench_${Date.now().toString(36)}`;
  const clock = fakeClock();
  const links = createLinks(Buffer.alloc(32, 7), 'http://example.test');
  const maker = new PgGameStore({ url, schema });
  try {
    const made = new GameService({ store: maker, registry: [highCard], links, now: clock.now });
    await made.init();
    const policy = { remindAfterHours: 24, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' as const };
    const ids: string[] = [];
    for (let i = 0; i < DUE; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, DUE - i) }, async (_, j) => {
          const n = i + j;
          const { gameId } = await made.create({
            rules: 'high-card',
            seats: 2,
            name: `A${n}`,
            email: `a${n}@example.test`,
            join: true,
            policy,
          });
          await made.join(gameId, { name: `B${n}`, email: `b${n}@example.test` });
          for (const seat of [0, 1]) {
            const g = await made.open(gameId);
            await made.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
          }
          ids.push(gameId);
        }),
      );
    }
    const later = new Date(clock.now().getTime() + 30 * 24 * 3600_000).toISOString();
    await maker.pool.query(
      `INSERT INTO games (id, hot, last_seq, last_hash, status, listed, free_seat, updated_at, next_reminder_at, attention)
       SELECT 'filler' || g, hot, last_seq, last_hash, status, listed, free_seat, updated_at, $2, false
       FROM games, generate_series(1, $3::int) AS g WHERE id = $1`,
      [ids[0], later, TOTAL - DUE],
    );
    await maker.pool.query(
      `INSERT INTO game_meta (game_id, meta, mail_hashes)
       SELECT 'filler' || g, meta, mail_hashes FROM game_meta, generate_series(1, $2::int) AS g WHERE game_id = $1`,
      [ids[0], TOTAL - DUE],
    );
    await maker.pool.query('ANALYZE games, game_meta');
    await maker.close();

    // A cold server: a new store and service, nothing in memory.
    const store = new PgGameStore({ url, schema });
    const service = new GameService({ store, registry: [highCard], links, now: clock.now });
    await service.init();
    const queue = new PgMailQueue({
      pool: store.pool,
      transport: {
        send: () => Promise.reject(new Error('the bench queues mail only')),
      },
    });
    // The pool as a running server has it (idle connections are kept 10 minutes: pg-store.ts),
    // and the server processes behind its connections (whose CPU time the tick costs the database).
    const clients = await Promise.all(Array.from({ length: 20 }, () => store.pool.connect()));
    const backends = await Promise.all(
      clients.map(async (c) => (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid),
    );
    for (const c of clients) c.release();
    clock.advanceHours(25);
    const job = new ReminderJob({ service, queue, now: () => clock.now().getTime() });
    // Round trips of the tick (statements through the pool, transactions counted once): a count
    // the machine's load does not change.
    // (pg's pool.query takes its connection through pool.connect, synchronously: not counted twice.)
    let roundTrips = 0;
    let inQuery = false;
    const query = store.pool.query.bind(store.pool);
    const connect = store.pool.connect.bind(store.pool);
    store.pool.query = ((...args: Parameters<typeof query>) => {
      roundTrips++;
      inQuery = true;
      try {
        return query(...args);
      } finally {
        inQuery = false;
      }
    }) as typeof store.pool.query;
    store.pool.connect = ((...args: Parameters<typeof connect>) => {
      if (!inQuery) roundTrips++;
      return connect(...args);
    }) as typeof store.pool.connect;
    /** One tick, timed: wall, this process's CPU, the database's CPU and its wait for a CPU. */
    const timedTick = async () => {
      roundTrips = 0;
      const db0 = serverTime(backends);
      const t = performance.now();
      const cpu0 = process.cpuUsage();
      const result = await job.tick();
      const ms = performance.now() - t;
      const cpu = process.cpuUsage(cpu0);
      const db1 = serverTime(backends);
      return {
        result,
        ms: round(ms, 1),
        // This process's CPU time during the tick (user + system): less at the mercy of the
        // machine's load than the wall time.
        cpu_ms: round((cpu.user + cpu.system) / 1000, 1),
        // The database's CPU time for the tick (its server processes behind the pool's connections,
        // when they run on this machine), and how long they waited for a CPU: on a loaded machine
        // the wall time is about cpu_ms + db_cpu_ms + db_wait_ms.
        ...(db0 && db1
          ? { db_cpu_ms: round((db1.run - db0.run) / 1e6, 1), db_wait_ms: round((db1.wait - db0.wait) / 1e6, 1) }
          : {}),
        round_trips: roundTrips,
      };
    };
    const { result, ...first } = await timedTick();
    const queued = await store.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM mail_jobs WHERE key LIKE 'reminder:%'",
    );
    // The next day's tick: the same games' second reminders, on server processes that have run
    // these statements before (a running server's have; the first tick pays for each process's
    // first use of them: its caches of tables, indexes and types).
    clock.advanceHours(24);
    const { result: again, ...next } = await timedTick();
    store.pool.query = query;
    store.pool.connect = connect;
    emit({
      name: 'pg_reminder_tick',
      games: TOTAL,
      due: result.due,
      opened: result.opened,
      reminders: result.reminders,
      mails_queued: Number(queued.rows[0]?.n ?? 0),
      errors: result.errors + again.errors,
      ...first,
      next_day: { reminders: again.reminders, opened: again.opened, ...next },
      goal_ms: 50,
    });
    await store.close();
  } finally {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await admin.end();
  }
}

/** CPU time and time waiting for a CPU (ns) of these processes, from Linux's schedstat; null where unreadable. */
function serverTime(pids: number[]): { run: number; wait: number } | null {
  let run = 0;
  let wait = 0;
  for (const pid of pids) {
    try {
      const [r, w] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
      run += r!;
      wait += w!;
    } catch {
      return null; // another machine's database, or not Linux
    }
  }
  return { run, wait };
}
