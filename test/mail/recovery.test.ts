// Crash recovery of mail with no time window: a restart hours or days after the
// crash still sends the mail of every entry whose event died with the process
// (the mail cursor, server/mail/cursor.ts), opens only the games behind their
// cursor, and a cursor that lags (its last save lost in the crash) repeats no mail.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { highCard } from '../support/high-card.ts';
import { startTestMailer, type TestMailer } from '../support/mailer.ts';
import { makeService, type TestService } from '../support/service.ts';

let t: TestService;
let mail: TestMailer;
let reconciled: { opened: number; fresh: boolean }[];

beforeEach(async () => {
  t = await makeService([highCard]);
  reconciled = [];
  mail = await startTestMailer(t, {
    fakeClock: true,
    log: (e) => {
      if (e.msg === 'mail reconciled') reconciled.push(e as unknown as { opened: number; fresh: boolean });
    },
  });
});
afterEach(async () => {
  await mail.close();
  await t.cleanup();
});

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

async function twoSeatGame(): Promise<string> {
  const created = await t.service.create({
    rules: 'high-card',
    seats: 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
  });
  await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
  return created.gameId;
}

/**
 * Seats 0 and 1 play their first legal moves (both choose a stake, so somebody is
 * newly asked to act); returns who is asked next and the position.
 */
async function play(gameId: string): Promise<{ next: string; seq: number }> {
  for (const seat of [0, 1]) {
    const g = await t.service.open(gameId);
    await t.service.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
  }
  const g = await t.service.open(gameId);
  return { next: g.doc.seats[highCard.toAct(g.state)[0]!]!.email, seq: g.stateSeq };
}

const turnMailsTo = (email: string, seq: number) =>
  mail.smtp.received.filter(
    (m) => to(m) === email && /^Your turn/.test(m.subject ?? '') && m.subject!.includes(`(move ${seq})`),
  );

describe('mail crash recovery', () => {
  it('a restart days after the crash sends the lost turn mail once and opens only the game behind its cursor', async () => {
    const lost = await twoSeatGame();
    await twoSeatGame(); // all its mail goes before the crash
    await mail.settle();
    // The process "dies": the next durable move's event reaches no listener.
    await mail.stop();
    t.clock.advanceHours(3);
    const { next, seq } = await play(lost);
    t.clock.advanceHours(4 * 24);
    expect(turnMailsTo(next, seq)).toHaveLength(0);

    await mail.start();
    await mail.settle();
    expect(turnMailsTo(next, seq)).toHaveLength(1);
    expect(reconciled.at(-1)).toEqual({ msg: 'mail reconciled', opened: 1, fresh: false });

    // Another restart a day later: nothing is behind, nothing is opened or sent.
    const sent = mail.smtp.received.length;
    await mail.stop();
    t.clock.advanceHours(24);
    await mail.start();
    await mail.settle();
    expect(reconciled.at(-1)).toMatchObject({ opened: 0 });
    expect(mail.smtp.received.length).toBe(sent);
    expect(new Set(mail.smtp.messageIds).size).toBe(mail.smtp.messageIds.length);
  });

  it('a cursor whose last saves were lost replays entries already mailed without sending anything twice', async () => {
    const gameId = await twoSeatGame();
    await mail.settle();
    await mail.stop();
    const cursorFile = join(t.dataDir, 'mail', 'cursor.json');
    copyFileSync(cursorFile, `${cursorFile}.old`);

    await mail.start();
    await play(gameId);
    await mail.settle();
    const sent = mail.smtp.received.length;
    await mail.stop();
    // The crash lost every cursor save since the start of the game.
    copyFileSync(`${cursorFile}.old`, cursorFile);
    t.clock.advanceHours(30);

    await mail.start();
    await mail.settle();
    expect(reconciled.at(-1)).toMatchObject({ opened: 1 });
    expect(mail.smtp.received.length).toBe(sent);
    expect(new Set(mail.smtp.messageIds).size).toBe(mail.smtp.messageIds.length);
  });
});
