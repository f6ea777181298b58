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

describe('mail queue order', () => {
  it('sends a turn mail queued behind 40 invitations next, not after them', async () => {
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
          sent.push(mail.subject);
          started();
          await new Promise((r) => setTimeout(r, 5));
        },
      },
    });
    await q.start();
    try {
      for (let i = 0; i < 40; i++) await q.enqueueSpec(`invite:${i}`, { type: 'invite', to: `p${i}@test.invalid` });
      await first;
      await q.enqueueSpec('turn:1', { type: 'turn', to: 'player@test.invalid' });
      const queuedAt = sent.length;
      await q.idle();
      expect(sent).toHaveLength(41);
      expect(queuedAt).toBeLessThan(30);
      // At most the one being sent when it was queued goes before it.
      expect(sent.indexOf('turn turn:1')).toBeLessThanOrEqual(queuedAt + 1);
    } finally {
      await q.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
