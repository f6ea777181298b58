// A mail queue in its own process, for the SIGKILL test: queues MAIL_COUNT
// messages to SMTP_URL and keeps sending (or retrying) until it is killed.
// Prints {"queued":n} once every message is on disk.
import { MailQueue } from '../../server/mail/queue.ts';
import { smtpTransport } from '../../server/mail/transport.ts';
import { messageIdFor } from '../../server/mail/message.ts';

const dir = process.env.MAIL_DIR!;
const count = Number(process.env.MAIL_COUNT ?? 10);
const q = new MailQueue({
  dir,
  transport: smtpTransport(process.env.SMTP_URL!),
  baseDelayMs: 15,
  maxDelayMs: 60,
  concurrency: 2,
});
await q.start();
for (let i = 0; i < count; i++) {
  const key = `kill:${i}`;
  await q.enqueue(key, {
    from: 'games@test.invalid',
    to: `p${i}@test.invalid`,
    subject: `Message ${i}`,
    text: `Body ${i}`,
    messageId: messageIdFor(key, 'test.invalid'),
  });
}
process.stdout.write(`${JSON.stringify({ queued: count })}\n`);
setInterval(() => {}, 1000);
