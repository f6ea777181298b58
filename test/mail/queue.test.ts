// The persisted mail queue against a real SMTP server on loopback: a server
// that refuses mail for a while loses nothing, delivers everything once it
// recovers, and never delivers a message twice, also across queue restarts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, readdir, readFile, writeFile, mkdir, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailQueue, receiptIds } from '../../server/mail/queue.ts';
import { smtpTransport, outboxTransport, listOutbox } from '../../server/mail/transport.ts';
import { mailId, messageIdFor, type OutgoingMail } from '../../server/mail/message.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

function mail(key: string, n: number): OutgoingMail {
  return {
    from: 'Share Games <games@test.invalid>',
    to: `player${n}@test.invalid`,
    subject: `Message ${n}`,
    text: `Body ${n}`,
    html: `<p>Body ${n}</p>`,
    messageId: messageIdFor(key, 'test.invalid'),
    attachments: [
      {
        filename: 'board.png',
        contentType: 'image/png',
        cid: 'board',
        contentBase64: Buffer.from('not really a png').toString('base64'),
      },
    ],
  };
}

let dir: string;
let smtp: TestSmtp;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailq-'));
  smtp = await startSmtp();
});
afterEach(async () => {
  await smtp.close();
  await rm(dir, { recursive: true, force: true });
});

const fast = { baseDelayMs: 15, maxDelayMs: 120 };

describe('mail queue', () => {
  it('keeps everything while the SMTP server refuses, then delivers each message exactly once, across a restart', async () => {
    smtp.refuse = true;
    let q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    await q.start();
    const keys = Array.from({ length: 12 }, (_, i) => `test:${i}`);
    for (const [i, k] of keys.entries()) expect(await q.enqueue(k, mail(k, i))).toBe(true);
    // The same key again is not a second message.
    expect(await q.enqueue(keys[0]!, mail(keys[0]!, 0))).toBe(false);
    while (smtp.refused < 24) await new Promise((r) => setTimeout(r, 10));
    expect(smtp.received).toHaveLength(0);
    await q.stop();
    expect((await readdir(join(dir, 'queue'))).filter((f) => f.endsWith('.json'))).toHaveLength(12);

    // A fresh process: the records are loaded from disk, still refused for a while.
    q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    await q.start();
    expect(q.stats().pending).toBe(12);
    const before = smtp.refused;
    while (smtp.refused < before + 12) await new Promise((r) => setTimeout(r, 10));
    smtp.refuse = false;
    await smtp.waitFor(12);
    await q.idle();
    // Enqueue after sending: still known, not sent again.
    expect(await q.enqueue(keys[3]!, mail(keys[3]!, 3))).toBe(false);
    await q.stop();

    // And once more after another restart: nothing left, nothing resent.
    q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    await q.start();
    expect(q.stats().pending).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    await q.stop();

    expect(smtp.received).toHaveLength(12);
    const ids = smtp.messageIds;
    expect(new Set(ids).size).toBe(12);
    expect(ids.sort()).toEqual(keys.map((k) => messageIdFor(k, 'test.invalid')).sort());
    expect(smtp.received.map((m) => m.subject).sort()).toEqual(keys.map((_, i) => `Message ${i}`).sort());
    expect(smtp.received[0]!.attachments[0]!.cid).toBe('board');
    expect(await readdir(join(dir, 'queue'))).toHaveLength(0);
    expect(await receiptIds(dir)).toHaveProperty('size', 12);
  });

  it('after a crash: a message with a receipt is not sent again; one caught mid-attempt is sent with the same Message-ID', async () => {
    // Simulate what a SIGKILL leaves: two records marked attempting, one of which was accepted and has its receipt.
    await mkdir(join(dir, 'queue'), { recursive: true });
    await mkdir(join(dir, 'sent'), { recursive: true });
    for (const [i, key] of ['crash:a', 'crash:b'].entries()) {
      const id = mailId(key);
      const rec = { key, id, state: 'attempting', attempts: 1, createdAt: 0, nextAttemptAt: 0, mail: mail(key, i) };
      await writeFile(join(dir, 'queue', `${id}.json`), JSON.stringify(rec));
    }
    await writeFile(
      join(dir, 'sent', `${mailId('crash:a')}.json`),
      JSON.stringify({ key: 'crash:a', id: mailId('crash:a') }),
    );
    const q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    await q.start();
    await smtp.waitFor(1);
    await q.idle();
    await new Promise((r) => setTimeout(r, 50));
    await q.stop();
    expect(smtp.messageIds).toEqual([messageIdFor('crash:b', 'test.invalid')]);
    expect(await readdir(join(dir, 'queue'))).toHaveLength(0);
  });

  it('queues messages as lines of a journal: a crash before any attempt loses none, a cut last line is left out, the journal goes when done', async () => {
    smtp.refuse = true;
    // A queue that is never started sends nothing: it is killed with three messages queued.
    const dead = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    const keys = ['journal:a', 'journal:b', 'journal:c'];
    await Promise.all(keys.map((k, i) => dead.enqueue(k, mail(k, i))));
    const journals = (await readdir(join(dir, 'queue'))).filter((f) => f.endsWith('.jsonl'));
    expect(journals).toHaveLength(1);
    expect((await readdir(join(dir, 'queue'))).filter((f) => f.endsWith('.json'))).toHaveLength(0);
    // The crash cut a fourth line short: it was never acknowledged, and is not sent.
    const path = join(dir, 'queue', journals[0]!);
    await writeFile(path, `${await readFile(path, 'utf8')}{"format":1,"key":"journal:d","id":"x`);
    smtp.refuse = false;
    const q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    await q.start();
    expect(await q.enqueue('journal:b', mail('journal:b', 1))).toBe(false);
    await smtp.waitFor(3);
    await q.idle();
    await new Promise((r) => setTimeout(r, 50));
    await q.stop();
    expect([...smtp.messageIds].sort()).toEqual(keys.map((k) => messageIdFor(k, 'test.invalid')).sort());
    expect(await readdir(join(dir, 'queue'))).toEqual([]);
  });

  it('gives up on a permanent refusal after a few attempts and keeps the message in failed/', async () => {
    const transport = {
      send: async () => {
        throw Object.assign(new Error('550 no such user'), { responseCode: 550 });
      },
    };
    const q = new MailQueue({ dir, transport, ...fast, maxPermanentAttempts: 3 });
    await q.start();
    await q.enqueue('perm:1', mail('perm:1', 1));
    await q.idle(5000);
    await q.stop();
    expect(q.stats()).toMatchObject({ failed: 1, attempts: 3, sent: 0 });
    const failed = await readdir(join(dir, 'failed'));
    expect(failed).toEqual([`${mailId('perm:1')}.json`]);
    expect(JSON.parse(await readFile(join(dir, 'failed', failed[0]!), 'utf8')).mail.subject).toBe('Message 1');
    // Known key: enqueueing it again does not resurrect it.
    const q2 = new MailQueue({ dir, transport, ...fast });
    await q2.start();
    expect(await q2.enqueue('perm:1', mail('perm:1', 1))).toBe(false);
    await q2.stop();
  });

  it('a batch of specs (one durable write) survives a restart while refused, and each is sent once', async () => {
    smtp.refuse = true;
    const compose = (spec: { type: string; n?: unknown }, key: string) => mail(key, Number(spec.n));
    let q = new MailQueue({ dir, transport: smtpTransport(smtp.url), compose, ...fast });
    await q.start();
    const items = Array.from({ length: 8 }, (_, n) => ({ key: `batch:${n}`, spec: { type: 'test', n } }));
    expect(await q.enqueueSpecs(items)).toBe(8);
    expect(await q.enqueueSpecs(items)).toBe(0); // known keys
    expect(await q.enqueue('batch:3', mail('batch:3', 3))).toBe(false);
    const files = await readdir(join(dir, 'queue'));
    expect(files.filter((f) => f.startsWith('batch-'))).toHaveLength(1);
    while (smtp.refused < 8) await new Promise((r) => setTimeout(r, 10));
    await q.stop();
    q = new MailQueue({ dir, transport: smtpTransport(smtp.url), compose, ...fast });
    await q.start();
    expect(q.stats().pending).toBe(8);
    smtp.refuse = false;
    await smtp.waitFor(8);
    await q.idle();
    await q.stop();
    expect(smtp.messageIds.sort()).toEqual(items.map((i) => messageIdFor(i.key, 'test.invalid')).sort());
    expect(await readdir(join(dir, 'queue'))).toHaveLength(0);
  });

  it('tidies away receipts older than the keep time', async () => {
    const q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast, keepReceiptsMs: 24 * 3600_000 });
    await q.start();
    await q.enqueue('old:1', mail('old:1', 1));
    await q.enqueue('new:2', mail('new:2', 2));
    await q.idle();
    await q.stop();
    // A receipts file goes whole once its newest line is older than the keep time; a receipt
    // written by an older server (a file of its own) goes by its own time.
    const [old] = (await readdir(join(dir, 'sent'))).filter((f) => f.startsWith('receipts-'));
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await utimes(join(dir, 'sent', old!), twoDaysAgo, twoDaysAgo);
    await writeFile(join(dir, 'sent', `${mailId('older:0')}.json`), '{}');
    await utimes(join(dir, 'sent', `${mailId('older:0')}.json`), twoDaysAgo, twoDaysAgo);
    await writeFile(join(dir, 'sent', `${mailId('kept:3')}.json`), '{}');
    const again = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast, keepReceiptsMs: 24 * 3600_000 });
    await again.start();
    expect(await again.knows('old:1')).toBe(true);
    expect(await again.pruneReceipts()).toBe(3);
    expect(await again.knows('old:1')).toBe(false);
    expect(await again.knows('kept:3')).toBe(true);
    expect([...(await receiptIds(dir))]).toEqual([mailId('kept:3')]);
    await again.stop();
  });

  it('writes .eml files to the outbox exactly once without SMTP_URL', async () => {
    const outbox = join(dir, 'outbox');
    const q = new MailQueue({ dir: join(dir, 'mail'), transport: outboxTransport(outbox), ...fast });
    await q.start();
    await q.enqueue('ob:1', mail('ob:1', 1));
    await q.enqueue('ob:2', mail('ob:2', 2));
    await q.idle();
    await q.stop();
    const list = await listOutbox(outbox);
    expect(list.map((e) => e.subject).sort()).toEqual(['Message 1', 'Message 2']);
    const eml = await readFile(join(outbox, `${mailId('ob:1')}.eml`), 'utf8');
    expect(eml).toContain(`Message-ID: ${messageIdFor('ob:1', 'test.invalid')}`);
    expect(eml).toContain('Content-ID: <board>');
  });

  it('keeps receipts as lines of a journal: after a restart nothing with a receipt goes again, a cut last line is sent again', async () => {
    let q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    await q.start();
    const keys = ['r:a', 'r:b', 'r:c'];
    await Promise.all(keys.map((k, i) => q.enqueue(k, mail(k, i))));
    await smtp.waitFor(3);
    await q.idle();
    await q.stop();
    const files = (await readdir(join(dir, 'sent'))).filter((f) => f.startsWith('receipts-'));
    expect(files).toHaveLength(1);
    expect((await readdir(join(dir, 'sent'))).filter((f) => f.endsWith('.json'))).toHaveLength(0);
    // A crash cut the last receipt short: that mail was never known to be sent.
    const path = join(dir, 'sent', files[0]!);
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const last = JSON.parse(lines[2]!) as { key: string };
    await writeFile(path, `${lines.slice(0, 2).join('\n')}\n${lines[2]!.slice(0, 20)}`);
    // ...so its line in the queue's journal was still there (that file goes after the receipt).
    const record = { format: 1, key: last.key, id: mailId(last.key), state: 'pending', attempts: 0, createdAt: 0 };
    await writeFile(
      join(dir, 'queue', 'journal-0-000000000000.jsonl'),
      `${JSON.stringify({ ...record, nextAttemptAt: 0, mail: mail(last.key, 2) })}\n`,
    );
    q = new MailQueue({ dir, transport: smtpTransport(smtp.url), ...fast });
    for (const k of keys.slice(0, 2)) expect(await q.knows(k)).toBe(true);
    expect(await q.enqueue('r:a', mail('r:a', 0))).toBe(false);
    await q.start();
    await smtp.waitFor(4);
    await q.idle();
    await q.stop();
    expect(smtp.messageIds.filter((m) => m === messageIdFor(last.key, 'test.invalid'))).toHaveLength(2);
    expect(smtp.messageIds).toHaveLength(4);
    expect(await receiptIds(dir)).toEqual(new Set(keys.map(mailId)));
  });

  it('outbox: a crash after the .eml and before its receipt writes no second copy, and the list reads the .eml when its summary is lost', async () => {
    const outbox = join(dir, 'outbox');
    const transport = outboxTransport(outbox);
    // What a crash leaves: the .eml written (its summary not), no receipt, the record still queued.
    await transport.send(mail('ob:crash', 7), mailId('ob:crash'));
    await rm(join(outbox, `${mailId('ob:crash')}.json`));
    const eml = await readFile(join(outbox, `${mailId('ob:crash')}.eml`));
    await mkdir(join(dir, 'mail', 'queue'), { recursive: true });
    const rec = {
      key: 'ob:crash',
      id: mailId('ob:crash'),
      state: 'attempting',
      attempts: 1,
      createdAt: 0,
      nextAttemptAt: 0,
    };
    await writeFile(
      join(dir, 'mail', 'queue', `${rec.id}.json`),
      JSON.stringify({ ...rec, mail: mail('ob:crash', 7) }),
    );
    const listed = await listOutbox(outbox);
    expect(listed.map((e) => [e.id, e.to, e.subject])).toEqual([[rec.id, 'player7@test.invalid', 'Message 7']]);
    const q = new MailQueue({ dir: join(dir, 'mail'), transport: outboxTransport(outbox), ...fast });
    await q.start();
    await q.idle();
    await q.stop();
    expect(q.stats().sent).toBe(1);
    expect(await receiptIds(join(dir, 'mail'))).toEqual(new Set([rec.id]));
    expect((await readdir(outbox)).filter((f) => f.endsWith('.eml'))).toEqual([`${rec.id}.eml`]);
    expect(await readFile(join(outbox, `${rec.id}.eml`))).toEqual(eml);
  });
});
