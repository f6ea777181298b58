// The file mail queue keeps one turn mail per seat, as the PostgreSQL one does (its migration
// 006): queueing a newer turn mail for a seat (the same holder) skips the older one never
// attempted. The skip is durable in the newer one's journal line, so a crash right after it
// (before anything was sent), or one after the newer mail went and its journal file with it while
// the older one's file stayed, does not bring the older mail back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailQueue, receiptIds, type MailSpec } from '../../server/mail/queue.ts';
import { mailId, messageIdFor, type OutgoingMail } from '../../server/mail/message.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailq-latest-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const turn = (gameId: string, seat: number, stateSeq: number, generation = 0) => ({
  key: `turn:${gameId}:${stateSeq}:${seat}:${seat}.${generation}`,
  spec: { type: 'turn', gameId, seat, slot: seat, generation, stateSeq },
});

/** A queue whose mails are composed from their keys; `composed` lists the keys it composed. */
function queueOn(composed: string[], compose?: (spec: MailSpec, key: string) => OutgoingMail | null) {
  const sent: string[] = [];
  const q = new MailQueue({
    dir,
    baseDelayMs: 15,
    maxDelayMs: 60,
    transport: { send: async (m) => void sent.push(m.messageId) },
    compose: (spec, key) => {
      composed.push(key);
      if (compose) return compose(spec, key);
      return {
        from: 'g@test.invalid',
        to: 'p@test.invalid',
        subject: key,
        text: key,
        messageId: messageIdFor(key, 'test.invalid'),
      };
    },
  });
  return { q, sent };
}

describe('the file mail queue: the latest turn mail of a seat', () => {
  it("skips a seat's older turn mail when a newer one is queued, and again after a crash before any attempt", async () => {
    const composed: string[] = [];
    // Never started: it "crashes" with everything queued.
    const { q: dead } = queueOn(composed);
    const all = [turn('g1', 0, 5), turn('g1', 1, 6), turn('g2', 0, 5), turn('g1', 0, 7, 1), turn('g1', 0, 9)];
    for (const t of all) await dead.enqueueSpec(t.key, t.spec);
    // The older turn of g1's seat 0 (same holder) is skipped; another seat, game or holder is not.
    expect(dead.stats()).toMatchObject({ pending: 4, skipped: 1 });
    expect(await dead.knows(turn('g1', 0, 5).key)).toBe(true);
    expect(await dead.enqueueSpec(turn('g1', 0, 5).key, turn('g1', 0, 5).spec)).toBe(false);
    // An older position queued late (a replay) stays beside the newer one, and skips nothing.
    expect(await dead.enqueueSpec(turn('g1', 1, 4).key, turn('g1', 1, 4).spec)).toBe(true);
    expect(dead.stats()).toMatchObject({ pending: 5, skipped: 1 });

    const { q, sent } = queueOn(composed);
    await q.start();
    await q.idle();
    await q.stop();
    expect(composed.sort()).toEqual(
      [turn('g1', 1, 6), turn('g2', 0, 5), turn('g1', 0, 7, 1), turn('g1', 0, 9), turn('g1', 1, 4)]
        .map((t) => t.key)
        .sort(),
    );
    expect(sent).toHaveLength(5);
    expect(await readdir(join(dir, 'queue'))).toEqual([]);
    expect(await receiptIds(dir)).toContain(mailId(turn('g1', 0, 5).key));
  });

  it('does not bring an older turn mail back after the newer one went with its journal file', async () => {
    const composed: string[] = [];
    // The older turn mail opens a journal file that stays (a mail in it keeps failing), and the
    // newer one lands in the next file (a journal file takes 500 lines).
    const { q: first } = queueOn(composed, (spec, key) => {
      if (spec.type === 'stuck') throw new Error('not today');
      // The fillers are sent, not skipped (composed to nothing), so that `skipped` below counts
      // only the turn mail (fillers are sent while the others are queued, as many as the machine's speed allows).
      return {
        from: 'g@test.invalid',
        to: 'p@test.invalid',
        subject: key,
        text: key,
        messageId: messageIdFor(key, 't'),
      };
    });
    await first.start();
    // Due later (as a digest is), so that it is still waiting, never attempted, when the newer comes.
    await first.enqueueSpec(turn('g1', 0, 5).key, turn('g1', 0, 5).spec, { notBefore: Date.now() + 3600_000 });
    await first.enqueueSpec('stuck', { type: 'stuck' });
    await Promise.all(Array.from({ length: 498 }, (_, i) => first.enqueueSpec(`filler:${i}`, { type: 'filler' })));
    await first.enqueueSpec(turn('g1', 0, 9).key, turn('g1', 0, 9).spec);
    expect(first.stats()).toMatchObject({ skipped: 1 });
    const journals = async () => (await readdir(join(dir, 'queue'))).filter((f) => f.endsWith('.jsonl')).length;
    const until = async (done: () => boolean | Promise<boolean>) => {
      while (!(await done())) await new Promise((r) => setTimeout(r, 5));
    };
    await until(async () => composed.includes(turn('g1', 0, 9).key) && (await journals()) === 1);
    // The newer one's file is gone; the older one's stays for the stuck mail. A crash now:
    await first.stop();
    const again: string[] = [];
    const { q } = queueOn(again, (spec, key) =>
      spec.type === 'stuck' ? null : { from: 'g@t', to: 'p@t', subject: key, text: key, messageId: key },
    );
    await q.start();
    await q.idle();
    expect(q.list().map((r) => r.key)).not.toContain(turn('g1', 0, 5).key);
    await q.stop();
    expect(again).toContain('stuck');
  });
});
