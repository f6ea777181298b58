// Without SMTP_URL: mail is written to DATA_DIR/outbox as .eml files and
// listed at /outbox, as a fresh `npm start` shows it.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { highCard } from '../support/high-card.ts';
import { mailPlugin } from '../../server/mail/plugin.ts';
import type { Mailer } from '../../server/mail/index.ts';

let srv: TestServer;
let mailer: Mailer;

beforeEach(async () => {
  srv = await startTestServer({
    registry: [highCard],
    plugins: [mailPlugin({ env: {}, cron: false, onReady: (p) => (mailer = p.mailer) })],
  });
});
afterEach(async () => {
  await srv.stop();
});

describe('the outbox', () => {
  it('lists every message written instead of sent, each as .eml and as a page with its board', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    await srv.service.settled();
    await mailer.queue.idle();
    const list = await fetch(`${srv.url}/outbox`).then((r) => r.text());
    const ids = [...list.matchAll(/href="\/outbox\/([A-Za-z0-9_-]+)\.html"/g)].map((m) => m[1]!);
    expect(ids.length).toBe(3); // the organiser's set-up mail and two turn mails
    expect(list).toContain('Your turn in High Card');
    const turnId = /href="\/outbox\/([A-Za-z0-9_-]+)\.html">Your turn/.exec(list)![1]!;
    const eml = await fetch(`${srv.url}/outbox/${turnId}.eml`);
    expect(eml.status).toBe(200);
    const raw = await eml.text();
    expect(raw).toMatch(/^Message-ID: </m);
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const page = await fetch(`${srv.url}/outbox/${turnId}.html`).then((r) => r.text());
    expect(page).toContain('src="data:image/png;base64,');
    expect(g.seats.some((s) => page.includes(srv.ctx.links.playUrl(s.key)))).toBe(true);
    expect((await fetch(`${srv.url}/outbox/..%2Fsecret.key`)).status).toBe(404);
    expect((await fetch(`${srv.url}/outbox/${'x'.repeat(32)}.html`)).status).toBe(404);
  });

  it('writes only the .eml and its summary per message; the page is made from the .eml, or read from an older copy', async () => {
    await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    await srv.service.settled();
    await mailer.queue.idle();
    const dir = join(srv.dataDir, 'outbox');
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.eml')).length).toBe(3);
    expect(files.filter((f) => f.endsWith('.html'))).toEqual([]);
    // A data folder of an older server has an .html copy beside each .eml: it is served as it is.
    const id = files.find((f) => f.endsWith('.eml'))!.slice(0, -'.eml'.length);
    writeFileSync(join(dir, `${id}.html`), '<p>the copy an older server wrote</p>');
    expect(await fetch(`${srv.url}/outbox/${id}.html`).then((r) => r.text())).toBe(
      '<p>the copy an older server wrote</p>',
    );
  });
});
