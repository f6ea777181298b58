// The reminder job. Each tick reads only the index for games whose
// nextReminderAt has passed, opens just those, and takes the step
// decideReminder() names. Every step is recorded in the game's document (a
// 'reminder' or escalation 'notice' entry, or the auto move itself), so the
// schedule survives a restart: the index then says exactly what is due.
//
// A reminder is taken from the index row alone (IndexEntry.remind: the wait,
// the policy, the seats' slots): the game is neither read nor replayed, and
// the reminder mail is rendered later by the mail queue, from the game as it
// is then. The escalation, and rows from before `remind` existed, open the game.
//
// Order of writes, so that a crash between them neither skips nor repeats:
// the mail is queued first under an idempotency key naming the wait, the
// step and the seat (queueing it again after a crash is a no-op), then the
// step is logged. An autoMove is its own record: once logged the wait is over.
import cron, { type ScheduledTask } from 'node-cron';
import { StaleWriteError, type GameService, type LoadedGame } from '../service.ts';
import { ServiceError } from '../errors.ts';
import type { MailQueueApi, MailSpec } from '../mail/queue.ts';
import type { Spec } from '../mail/compose.ts';
import type { Seat } from '../../rules/types.ts';
import type { IndexEntry } from '../store/types.ts';
import { decideReminder, type ReminderDecision } from './decide.ts';
import { logLength } from '../shared-log.ts';

export interface ReminderJobOptions {
  service: GameService;
  /** Where reminder and escalation mail is queued; without it only the log entries are written. */
  queue?: MailQueueApi | null;
  /** The job's clock (ms); defaults to Date.now. The service should share it. */
  now?: () => number;
  /** Due games handled at once (default 128: their durable writes then share disk flushes). */
  concurrency?: number;
  log?: (event: Record<string, unknown>) => void;
}

export interface TickResult {
  due: number;
  opened: number;
  reminders: number;
  escalations: number;
  autoMoves: number;
  errors: number;
}

interface Plan {
  gameId: string;
  since: string;
  /** The game's last seq when the step was decided: the reminder entry is written only on it. */
  seq: number;
  decision: Exclude<ReminderDecision, { kind: 'none' }>;
  mails: { key: string; spec: MailSpec }[];
  /** The players' names, as the game had them when the step was decided. */
  names: string[];
  /** The game the step was decided on (its log is written on it without reading it again)... */
  game?: LoadedGame;
  /** ...or the index row it was decided on (a reminder: the game was not opened). */
  row?: IndexEntry;
}

export class ReminderJob {
  private readonly now: () => number;
  private running: Promise<TickResult> | null = null;

  constructor(private readonly o: ReminderJobOptions) {
    this.now = o.now ?? Date.now;
  }

  /** One pass over the due games. Overlapping calls share one pass. */
  tick(): Promise<TickResult> {
    if (!this.running) this.running = this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<TickResult> {
    const now = this.now();
    const due = await this.o.service.dueReminders(new Date(now));
    const result: TickResult = { due: due.length, opened: 0, reminders: 0, escalations: 0, autoMoves: 0, errors: 0 };
    const fail = (gameId: string, err: unknown) => {
      result.errors++;
      this.o.log?.({ msg: 'reminder step failed', gameId, err: String((err as Error)?.message ?? err) });
    };
    // 1. Decide each due game's step: a reminder on its index row; anything else on the game,
    //    opened (only those).
    const plans: Plan[] = [];
    const toOpen: string[] = [];
    for (const row of due) {
      const plan = this.planOnRow(row, now);
      if (plan) plans.push(plan);
      else if (plan === undefined) toOpen.push(row.id);
    }
    await this.each(toOpen, async (gameId) => {
      try {
        const game = await this.o.service.open(gameId);
        result.opened++;
        const plan = this.plan(game, now);
        if (plan) plans.push(plan);
      } catch (err) {
        fail(gameId, err);
      }
    });
    // 2. Queue every mail of this tick in one durable write.
    const mails = plans.flatMap((p) => p.mails);
    if (mails.length > 0 && this.o.queue) await this.o.queue.enqueueSpecs(mails);
    // 3. Log each step in its game (reminder, notice) or play the auto moves.
    await this.each(plans, async (plan) => {
      try {
        await this.carryOut(plan, result);
      } catch (err) {
        fail(plan.gameId, err);
      }
    });
    return result;
  }

  private async each<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < items.length) await fn(items[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency ?? 128, items.length) }, worker));
  }

  /**
   * The step on the index row alone: a reminder plan; null when nothing is due; undefined when
   * the game must be opened (an escalation, or a row without a reminder schedule).
   */
  private planOnRow(row: IndexEntry, now: number): Plan | null | undefined {
    const r = row.remind;
    if (!r) return undefined;
    const canAutoMove = typeof this.o.service.rulesOf(row.rules)?.autoMove === 'function';
    const decision = decideReminder({ status: row.status, policy: r.policy, wait: r.wait }, now, canAutoMove);
    if (decision.kind === 'none') return null;
    if (decision.kind !== 'remind') return undefined;
    const since = r.wait.since;
    const mails: Plan['mails'] = [];
    for (const seat of decision.seats) {
      const s = r.seats[seat];
      if (!s || s.vacant) continue;
      mails.push(reminderMail(row.id, since, decision.number, decision.of, seat, s));
    }
    return { gameId: row.id, since, seq: row.lastSeq, decision, mails, names: row.names, row };
  }

  private plan(game: LoadedGame, now: number): Plan | null {
    const doc = game.doc;
    const decision = decideReminder(doc, now, typeof game.rules.autoMove === 'function');
    if (decision.kind === 'none' || !doc.wait) return null;
    const gameId = doc.id;
    const since = doc.wait.since;
    const mails: Plan['mails'] = [];
    if (decision.kind === 'remind') {
      for (const seat of decision.seats) {
        const rec = doc.seats[seat];
        if (!rec || rec.vacant) continue;
        mails.push(reminderMail(gameId, since, decision.number, decision.of, seat, rec));
      }
    } else if (!decision.autoMove) {
      mails.push(...this.escalationMails(game, since, remindersSent(doc, since)));
    }
    const names = doc.seats.map((r, s) => r?.name ?? `Seat ${s + 1}`);
    return { gameId, since, seq: logLength(doc), decision, mails, names, game };
  }

  /** The escalation notice, to everyone at the table. */
  private escalationMails(game: LoadedGame, since: string, reminders: number): Plan['mails'] {
    const doc = game.doc;
    const waitingFor = doc.wait?.toAct ?? [];
    const out: Plan['mails'] = [];
    for (let seat = 0; seat < doc.seats.length; seat++) {
      const rec = doc.seats[seat]!;
      if (rec.vacant || !rec.email) continue;
      const spec: Spec = {
        type: 'escalation',
        gameId: doc.id,
        seat,
        slot: rec.slot,
        generation: rec.generation,
        since,
        waitingFor,
        reminders,
      };
      out.push({
        key: `escalation:${doc.id}:${since}:${seat}:${rec.slot}.${rec.generation}`,
        spec: spec as unknown as MailSpec,
      });
    }
    return out;
  }

  private async carryOut(plan: Plan, result: TickResult): Promise<void> {
    const { service } = this.o;
    const { gameId, since, decision } = plan;
    if (decision.kind === 'remind') {
      const names = (seats: Seat[]) => seats.map((s) => plan.names[s] ?? `Seat ${s + 1}`).join(', ');
      // On the seq it was decided at: when another process (sharing the store) ticked at the
      // same time and logged this reminder first, or a move came in since, ours is refused, so
      // a reminder is logged once, and only for the wait it was decided on.
      const text = `Reminder ${decision.number} of ${decision.of} to ${names(decision.seats)}`;
      const data = { number: decision.number, seats: decision.seats, since };
      try {
        if (plan.row) await service.logReminder(plan.row, { text, data });
        else await service.appendNote(gameId, { kind: 'reminder', text, data, atSeq: plan.seq }, { opened: plan.game });
      } catch (err) {
        if (err instanceof StaleWriteError) return; // the game changed since: the next tick decides again
        throw err;
      }
      result.reminders++;
      return;
    }
    if (decision.kind !== 'escalate') return;
    const game = await service.open(gameId);
    const doc = game.doc;
    // A move slipped in since we decided: this step no longer applies (its mail composes to nothing).
    if (!doc.wait || doc.wait.since !== since || doc.wait.escalated) return;
    const names = (seats: Seat[]) => seats.map((s) => doc.seats[s]?.name ?? `Seat ${s + 1}`).join(', ');
    if (decision.autoMove) {
      let played = 0;
      let without = false;
      for (const seat of decision.seats) {
        if (!doc.seats[seat] || doc.seats[seat]!.vacant) continue;
        try {
          const r = await service.playAutoMove(gameId, seat);
          if (r) played += r.moves;
          else without = true;
        } catch (err) {
          if (err instanceof ServiceError) break; // somebody moved meanwhile, or the seat cannot act: nothing to force
          throw err;
        }
      }
      result.autoMoves += played;
      if (!without) {
        if (played > 0) result.escalations++;
        return;
      }
      // The rules offered no move for some seat: fall back to telling everyone.
      const fresh = await service.open(gameId);
      if (!fresh.doc.wait || fresh.doc.wait.since !== since || fresh.doc.wait.escalated) return;
      if (this.o.queue)
        await this.o.queue.enqueueSpecs(this.escalationMails(fresh, since, remindersSent(fresh.doc, since)));
    }
    const waitingFor = (await service.open(gameId)).doc.wait?.toAct ?? decision.seats;
    try {
      await service.appendNote(gameId, {
        kind: 'notice',
        text: `The game has waited for ${names(waitingFor)} since ${since.slice(0, 16).replace('T', ' ')} UTC; everyone was told`,
        data: { escalation: true, seats: waitingFor, since },
        // Logged once, as the reminder above (after auto moves the log has moved on by design).
        atSeq: decision.autoMove ? undefined : plan.seq,
      });
    } catch (err) {
      if (err instanceof StaleWriteError) return;
      throw err;
    }
    result.escalations++;
  }
}

/** Reminder `number` of `of` for one seat's holder; its key names the wait, the step and the holder (queued once). */
function reminderMail(
  gameId: string,
  since: string,
  number: number,
  of: number,
  seat: Seat,
  holder: { slot: number; generation: number },
): Plan['mails'][number] {
  const spec: Spec = {
    type: 'reminder',
    gameId,
    seat,
    slot: holder.slot,
    generation: holder.generation,
    number,
    of,
    since,
  };
  return {
    key: `reminder:${gameId}:${since}:${number}:${seat}:${holder.slot}.${holder.generation}`,
    spec: spec as unknown as MailSpec,
  };
}

/**
 * The reminders logged during the wait that began at `since` (what the escalation mail counts),
 * read from the log's end back to where that wait began, not over the whole log (20,000 entries
 * in a long game): the log is append-only, so every entry of the wait comes after its start, and
 * one stamped before `since` is older than the wait. Not the wait's `stateSeq`: a wait is kept
 * while seats asked together move one by one, and each such move puts `stateSeq` after
 * reminders the wait already had.
 */
function remindersSent(doc: LoadedGame['doc'], since: string): number {
  const log = doc.log;
  const began = Date.parse(since);
  let n = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!;
    if (Date.parse(e.at) < began) break;
    if (e.kind === 'reminder' && e.data?.since === since) n++;
  }
  return n;
}

/**
 * Runs the job on a cron expression (REMINDER_CRON, checked in server/config.ts).
 * Returns the task; call `.stop()` on shutdown.
 */
export function startReminderCron(job: ReminderJob, expression: string): ScheduledTask {
  if (!cron.validate(expression)) throw new Error(`REMINDER_CRON "${expression}" is not a cron expression`);
  return cron.schedule(expression, () => job.tick(), { name: 'reminders', noOverlap: true });
}
