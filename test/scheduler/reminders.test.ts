// The reminder job with an injected clock: the policy's schedule is kept to
// the hour, also across a restart (new service, new mailer, new job on the
// same data folder); the escalation and the autoMove happen exactly once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { makeService, type TestService } from '../support/service.ts';
import { highCard } from '../support/high-card.ts';
import { startTestMailer, type TestMailer } from '../support/mailer.ts';
import { ReminderJob } from '../../server/scheduler/reminders.ts';
import { decideReminder } from '../../server/scheduler/decide.ts';
import type { GameService } from '../../server/service.ts';
import type { ReminderPolicy } from '../../server/store/types.ts';

let t: TestService;
let mail: TestMailer;
/** The service running now (a restart reopens it). */
let service: GameService;
let job: ReminderJob;

/** A restart: a new service (reopened on the same folder), a new mailer and a new job. */
async function restart(): Promise<void> {
  await mail.stop();
  service = await t.reopen();
  const mailer = await mail.start({ service });
  job = new ReminderJob({ service, queue: mailer.queue, now: () => t.clock.now().getTime() });
}

beforeEach(async () => {
  t = await makeService([highCard]);
  service = t.service;
  mail = await startTestMailer(t);
  job = new ReminderJob({ service, queue: mail.mailer.queue, now: () => t.clock.now().getTime() });
});
afterEach(async () => {
  await mail.close();
  await t.cleanup();
});

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

/** A two-seat game in its play phase: both stakes chosen, one seat to move. */
async function gameWaiting(policy: ReminderPolicy) {
  const { gameId } = await t.service.create({
    rules: 'high-card',
    seats: 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
    policy,
  });
  await t.service.join(gameId, { name: 'Bob', email: 'bob@example.test' });
  for (const seat of [0, 1]) {
    const g = await t.service.open(gameId);
    await t.service.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
  }
  await mail.settle();
  const g = await t.service.open(gameId);
  const waiting = highCard.toAct(g.state)[0]!;
  return { gameId, waiting, email: g.doc.seats[waiting]!.email, other: g.doc.seats[1 - waiting]!.email };
}

describe('decideReminder', () => {
  const policy: ReminderPolicy = { remindAfterHours: 24, repeatHours: 12, maxReminders: 2, onTimeout: 'autoMove' };
  const since = '2026-01-01T00:00:00.000Z';
  const at = (h: number) => Date.parse(since) + h * 3600_000;
  const wait = (reminders: number, escalated = false) => ({ toAct: [1], since, stateSeq: 5, reminders, escalated });
  it('follows the schedule: N hours, then every M, at most K, then the escalation, then nothing', () => {
    expect(decideReminder({ status: 'active', policy, wait: wait(0) }, at(23.99), true)).toMatchObject({
      kind: 'none',
      nextAt: at(24),
    });
    expect(decideReminder({ status: 'active', policy, wait: wait(0) }, at(24), true)).toMatchObject({
      kind: 'remind',
      number: 1,
      of: 2,
      seats: [1],
    });
    expect(decideReminder({ status: 'active', policy, wait: wait(1) }, at(35), true)).toMatchObject({
      kind: 'none',
      nextAt: at(36),
    });
    expect(decideReminder({ status: 'active', policy, wait: wait(1) }, at(36), true)).toMatchObject({
      kind: 'remind',
      number: 2,
    });
    expect(decideReminder({ status: 'active', policy, wait: wait(2) }, at(48), true)).toMatchObject({
      kind: 'escalate',
      autoMove: true,
    });
    expect(decideReminder({ status: 'active', policy, wait: wait(2) }, at(48), false)).toMatchObject({
      kind: 'escalate',
      autoMove: false,
    });
    expect(
      decideReminder({ status: 'active', policy: { ...policy, onTimeout: 'notify' }, wait: wait(2) }, at(48), true),
    ).toMatchObject({ kind: 'escalate', autoMove: false });
    expect(decideReminder({ status: 'active', policy, wait: wait(2, true) }, at(1000), true)).toMatchObject({
      kind: 'none',
      nextAt: null,
    });
    expect(decideReminder({ status: 'finished', policy, wait: wait(0) }, at(1000), true).kind).toBe('none');
    expect(
      decideReminder({ status: 'active', policy: { ...policy, remindAfterHours: 0 }, wait: wait(0) }, at(1000), true)
        .kind,
    ).toBe('none');
  });
});

describe('reminder job', () => {
  it('keeps the schedule across a restart; the autoMove is played once', async () => {
    const policy: ReminderPolicy = { remindAfterHours: 24, repeatHours: 12, maxReminders: 2, onTimeout: 'autoMove' };
    const { gameId, waiting, email, other } = await gameWaiting(policy);
    const reminders = () => mail.smtp.received.filter((m) => /^Reminder: your move/.test(m.subject ?? ''));

    t.clock.advanceHours(23.9);
    expect(await job.tick()).toMatchObject({ due: 0, opened: 0 });
    t.clock.advanceHours(0.1); // exactly 24 h
    // A reminder is taken on the game's index row: the game is not opened for it.
    expect(await job.tick()).toMatchObject({ due: 1, opened: 0, reminders: 1 });
    // The game this process keeps in memory has it too.
    const held = await service.open(gameId);
    expect(held.doc.wait?.reminders).toBe(1);
    expect(held.doc.log[held.doc.log.length - 1]).toMatchObject({
      kind: 'reminder',
      text: `Reminder 1 of 2 to ${held.doc.seats[waiting]!.name}`,
    });
    expect(await job.tick()).toMatchObject({ due: 0, reminders: 0 }); // not twice
    await mail.settle();
    expect(reminders().map(to)).toEqual([email]);
    expect(reminders()[0]!.text).toContain('Reminder 1 of 2');

    // Restart: everything rebuilt from the data folder.
    await restart();
    t.clock.advanceHours(11.9);
    expect(await job.tick()).toMatchObject({ due: 0 });
    t.clock.advanceHours(0.1); // 36 h
    expect(await job.tick()).toMatchObject({ due: 1, reminders: 1 });
    expect(await job.tick()).toMatchObject({ due: 0 });
    await mail.settle();
    expect(reminders().map(to)).toEqual([email, email]);
    expect(reminders()[1]!.text).toContain('Reminder 2 of 2');

    // Restart again just before the escalation.
    await restart();
    t.clock.advanceHours(11.9);
    expect(await job.tick()).toMatchObject({ due: 0 });
    t.clock.advanceHours(0.1); // 48 h: escalation, autoMove
    expect(await job.tick()).toMatchObject({ due: 1, opened: 1, autoMoves: 1 });
    expect(await job.tick()).toMatchObject({ due: 0, autoMoves: 0 });
    await mail.settle();
    const g = await service.open(gameId);
    const autos = g.doc.log.filter((e) => e.kind === 'move' && e.data?.auto);
    expect(autos).toHaveLength(1);
    expect(autos[0]!.seat).toBe(waiting);
    expect(g.doc.log.filter((e) => e.kind === 'reminder').map((e) => e.at)).toEqual([
      new Date(Date.parse('2026-01-01T12:00:00.000Z') + 24 * 3600_000).toISOString(),
      new Date(Date.parse('2026-01-01T12:00:00.000Z') + 36 * 3600_000).toISOString(),
    ]);
    // Everyone is told what the server played; the next seat gets its turn.
    const notices = mail.smtp.received.filter((m) => /the server played for/.test(m.subject ?? ''));
    expect(notices.map(to).sort()).toEqual([email, other].sort());
    expect(notices[0]!.text).toContain(autos[0]!.text!);
    // Much later ticks never repeat it: the new wait has its own schedule.
    t.clock.advanceHours(1);
    expect(await job.tick()).toMatchObject({ due: 0 });
    expect(new Set(mail.smtp.messageIds).size).toBe(mail.smtp.messageIds.length);
  });

  it('a game moved after the due list was read is not reminded of the old turn', async () => {
    const policy: ReminderPolicy = { remindAfterHours: 24, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' };
    const { gameId, waiting } = await gameWaiting(policy);
    const reminders = () => mail.smtp.received.filter((m) => /^Reminder: your move/.test(m.subject ?? ''));
    t.clock.advanceHours(25);
    // The waiting seat moves between the job's reading of the due games and its reminder.
    const readDue = service.dueReminders.bind(service);
    vi.spyOn(service, 'dueReminders').mockImplementationOnce(async (now) => {
      const due = await readDue(now);
      const g = await service.open(gameId);
      await service.move(gameId, waiting, { seq: g.stateSeq, action: highCard.moves(g.state, waiting)[0] });
      return due;
    });
    const before = (await service.open(gameId)).doc.log.length;
    expect(await job.tick()).toMatchObject({ due: 1, opened: 0, reminders: 0, errors: 0 });
    await mail.settle();
    expect(reminders()).toEqual([]);
    const g = await service.open(gameId);
    expect(g.doc.log.filter((e) => e.kind === 'reminder')).toEqual([]);
    expect(g.doc.log.slice(before).map((e) => e.kind)).toEqual(['move']);
    // The new wait keeps its own schedule, from the move.
    expect(g.doc.wait?.reminders ?? 0).toBe(0);
    expect(await job.tick()).toMatchObject({ due: 0 });
  });

  it('notify policy: one escalation notice to everyone, once, then silence', async () => {
    const policy: ReminderPolicy = { remindAfterHours: 10, repeatHours: 5, maxReminders: 1, onTimeout: 'notify' };
    const { gameId, email, other } = await gameWaiting(policy);
    t.clock.advanceHours(10);
    expect(await job.tick()).toMatchObject({ reminders: 1 });
    t.clock.advanceHours(5);
    expect(await job.tick()).toMatchObject({ escalations: 1, autoMoves: 0 });
    await restart();
    for (let i = 0; i < 5; i++) {
      t.clock.advanceHours(5);
      expect(await job.tick()).toMatchObject({ due: 0 });
    }
    await mail.settle();
    const notices = mail.smtp.received.filter((m) => /is waiting for/.test(m.subject ?? ''));
    expect(notices.map(to).sort()).toEqual([email, other].sort());
    const g = await service.open(gameId);
    expect(g.doc.log.filter((e) => e.kind === 'notice' && e.data?.escalation)).toHaveLength(1);
    expect(g.doc.wait?.escalated).toBe(true);
  });
});

describe("the escalation mail's count of reminders", () => {
  const escalations = () => mail.smtp.received.filter((m) => /is waiting for/.test(m.subject ?? ''));

  it('counts the reminders of this wait: those before a seat asked with others moved, none of an earlier wait', async () => {
    // The opening: both seats choose a stake at once, so one wait asks both.
    const { gameId } = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
      policy: { remindAfterHours: 10, repeatHours: 5, maxReminders: 2, onTimeout: 'notify' },
    });
    await t.service.join(gameId, { name: 'Bob', email: 'bob@example.test' });
    const stake = async (seat: number) => {
      const g = await service.open(gameId);
      await service.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
    };
    t.clock.advanceHours(10);
    expect((await job.tick()).reminders).toBe(1); // reminder 1, to both
    // Ada chooses: the wait goes on for Bob alone (its reminder before her move still counts).
    await stake(0);
    t.clock.advanceHours(5);
    expect((await job.tick()).reminders).toBe(1); // reminder 2, to Bob
    t.clock.advanceHours(5);
    expect((await job.tick()).escalations).toBe(1);
    await mail.settle();
    expect(escalations().map(to).sort()).toEqual(['ada@example.test', 'bob@example.test']);
    for (const m of escalations()) expect(m.text).toContain('after 2 reminders');

    // Bob chooses: a new wait, with one reminder before its escalation. The two of the
    // opening's wait are in the log before it and are not this wait's.
    await stake(1);
    await service.setPolicy(gameId, { remindAfterHours: 10, repeatHours: 5, maxReminders: 1, onTimeout: 'notify' });
    const before = escalations().length;
    t.clock.advanceHours(10);
    expect((await job.tick()).reminders).toBe(1);
    t.clock.advanceHours(5);
    expect((await job.tick()).escalations).toBe(1);
    await mail.settle();
    const second = escalations().slice(before);
    expect(second).toHaveLength(2);
    for (const m of second) expect(m.text).toContain('after 1 reminder.');
    const g = await service.open(gameId);
    expect(g.doc.log.filter((e) => e.kind === 'reminder')).toHaveLength(3);
  });
});
