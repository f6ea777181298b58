// reminder_tick: 10,000 active games in the index, 100 of them due; one tick
// of the reminder job (read the index, open only the due games, queue each
// reminder durably, log it durably in the game). Target: under 200 ms, with
// exactly the 100 due games opened.
//
// The 100 due games are real (made through the game service); the other
// 9,900 are index entries whose reminders are not due, with no file behind
// them: a tick that opened one of them would fail, so `opened` proves the
// job reads only the index for them. Mail is only queued here; rendering and
// sending happen afterwards in the queue's sender.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Emit } from '../index.ts';
import { highCard } from '../../support/high-card.ts';
import { makeService } from '../../support/service.ts';
import { createLinks } from '../../../server/links.ts';
import { GameService } from '../../../server/service.ts';
import { IndexTable } from '../../../server/store/index-table.ts';
import { IndexShards } from '../../../server/store/index-shards.ts';
import { LowdbGameStore } from '../../../server/store/lowdb-store.ts';
import { createMailer } from '../../../server/mail/index.ts';
import { ReminderJob } from '../../../server/scheduler/reminders.ts';

const TOTAL = 10_000;
const DUE = 100;

/** The figures this file emits (BENCH_ONLY matches figure names). */
export const figures = ['reminder_tick'];

export async function run(emit: Emit): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reminder-tick-'));
  try {
    // 1. The due games, made for real.
    const t = await makeService([highCard], dir);
    const policy = { remindAfterHours: 24, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' as const };
    for (let i = 0; i < DUE; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, DUE - i) }, async (_, j) => {
          const { gameId } = await t.service.create({
            rules: 'high-card',
            seats: 2,
            name: `A${i + j}`,
            email: `a${i + j}@example.test`,
            join: true,
            policy,
          });
          await t.service.join(gameId, { name: `B${i + j}`, email: `b${i + j}@example.test` });
          // Both stakes chosen: the game now waits for one seat, as most games do.
          for (const seat of [0, 1]) {
            const g = await t.service.open(gameId);
            await t.service.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
          }
        }),
      );
    }
    await t.store.close();

    // 2. 9,900 more active games in the index, not due for a month.
    // (written as a format-2 index.json, which the store moves into shards at its next open)
    const indexFile = join(dir, 'index.json');
    const table = new IndexTable();
    await new IndexShards(dir).load(table);
    const snap = { version: 2, games: table.list({ limit: Number.POSITIVE_INFINITY }).entries };
    rmSync(join(dir, 'index'), { recursive: true });
    const template = snap.games[0]!;
    const later = new Date(t.clock.now().getTime() + 30 * 24 * 3600_000).toISOString();
    for (let i = snap.games.length; i < TOTAL; i++) {
      const id = randomBytes(9).toString('base64url');
      snap.games.push({
        ...template,
        id,
        nextReminderAt: later,
        keys: {
          ...template.keys,
          admin: randomBytes(32).toString('hex'),
          spectator: randomBytes(32).toString('hex'),
          invite: null,
          seats: [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')],
        },
      });
    }
    writeFileSync(indexFile, JSON.stringify(snap));

    // 3. A fresh server process's view of it: index only; the clock 24 h on.
    t.clock.advanceHours(24);
    const store = new LowdbGameStore({ dataDir: dir });
    let loads = 0;
    const readMeta = store.readMeta.bind(store);
    store.readMeta = (id: string) => {
      loads++;
      return readMeta(id);
    };
    const service = new GameService({
      store,
      registry: [highCard],
      links: createLinks(Buffer.alloc(32, 7), 'http://example.test'),
      now: t.clock.now,
    });
    await service.init();
    const mailer = createMailer({
      service,
      dataDir: dir,
      env: { MAIL_FROM: 'Games <games@example.test>' },
      transport: { send: async () => {} },
    });
    const job = new ReminderJob({ service, queue: mailer.queue, now: () => t.clock.now().getTime() });
    const listed = (await service.listGames({ limit: 0 })).total;

    const start = performance.now();
    const result = await job.tick();
    const ms = performance.now() - start;

    // A second tick at the same moment has nothing to do (the reminders are logged).
    const s2 = performance.now();
    const again = await job.tick();
    const idleMs = performance.now() - s2;
    emit({
      name: 'reminder_tick',
      games: listed,
      due: result.due,
      opened: loads,
      reminders: result.reminders,
      errors: result.errors,
      ms: Math.round(ms * 10) / 10,
      next_tick_due: again.due,
      next_tick_ms: Math.round(idleMs * 10) / 10,
      target_ms: 200,
    });
    await store.close();
    // (t.store was closed above; the folder goes below.)
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
