// Timeouts in a game where a seat acts several times in a row (as in an 18xx operating turn):
// the server plays all of the absent seat's actions in the same tick, the absent player gets no
// "Your turn" mail in between, everyone gets one mail naming every move, and the escalation
// mail counts the reminders that were really sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { makeService, type TestService } from '../support/service.ts';
import { startTestMailer, type TestMailer } from '../support/mailer.ts';
import { ReminderJob } from '../../server/scheduler/reminders.ts';
import { RuleError, type Rules } from '../../rules/types.ts';

/** Seats take turns of three steps each; twelve steps end it. No chance. */
interface Steps {
  n: number;
}
const stepsRules: Rules<Steps, { type: 'step' }> = {
  id: 'steps',
  title: 'Steps',
  version: 1,
  players: { min: 2, max: 2 },
  setup: () => ({ n: 0 }),
  toAct: (s) => (s.n >= 12 ? [] : [Math.floor(s.n / 3) % 2]),
  apply(s, seat, action) {
    if (s.n >= 12 || seat !== Math.floor(s.n / 3) % 2 || (action as { type?: string })?.type !== 'step')
      throw new RuleError('Not now.');
    s.n++;
  },
  moves: () => [{ type: 'step' }],
  view: (s, seat) => ({ seat, toAct: s.n >= 12 ? [] : [Math.floor(s.n / 3) % 2], status: `${s.n} steps` }),
  outcome: (s) => (s.n >= 12 ? { scores: [0, 0], ranks: [1, 1], reason: 'twelve steps' } : null),
  describe: (_a, s) => `took step ${s.n + 1}`,
  label: (_a, s) => `Take step ${s.n + 1}`,
  autoMove: () => ({ type: 'step' }),
};

let t: TestService;
let mail: TestMailer;
let job: ReminderJob;

beforeEach(async () => {
  t = await makeService([stepsRules]);
  mail = await startTestMailer(t);
  job = new ReminderJob({ service: t.service, queue: mail.mailer.queue, now: () => t.clock.now().getTime() });
});
afterEach(async () => {
  await mail.close();
  await t.cleanup();
});

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

async function game(onTimeout: 'autoMove' | 'notify') {
  const { gameId } = await t.service.create({
    rules: 'steps',
    seats: 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
    policy: { remindAfterHours: 10, repeatHours: 5, maxReminders: 2, onTimeout },
  });
  await t.service.join(gameId, { name: 'Bob', email: 'bob@example.test' });
  await mail.settle();
  const g = await t.service.open(gameId);
  const absent = g.doc.seats[0]!.email;
  const other = g.doc.seats[1]!.email;
  return { gameId, absent, other };
}

describe('timeouts', () => {
  it("plays all of an absent seat's actions in one tick, with one mail and no turn mail in between", async () => {
    const { gameId, absent, other } = await game('autoMove');
    t.clock.advanceHours(10);
    await job.tick();
    t.clock.advanceHours(5);
    await job.tick();
    await mail.settle();
    const before = mail.smtp.received.length;
    t.clock.advanceHours(5); // the escalation: the server plays for seat 1
    const r = await job.tick();
    await mail.settle();
    expect(r.autoMoves).toBe(3);
    const g = await t.service.open(gameId);
    expect((g.state as Steps).n).toBe(3); // all three steps, in this one tick
    expect(g.doc.log.filter((e) => e.kind === 'move' && e.data?.auto === true)).toHaveLength(3);
    const mails = mail.smtp.received.slice(before);
    const toAbsent = mails.filter((m) => to(m) === absent);
    expect(toAbsent.filter((m) => /^Your turn/.test(m.subject ?? ''))).toHaveLength(0);
    const auto = mails.filter((m) => /the server played for/.test(m.subject ?? ''));
    expect(auto.map(to).sort()).toEqual(['ada@example.test', 'bob@example.test']);
    for (const m of auto) {
      expect(m.text).toContain('after 2 reminders');
      for (const k of [1, 2, 3]) expect(m.text).toContain(`took step ${k}`);
    }
    // The other player is asked to move, once.
    const otherTurn = mails.filter((m) => to(m) === other && /^Your turn/.test(m.subject ?? ''));
    expect(otherTurn).toHaveLength(1);
    // Nothing more for that wait at the next tick.
    expect((await job.tick()).autoMoves).toBe(0);
  });

  it('counts the reminders really sent in the escalation mail', async () => {
    await game('notify');
    t.clock.advanceHours(10);
    await job.tick();
    t.clock.advanceHours(5);
    await job.tick();
    t.clock.advanceHours(5);
    await job.tick();
    await mail.settle();
    const esc = mail.smtp.received.filter((m) => /is waiting for/.test(m.subject ?? ''));
    expect(esc).toHaveLength(2);
    for (const m of esc) expect(m.text).toContain('after 2 reminders');
  });
});
