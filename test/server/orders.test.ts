// Standing orders end to end (server/orders.ts, server/http/orders.ts): a player leaves an order
// with the page's plain form, another player's move sets off the programmed move in the same
// write, the order survives a restart, stops when somebody bids, and its owner gets the mail.
// Nobody else sees the order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { mailPlugin } from '../../server/mail/plugin.ts';
import type { Mailer } from '../../server/mail/index.ts';
import { smtpTransport } from '../../server/mail/transport.ts';
import { startSmtp, type TestSmtp } from '../mail/smtp.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let smtp: TestSmtp;
let dataDir: string;
let srv: TestServer | null = null;
let mailer: Mailer | null = null;

async function start(): Promise<TestServer> {
  srv = await startTestServer({
    registry: games,
    dataDir,
    plugins: [
      mailPlugin({
        env: { MAIL_FROM: 'Games <games@example.test>' },
        transport: smtpTransport(smtp.url),
        queue: { baseDelayMs: 20, maxDelayMs: 100 },
        cron: false,
        onReady: (p) => {
          mailer = p.mailer;
        },
      }),
    ],
  });
  return srv;
}

async function settle(s: TestServer): Promise<void> {
  await s.service.settled();
  await mailer!.queue.idle();
}

beforeAll(async () => {
  smtp = await startSmtp();
  dataDir = mkdtempSync(join(tmpdir(), 'pbem-orders-'));
});
afterEach(async () => {
  await srv?.stop();
  srv = null;
});
afterAll(async () => {
  await smtp.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

describe('standing orders', () => {
  it('are left by form, played at once when another move makes it the seat’s turn, kept private, and mail their owner when they stop', async () => {
    let s = await start();
    const game = await s.createGame({ rules: '1830', players: ['Ada', 'Bob', 'Cy'] });
    const [first, second, third] = game.seats as [
      (typeof game.seats)[0],
      (typeof game.seats)[0],
      (typeof game.seats)[0],
    ];
    let st = await s.state(first.key);
    expect(st.view.toAct).toEqual([first.seat]);

    // The second seat leaves "pass unless somebody bids on DH" with the page's plain form.
    const page = await (await fetch(`${s.url}/play/${second.key}/orders?kind=auctionPass`)).text();
    expect(page).toContain('Pass in the auction unless somebody bids on a private');
    const form = new URLSearchParams({ seq: String(st.game.seq), kind: 'auctionPass', unless: 'DH' });
    const left = await fetch(`${s.url}/play/${second.key}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(left.status, await left.text()).toBe(303);
    const own = await (await fetch(`${s.url}/play/${second.key}`)).text();
    expect(own).toContain('Pass in the private auction unless somebody bids on DH');

    // Orders are private: not on the other seats' pages, the spectators' or any download.
    const secret = 'unless somebody bids on DH';
    for (const url of [
      `/play/${first.key}`,
      `/play/${third.key}`,
      `/watch/${game.spectatorKey}`,
      `/play/${first.key}/history.json`,
      `/api/v1/play/${first.key}`,
    ])
      expect(await (await fetch(s.url + url)).text(), url).not.toContain(secret);

    // Orders are kept with the game: they survive a restart.
    await settle(s);
    await s.stop();
    s = await start();

    // The first seat buys SV; the second seat's order passes for it in the same write.
    st = await s.state(first.key);
    const bought = await s.move(first.key, st.game.seq, { type: 'bid', company: 'SV', price: 20 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const after = await s.state(third.key);
    expect(after.view.toAct).toEqual([third.seat]);
    expect(after.game.seq).toBe(bought.body.seq + 1);
    const hist = await s.api('GET', `/api/v1/play/${third.key}/history`);
    const programmed = hist.body.log.at(-1);
    expect(programmed).toMatchObject({ kind: 'move', seat: second.seat, data: { programmed: true } });
    expect(programmed.text).toMatch(/passes.*\(programmed\)$/);
    expect(s.events.filter((e) => e.type === 'moved').map((e) => (e as { programmed?: boolean }).programmed)).toEqual([
      undefined,
      true,
    ]);

    // Somebody bids on DH: when the second seat is next to act, the order stops and its owner is mailed.
    st = await s.state(third.key);
    expect((await s.move(third.key, st.game.seq, { type: 'bid', company: 'DH', price: 75 })).status).toBe(200);
    st = await s.state(first.key);
    expect((await s.move(first.key, st.game.seq, { type: 'pass' })).status).toBe(200);
    st = await s.state(second.key);
    expect(st.view.toAct).toEqual([second.seat]);
    const api = await s.api('GET', `/api/v1/play/${second.key}`);
    expect(api.body.orders.armed).toEqual([]);
    expect(api.body.orders.ended[0]).toMatchObject({ why: 'somebody bid on DH' });
    await settle(s);
    const stopped = smtp.received.filter((m) => /standing order ended/.test(m.subject ?? ''));
    expect(stopped.map(to)).toEqual([second.email]);
    expect(stopped[0]!.text).toContain('Your standing order ended: somebody bid on DH.');
    expect(stopped[0]!.text).toContain('It is your turn now');
    // Only the owner heard of it.
    for (const m of smtp.received.filter((x) => to(x) !== second.email)) expect(m.text ?? '').not.toContain(secret);
  });

  it('refuses an order it cannot keep and a stale page, and takes orders and cancels through the JSON API', async () => {
    const s = await start();
    const game = await s.createGame({ rules: '1830', players: ['Ada', 'Bob'] });
    const [first, second] = game.seats as [(typeof game.seats)[0], (typeof game.seats)[0]];
    const st = await s.state(first.key);
    const stale = await s.api('POST', `/api/v1/play/${second.key}/orders`, {
      seq: st.game.seq - 1,
      order: { kind: 'auctionPass', unless: 'CA' },
    });
    expect(stale.status).toBe(409);
    const bad = await s.api('POST', `/api/v1/play/${second.key}/orders`, { order: { kind: 'stockPass' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/stock round/);
    const ok = await s.api('POST', `/api/v1/play/${second.key}/orders`, {
      seq: st.game.seq,
      order: { kind: 'auctionBid', company: 'CA', upTo: 200 },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.orders.armed).toMatchObject([{ text: 'Bid on CA up to $200' }]);
    // Left while its seat is to act, an order plays at once.
    const mine = await s.api('POST', `/api/v1/play/${first.key}/orders`, {
      order: { kind: 'auctionBid', company: 'CA', upTo: 170 },
    });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const hist = (await s.api('GET', `/api/v1/play/${first.key}/history`)).body.log as { text: string; seat: number }[];
    const bids = hist.filter((e) => /programmed/.test(e.text ?? '')).map((e) => [e.seat, e.text]);
    // Ada bids 165, Bob's order raises to 170, Ada's order cannot go past 170: it stops (her turn again).
    expect(bids).toEqual([
      [first.seat, expect.stringMatching(/bids? \$165 .*CA.*\(programmed\)|CA.*\$165.*\(programmed\)/)],
      [second.seat, expect.stringMatching(/170.*\(programmed\)/)],
    ]);
    expect((await s.state(first.key)).view.toAct).toEqual([first.seat]);
    const again = await s.api('POST', `/api/v1/play/${first.key}/orders`, {
      order: { kind: 'auctionBid', company: 'CA', upTo: 170 },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('The next bid for CA is at least $175, more than $170');
    const cancel = await s.api('POST', `/api/v1/play/${second.key}/orders`, { cancel: ok.body.orders.armed[0].id });
    expect(cancel.status).toBe(200);
    expect(cancel.body.orders.armed).toEqual([]);
    expect(cancel.body.orders.ended.at(-1)).toMatchObject({ why: 'cancelled' });
  });
});
