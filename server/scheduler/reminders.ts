// The reminder job. Each tick reads only the index for games whose
// nextReminderAt has passed, opens just those, and takes the step
// decideReminder() names. Every step is recorded in the game's document (a
// 'reminder' or escalation 'notice' entry, or the auto move itself), so the
// schedule survives a restart: the index then says exactly what is due.
//
// Order of writes, so that a crash between them neither skips nor repeats:
// the mail is queued first under an idempotency key naming the wait, the
// step and the seat (queueing it again after a crash is a no-op), then the
// step is logged. An autoMove is its own record: once logged the wait is over.
import cron, { type ScheduledTask } from 'node-cron';
import type { GameService, LoadedGame } from '../service';
import { ServiceError } from '../errors';
import type { MailQueue } from '../mail/queue';
import type { Spec } from '../mail/compose';
import type { Seat } from '../../rules/types';
import { decideReminder } from './decide';

export const DEFAULT_REMINDER_CRON = '*/5 * * * *';

export interface ReminderJobOptions {
  service: GameService;
  /** Where reminder and escalation mail is queued; without it only the log entries are written. */
  queue?: MailQueue | null;
  /** The job's clock (ms); defaults to Date.now. The service should share it. */
  now?: () => number;
  /** Due games handled at once. */
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
    const due = this.o.service.dueReminders(new Date(now));
    const result: TickResult = { due: due.length, opened: 0, reminders: 0, escalations: 0, autoMoves: 0, errors: 0 };
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const entry = due[next++]!;
        try {
          await this.step(entry.id, now, result);
        } catch (err) {
          result.errors++;
          this.o.log?.({ msg: 'reminder step failed', gameId: entry.id, err: String((err as Error)?.message ?? err) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency ?? 8, due.length) }, worker));
    return result;
  }

  private async step(gameId: string, now: number, result: TickResult): Promise<void> {
    const { service } = this.o;
    const game = await service.open(gameId);
    result.opened++;
    const doc = game.doc;
    const decision = decideReminder(doc, now, typeof game.rules.autoMove === 'function');
    if (decision.kind === 'none' || !doc.wait) return;
    const since = doc.wait.since;
    const names = (seats: Seat[]) => seats.map((s) => doc.seats[s]?.name ?? `Seat ${s + 1}`).join(', ');
    const present = decision.seats.filter((s) => doc.seats[s] && !doc.seats[s]!.vacant);

    if (decision.kind === 'remind') {
      for (const seat of present) {
        const rec = doc.seats[seat]!;
        await this.put(`reminder:${gameId}:${since}:${decision.number}:${seat}:${rec.slot}.${rec.generation}`, {
          type: 'reminder', gameId, seat, slot: rec.slot, generation: rec.generation, number: decision.number, of: decision.of, since,
        });
      }
      if (!(await this.sameWait(game, since))) return;
      await service.appendNote(gameId, {
        kind: 'reminder',
        text: `Reminder ${decision.number} of ${decision.of} sent to ${names(decision.seats)}`,
        data: { number: decision.number, seats: decision.seats, since },
      });
      result.reminders++;
      return;
    }

    // Escalation.
    if (decision.autoMove) {
      let played = 0;
      let without = false;
      for (const seat of present) {
        try {
          const r = await service.playAutoMove(gameId, seat);
          if (r) played++;
          else without = true;
        } catch (err) {
          if (err instanceof ServiceError) break; // somebody moved meanwhile, or the seat cannot act: nothing to force
          throw err;
        }
      }
      result.autoMoves += played;
      if (!without) {
        result.escalations++;
        return;
      }
      // The rules offered no move for some seat: fall back to telling everyone.
    }
    const fresh = await service.open(gameId);
    if (!fresh.doc.wait || fresh.doc.wait.since !== since || fresh.doc.wait.escalated) return;
    const waitingFor = fresh.doc.wait.toAct;
    for (let seat = 0; seat < fresh.doc.seats.length; seat++) {
      const rec = fresh.doc.seats[seat]!;
      if (rec.vacant || !rec.email) continue;
      await this.put(`escalation:${gameId}:${since}:${seat}:${rec.slot}.${rec.generation}`, {
        type: 'escalation', gameId, seat, slot: rec.slot, generation: rec.generation, since, waitingFor, reminders: decision.reminders,
      });
    }
    await service.appendNote(gameId, {
      kind: 'notice',
      text: `The game has waited for ${names(waitingFor)} since ${since.slice(0, 16).replace('T', ' ')} UTC; everyone was told`,
      data: { escalation: true, seats: waitingFor, since },
    });
    result.escalations++;
  }

  /** The wait is still the one we decided on (no move slipped in while we queued mail). */
  private async sameWait(game: LoadedGame, since: string): Promise<boolean> {
    const fresh = await this.o.service.open(game.doc.id);
    return fresh.doc.wait?.since === since && !fresh.doc.wait.escalated;
  }

  private async put(key: string, spec: Spec): Promise<void> {
    if (this.o.queue) await this.o.queue.enqueueSpec(key, spec as unknown as { type: string });
  }
}

/**
 * Runs the job on a cron expression (REMINDER_CRON, default every 5 minutes).
 * Returns the task; call `.stop()` on shutdown.
 */
export function startReminderCron(job: ReminderJob, expression: string = process.env.REMINDER_CRON || DEFAULT_REMINDER_CRON): ScheduledTask {
  if (!cron.validate(expression)) throw new Error(`REMINDER_CRON "${expression}" is not a cron expression`);
  return cron.schedule(expression, () => job.tick(), { name: 'reminders', noOverlap: true });
}
