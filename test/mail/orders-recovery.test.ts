// The mail of a standing order that stopped is queued durably like any other: when the process
// dies before the event of the move that stopped it reached the mailer, the restart's reconcile
// (the mail cursor, server/mail/cursor.ts) hears that move again and the owner is mailed, once.
import type { ParsedMail } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { game1830 } from '../../rules/1830/index.ts';
import { startTestMailer, type TestMailer } from '../support/mailer.ts';
import { makeService, type TestService } from '../support/service.ts';

let t: TestService;
let mail: TestMailer;

beforeEach(async () => {
  t = await makeService([game1830]);
  mail = await startTestMailer(t, { fakeClock: true });
});
afterEach(async () => {
  await mail.close();
  await t.cleanup();
});

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

describe('standing orders after a crash', () => {
  it('the owner of an order that stopped is mailed by the restart, once', async () => {
    const { gameId } = await t.service.create({
      rules: '1830',
      seats: 3,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(gameId, { name: 'Bob', email: 'bob@example.test' });
    await t.service.join(gameId, { name: 'Cy', email: 'cy@example.test' });
    const move = async (seat: number, action: unknown) => {
      const g = await t.service.open(gameId);
      await t.service.move(gameId, seat, { seq: g.stateSeq, action });
    };
    await t.service.leaveOrder(gameId, 1, { kind: 'auctionPass', unless: 'DH' });
    await move(0, { type: 'bid', company: 'SV', price: 20 }); // seat 1 passes by order
    await move(2, { type: 'bid', company: 'DH', price: 75 });
    await mail.settle();
    const owner = (await t.service.open(gameId)).doc.seats[1]!.email;
    const stopped = () =>
      mail.smtp.received.filter((m) => to(m) === owner && /standing order ended/.test(m.subject ?? ''));

    // The process "dies": the move that stops the order is durable, its event reaches no mailer.
    await mail.stop();
    await move(0, { type: 'pass' });
    const g = await t.service.open(gameId);
    expect(game1830.toAct(g.state)).toEqual([1]);
    expect(g.doc.seats[1]!.orders?.ended.at(-1)).toMatchObject({ why: 'somebody bid on DH', mail: true });
    expect(stopped()).toHaveLength(0);

    await mail.start();
    await mail.settle();
    expect(stopped()).toHaveLength(1);
    expect(stopped()[0]!.text).toContain('Your standing order ended: somebody bid on DH.');

    // Another restart: nothing is sent twice.
    await mail.stop();
    await mail.start();
    await mail.settle();
    expect(stopped()).toHaveLength(1);
  });
});
