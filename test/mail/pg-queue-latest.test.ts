// The PostgreSQL mail queue keeps one turn mail per seat: queueing a newer turn mail for a seat
// (the same holder) marks the older ones still pending as skipped, in the same statement, so a
// queue that falls behind players who move quickly does not grow with mails that would each be
// claimed, read and found stale. Skipped without PostgreSQL.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PgMailQueue } from '../../server/mail/pg-queue.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

let schema: string;
let store: PgGameStore;
let queue: PgMailQueue;

beforeEach(async () => {
  if (!pgUrl()) return;
  schema = newSchema();
  store = new PgGameStore({ url: pgUrl(), schema });
  await store.open();
  // Not started: nothing is sent, the rows stay as queued.
  queue = new PgMailQueue({ pool: store.pool, transport: { send: () => Promise.reject(new Error('not sending')) } });
});
afterEach(async () => {
  if (!pgUrl()) return;
  await store.close();
  await dropSchema(schema);
});

const turn = (gameId: string, seat: number, stateSeq: number, generation = 0) => ({
  key: `turn:${gameId}:${stateSeq}:${seat}:${seat}.${generation}`,
  spec: { type: 'turn', gameId, seat, slot: seat, generation, stateSeq },
});

async function states(): Promise<Record<string, string>> {
  const r = await store.pool.query<{ key: string; state: string }>('SELECT key, state FROM mail_jobs ORDER BY key');
  return Object.fromEntries(r.rows.map((x) => [x.key, x.state]));
}

describePg('the PostgreSQL mail queue: the latest turn mail of a seat', () => {
  it("skips a seat's older pending turn mails when a newer one is queued, and nothing else", async () => {
    for (const t of [turn('g1', 0, 5), turn('g1', 1, 6), turn('g2', 0, 5), turn('g1', 0, 7, 1)]) {
      await queue.enqueueSpec(t.key, t.spec);
    }
    await queue.enqueueSpecs([
      turn('g1', 0, 9),
      { key: 'reminder:g1:x:1:0:0.0', spec: { type: 'reminder', gameId: 'g1' } },
    ]);
    expect(await states()).toEqual({
      [turn('g1', 0, 5).key]: 'skipped', // the same seat and holder, an older turn
      [turn('g1', 0, 9).key]: 'pending',
      [turn('g1', 1, 6).key]: 'pending', // another seat
      [turn('g2', 0, 5).key]: 'pending', // another game
      [turn('g1', 0, 7, 1).key]: 'pending', // another holder of the seat
      'reminder:g1:x:1:0:0.0': 'pending',
    });
    // One queued late (another process's catch-up) does not displace the newer one; it stays
    // to be composed, and is found stale then. Queued again, a skipped one stays skipped.
    await queue.enqueueSpec(turn('g1', 0, 8).key, turn('g1', 0, 8).spec);
    expect(await queue.enqueueSpec(turn('g1', 0, 5).key, turn('g1', 0, 5).spec)).toBe(false);
    const after = await states();
    expect([after[turn('g1', 0, 8).key], after[turn('g1', 0, 9).key], after[turn('g1', 0, 5).key]]).toEqual([
      'pending',
      'pending',
      'skipped',
    ]);
    expect(queue.stats()).toMatchObject({ skipped: 1 });
  });
});
