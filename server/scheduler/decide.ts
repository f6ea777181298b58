// What the reminder job does for one game at one moment: a pure function of
// the game's policy, its current wait (logged in the game document) and the
// clock. Because the wait's counters live in the game document, a restart
// resumes the very same schedule: nothing is skipped, nothing repeated.
//
// Schedule for a wait that began at `since` (N = remindAfterHours,
// M = repeatHours, K = maxReminders):
//   reminder k (1..K) at since + N + (k-1)·M, to every seat the game waits for;
//   the escalation at since + N + K·M: a notice to everyone in the game, and,
//   if the policy says autoMove and the rules offer one, the rules' autoMove
//   played for each absent seat (a logged move, which ends the wait).
// After a long outage the overdue steps are taken one per tick, in order.
import { nextReminderAt } from '../policy.ts';
import type { GameStatus, ReminderPolicy, TurnWait } from '../store/types.ts';
import type { Seat } from '../../rules/types.ts';

export type ReminderDecision =
  | { kind: 'none'; nextAt: number | null }
  | { kind: 'remind'; seats: Seat[]; number: number; of: number }
  | { kind: 'escalate'; seats: Seat[]; autoMove: boolean; reminders: number };

export interface ReminderInput {
  status: GameStatus;
  policy: ReminderPolicy;
  wait: TurnWait | null;
}

/** When the next step of this wait is due (ms since epoch), null if none. */
export function nextStepAt(game: ReminderInput): number | null {
  const at = nextReminderAt(game);
  return at === null ? null : Date.parse(at);
}

/**
 * The step due now. `canAutoMove` says whether the rules have an autoMove
 * (the job asks the rules; this function stays pure).
 */
export function decideReminder(game: ReminderInput, now: number, canAutoMove: boolean): ReminderDecision {
  const due = nextStepAt(game);
  if (due === null || now < due || !game.wait) return { kind: 'none', nextAt: due };
  const { wait, policy } = game;
  if (wait.reminders < policy.maxReminders) {
    return { kind: 'remind', seats: [...wait.toAct], number: wait.reminders + 1, of: policy.maxReminders };
  }
  return {
    kind: 'escalate',
    seats: [...wait.toAct],
    autoMove: policy.onTimeout === 'autoMove' && canAutoMove,
    reminders: wait.reminders,
  };
}
