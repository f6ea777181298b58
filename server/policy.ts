// The reminder policy of a game and when its next reminder is due.
// The reminder job (server/scheduler) reads `nextReminderAt` from the index:
// while fewer than `maxReminders` reminders were logged for the current wait
// it is the next reminder; after that it is the escalation (`onTimeout`);
// once escalated, null until the wait changes.
import { z } from 'zod';
import type { GameDoc, ReminderPolicy } from './store/types.ts';
import { numberField } from './strict-body.ts';

export const DEFAULT_POLICY: ReminderPolicy = {
  remindAfterHours: 24,
  repeatHours: 24,
  maxReminders: 3,
  onTimeout: 'notify',
};

// Hours may be fractional (0.5 is 30 minutes); the reminder job runs every few minutes.
export const policySchema = z.object({
  remindAfterHours: numberField('The hours before the first reminder', { min: 0, max: 24 * 60 }),
  repeatHours: numberField('The hours between reminders', { min: 0.1, max: 24 * 60 }),
  maxReminders: numberField('The number of reminders', { whole: true, min: 0, max: 20 }),
  onTimeout: z.enum(['notify', 'autoMove'], {
    errorMap: () => ({ message: 'After the reminders, choose "notify" or "autoMove".' }),
  }),
});

/** The same fields, each optional (the defaults fill the rest), unknown ones refused: the API's. */
export const partialPolicySchema = policySchema.partial().strict();

const HOUR = 3600_000;

export function nextReminderAt(doc: Pick<GameDoc, 'status' | 'policy' | 'wait'>): string | null {
  const { wait, policy } = doc;
  if (doc.status !== 'active' || !wait || wait.toAct.length === 0 || wait.escalated) return null;
  if (!(policy.remindAfterHours > 0)) return null;
  const since = Date.parse(wait.since);
  const n = Math.min(wait.reminders, policy.maxReminders);
  return new Date(since + policy.remindAfterHours * HOUR + n * policy.repeatHours * HOUR).toISOString();
}
