// Issue 13, item 3: the mail queue serves mail of running games before
// invitations, so a flood of invitations does not hold up a player's turn.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageIdFor, type OutgoingMail } from '../../server/mail/message.ts';
import { MailQueue, type MailSpec } from '../../server/mail/queue.ts';

const mailOf = (spec: MailSpec, key: string): OutgoingMail => ({
  from: 'Games <games@test.invalid>',
  to: String(spec.to),
  subject: `${spec.type} ${key}`,
  text: 'x',
  html: '<p>x</p>',
  messageId: messageIdFor(key, 'test.invalid'),
  attachments: [],
});

/**
 * A queue sending one mail at a time, each taking `sendMs`, recording each mail's key; `first`
 * settles when the first send starts. `test` runs on it, then it is stopped and its folder removed.
 */
async function withSlowQueue(
  sendMs: number,
  test: (q: MailQueue, sent: string[], first: Promise<void>) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mailq-prio-'));
  const sent: string[] = [];
  let started!: () => void;
  const first = new Promise<void>((r) => (started = r));
  const q = new MailQueue({
    dir,
    concurrency: 1,
    compose: mailOf,
    transport: {
      async send(mail) {
        sent.push(mail.subject.split(' ')[1]!);
        started();
        await new Promise((r) => setTimeout(r, sendMs));
      },
    },
  });
  await q.start();
  try {
    await test(q, sent, first);
  } finally {
    await q.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('mail queue order', () => {
  it('sends a turn mail queued behind 40 invitations next, not after them', async () => {
    await withSlowQueue(5, async (q, sent, first) => {
      for (let i = 0; i < 40; i++) await q.enqueueSpec(`invite:${i}`, { type: 'invite', to: `p${i}@test.invalid` });
      await first;
      await q.enqueueSpec('turn:1', { type: 'turn', to: 'player@test.invalid' });
      const queuedAt = sent.length;
      await q.idle();
      expect(sent).toHaveLength(41);
      expect(queuedAt).toBeLessThan(30);
      // At most the one being sent when it was queued goes before it.
      expect(sent.indexOf('turn:1')).toBeLessThanOrEqual(queuedAt + 1);
    });
  });

  it('sends mails queued while others go out in the order a fresh sort gives: oldest first within a priority', async () => {
    await withSlowQueue(2, async (q, sent, first) => {
      for (let i = 0; i < 10; i++) await q.enqueueSpec(`turn:a${i}`, { type: 'turn', to: `a${i}@test.invalid` });
      for (let i = 0; i < 3; i++) await q.enqueueSpec(`invite:a${i}`, { type: 'invite', to: `i${i}@test.invalid` });
      await first;
      // While the first round goes out: more turn mails, an invitation, a digest (between the two).
      for (let i = 0; i < 5; i++) await q.enqueueSpec(`turn:b${i}`, { type: 'turn', to: `b${i}@test.invalid` });
      await q.enqueueSpec('invite:b0', { type: 'invite', to: 'ib@test.invalid' });
      await q.enqueueSpec('digest:b0', { type: 'digest', to: 'd@test.invalid' });
      await q.idle();
      const turns = sent.filter((k) => k.startsWith('turn:'));
      expect(turns).toEqual([
        ...Array.from({ length: 10 }, (_, i) => `turn:a${i}`),
        ...Array.from({ length: 5 }, (_, i) => `turn:b${i}`),
      ]);
      // Every turn mail before the digest, the digest before the invitations still waiting.
      expect(sent.indexOf('digest:b0')).toBe(15);
      expect(sent.slice(16)).toEqual(['invite:a0', 'invite:a1', 'invite:a2', 'invite:b0']);
    });
  });
});
