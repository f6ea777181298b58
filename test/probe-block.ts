import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import MailComposer from 'nodemailer/lib/mail-composer';
import { games } from '../rules/index.ts';
import { makeService } from './support/service.ts';
import { createMailer } from '../server/mail/index.ts';
import { replyAddress } from '../server/mail/reply-address.ts';
const rules = games.find((g) => g.id === 'stephensons-rocket')!;
const dir = mkdtempSync(join(tmpdir(), 'probe-'));
const t = await makeService([rules], dir);
const mailer = createMailer({ service: t.service, dataDir: dir, env: { MAIL_FROM: 'G <g@example.test>', MAIL_DOMAIN: 'play.example.test', INBOUND_PER_SENDER_HOUR: '100000' }, transport: { send: async () => {} } });
const made = await t.service.create({ rules: rules.id, seats: 2, name: 'P0', email: 'p0@example.test', join: true });
await t.service.join(made.gameId, { name: 'P1', email: 'p1@example.test' });
const build = (o: any) => new Promise<Buffer>((res, rej) => new MailComposer(o).compile().build((e, m) => (e ? rej(e) : res(m))));
const h = monitorEventLoopDelay({ resolution: 1 });
const big = 'word '.repeat(180_000);
const cases: Record<string, any> = {
  text1MB: { text: `say hi\n\n${'> quoted line of text here ok\n'.repeat(33_000)}` },
  textNoQuote900k: { text: `say hi\n\n${big}` },
  html200k: { html: `<div>say hi</div><blockquote>${'<p>some <b>quoted</b> html text</p>'.repeat(5_500)}</blockquote>` },
  html900k: { html: `<div>say hi</div><blockquote>${'<p>some <b>quoted</b> html text</p>'.repeat(25_000)}</blockquote>` },
  htmlNested: { html: `<div>say hi</div>${'<div>'.repeat(20000)}x${'</div>'.repeat(20000)}` },
  manyParts: { text: 'say hi', attachments: Array.from({ length: 500 }, (_, i) => ({ filename: `a${i}.txt`, content: 'x'.repeat(1000) })) },
};
for (const [k, o] of Object.entries(cases).filter(([k]) => !process.env.ONLY || k === process.env.ONLY)) {
  const game = await t.service.open(made.gameId);
  const seat = 0; const to = replyAddress(made.gameId, t.service.links.replyTokenOf(game.doc, seat)!, 'play.example.test');
  const raw = await build({ from: 'p0@example.test', to, subject: 'Re: x', ...o });
  h.reset(); h.enable();
  const t0 = performance.now();
  const v = await mailer.desk!.receive(raw, { recipients: [to] });
  const ms = performance.now() - t0;
  h.disable();
  console.log(k.padEnd(16), (raw.length / 1024).toFixed(0).padStart(5), 'KiB', v.status, 'wall', ms.toFixed(0), 'ms; longest block', (h.max / 1e6).toFixed(0), 'ms');
}
await mailer.queue.stop(); await t.cleanup();
