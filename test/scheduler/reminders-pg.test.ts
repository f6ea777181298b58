// The reminder job with several processes on one PostgreSQL store (two services, two stores,
// two mail queues): a due game gets exactly one reminder whichever processes tick, and none for
// a turn another process has moved on from since the due games were read. Skipped without
// PostgreSQL.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createLinks } from '../../server/links.ts';
import { PgMailQueue } from '../../server/mail/pg-queue.ts';
import { ReminderJob } from '../../server/scheduler/reminders.ts';
import { GameService } from '../../server/service.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { highCard } from '../support/high-card.ts';
import { fakeClock } from '../support/service.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

interface Process {
  store: PgGameStore;
  service: GameService;
  job: ReminderJob;
}

let schema: string;
let clock: ReturnType<typeof fakeClock>;
let procs: Process[];

beforeEach(async () => {
  if (!pgUrl()) return;
  schema = newSchema();
  clock = fakeClock();
  const links = createLinks(Buffer.alloc(32, 5), 'http://example.test');
  procs = [];
  for (let i = 0; i < 2; i++) {
    const store = new PgGameStore({ url: pgUrl(), schema });
    const service = new GameService({ store, registry: [highCard], links, now: clock.now });
    await service.init();
    // Mail is only queued here (what is queued is counted in mail_jobs); sending is the mail tests' business.
    const queue = new PgMailQueue({
      pool: store.pool,
      transport: { send: () => Promise.reject(new Error('this test queues mail only')) },
    });
    procs.push({ store, service, job: new ReminderJob({ service, queue, now: () => clock.now().getTime() }) });
  }
});
afterEach(async () => {
  if (!pgUrl()) return;
  for (const p of procs) await p.store.close();
  await dropSchema(schema);
});

/** A two-seat game made on the first process, in its play phase: one seat to move. */
async function gameWaiting(): Promise<{ gameId: string; waiting: number }> {
  const s = procs[0]!.service;
  const { gameId } = await s.create({
    rules: 'high-card',
    seats: 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
    policy: { remindAfterHours: 24, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' },
  });
  await s.join(gameId, { name: 'Bob', email: 'bob@example.test' });
  for (const seat of [0, 1]) {
    const g = await s.open(gameId);
    await s.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
  }
  const g = await s.open(gameId);
  return { gameId, waiting: highCard.toAct(g.state)[0]! };
}

async function reminderJobs(): Promise<string[]> {
  const r = await procs[0]!.store.pool.query<{ key: string }>(
    "SELECT key FROM mail_jobs WHERE key LIKE 'reminder:%' ORDER BY key",
  );
  return r.rows.map((x) => x.key);
}

describePg('reminders with several processes on one PostgreSQL store', () => {
  it('two processes ticking at once log one reminder per due game and queue its mail once', async () => {
    const games = await Promise.all([gameWaiting(), gameWaiting(), gameWaiting()]);
    // The second process keeps one of the games in memory (it is checked against the store at its next open).
    await procs[1]!.service.open(games[0]!.gameId);
    clock.advanceHours(25);
    const [a, b] = await Promise.all(procs.map((p) => p.job.tick()));
    expect(a!.reminders + b!.reminders).toBe(3);
    expect(a!.errors + b!.errors).toBe(0);
    expect(a!.opened + b!.opened).toBe(0);
    for (const { gameId } of games) {
      const log = await procs[0]!.store.readLog(gameId);
      expect(log.filter((e) => e.kind === 'reminder')).toHaveLength(1);
      // Either process sees it, also the one that kept the game in memory.
      const held = await procs[1]!.service.open(gameId);
      expect(held.doc.wait?.reminders).toBe(1);
      expect(held.doc.log).toEqual(log);
    }
    expect(await reminderJobs()).toHaveLength(3);
    // Not again until the policy's next step.
    const again = await Promise.all(procs.map((p) => p.job.tick()));
    expect(again.map((r) => r.due)).toEqual([0, 0]);
  });

  it('one tick costs three statements however many games are due: the due rows, their mail, their reminders', async () => {
    await Promise.all([gameWaiting(), gameWaiting(), gameWaiting(), gameWaiting()]);
    clock.advanceHours(25);
    // A cold process: none of the games in memory, nothing remembered of them.
    const cold = new PgGameStore({ url: pgUrl(), schema });
    const service = new GameService({
      store: cold,
      registry: [highCard],
      links: procs[0]!.service.links,
      now: clock.now,
    });
    const queue = new PgMailQueue({
      pool: cold.pool,
      transport: { send: () => Promise.reject(new Error('this test queues mail only')) },
    });
    const job = new ReminderJob({ service, queue, now: () => clock.now().getTime() });
    procs.push({ store: cold, service, job }); // closed after the test
    await service.init();
    const statements = vi.spyOn(cold.pool, 'query');
    const transactions = vi.spyOn(cold, 'transaction');
    expect(await job.tick()).toMatchObject({ due: 4, opened: 0, reminders: 4, errors: 0 });
    expect(statements).toHaveBeenCalledTimes(3);
    expect(transactions).not.toHaveBeenCalled();
    expect(await reminderJobs()).toHaveLength(4);
  });

  it('a game another process moved after the due games were read is not reminded of the old turn', async () => {
    const { gameId, waiting } = await gameWaiting();
    clock.advanceHours(25);
    const [one, other] = procs;
    const readDue = one!.service.dueReminders.bind(one!.service);
    vi.spyOn(one!.service, 'dueReminders').mockImplementationOnce(async (now) => {
      const due = await readDue(now);
      const g = await other!.service.open(gameId);
      await other!.service.move(gameId, waiting, { seq: g.stateSeq, action: highCard.moves(g.state, waiting)[0] });
      return due;
    });
    expect(await one!.job.tick()).toMatchObject({ due: 1, reminders: 0, errors: 0 });
    const log = await one!.store.readLog(gameId);
    expect(log.filter((e) => e.kind === 'reminder')).toEqual([]);
    expect(log[log.length - 1]!.kind).toBe('move');
    const g = await one!.service.open(gameId);
    expect(g.doc.wait?.reminders ?? 0).toBe(0);
    // The new wait has its own schedule: nothing is due now, on either process.
    expect((await Promise.all(procs.map((p) => p.job.tick()))).map((r) => r.due)).toEqual([0, 0]);
  });
});
