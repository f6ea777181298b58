// Shapes of every request body, checked with zod before anything is done.
import { z } from 'zod';
import { DEFAULT_POLICY, partialPolicySchema, policySchema } from '../policy.ts';
import { numberField } from '../strict-body.ts';

const name = z
  .string({ required_error: 'Please give a name.', invalid_type_error: 'The name must be text.' })
  .trim()
  .min(1, 'Please give a name.')
  .max(40, 'Please keep the name under 40 characters.');
const email = z
  .string({ required_error: 'Please give an email address.', invalid_type_error: 'The email address must be text.' })
  .trim()
  .max(200, 'That email address is too long.')
  .email('Please give a valid email address.');
const seq = numberField('seq', { whole: true, min: 0 });

export const emailList = z
  .union([z.string().max(2000, 'Too many addresses.'), z.array(z.string()).max(20, 'At most 20 addresses.')])
  .transform((v) => (Array.isArray(v) ? v : v.split(/[\s,;]+/)).map((x) => x.trim()).filter(Boolean))
  .pipe(
    z
      .array(z.string().email('One of the invited addresses is not a valid email address.'))
      .max(20, 'At most 20 addresses.'),
  );

export const createBody = z.object({
  rules: z.string({ required_error: 'Please pick a game.' }).max(64),
  seats: numberField('The number of seats', {
    whole: true,
    min: 1,
    max: 100,
    missing: 'Please choose the number of seats.',
  }),
  options: z.record(z.union([z.boolean(), z.number(), z.string().max(100)])).optional(),
  policy: policySchema.optional(),
  listed: z.boolean().default(true),
  join: z.boolean().default(true),
  name,
  email,
  invite: emailList.optional(),
});

/**
 * POST /api/games: the form's fields, unknown fields refused in words; the reminder policy as
 * `policy` (any of its fields) or its fields at the top level (`remindAfterHours`, ...), the
 * defaults for the rest.
 */
export const apiCreateBody = createBody
  .omit({ policy: true })
  .extend({
    policy: partialPolicySchema.optional(),
    remindAfterHours: policySchema.shape.remindAfterHours.optional(),
    repeatHours: policySchema.shape.repeatHours.optional(),
    maxReminders: policySchema.shape.maxReminders.optional(),
    onTimeout: policySchema.shape.onTimeout.optional(),
  })
  .strict()
  .transform(({ remindAfterHours, repeatHours, maxReminders, onTimeout, policy, ...rest }) => {
    const given = (o: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    const top = given({ remindAfterHours, repeatHours, maxReminders, onTimeout });
    return { ...rest, policy: { ...DEFAULT_POLICY, ...given(policy ?? {}), ...top } };
  });

export const joinBody = z.object({ name, email });

export const moveBody = z.object({
  seq,
  action: z.unknown().optional(),
  command: z.string().max(500, 'That command is too long.').optional(),
  n: numberField('The move number n', { whole: true, min: 0 }).optional(),
});

export const undoBody = z.object({ seq });

/** Table talk from the personal page (POST /play/<key>/say). */
export const sayBody = z.object({
  words: z.string().max(2000, 'That is more than 2,000 characters; say it in parts.'),
});

/** POST /api/v1/play/:key/orders: a standing order to leave (the game's own fields), or one to cancel. */
export const apiOrderBody = z
  .object({
    seq: seq.optional(),
    order: z
      .object({ kind: z.string().max(40).describe('auctionPass, auctionBid, stockPass, stockBuy, noPrivates (1830)') })
      .passthrough()
      .optional(),
    cancel: z.string().min(1).max(40).optional().describe('The id of an order to cancel'),
  })
  .strict();

export const reopenBody = z.object({
  seat: numberField('The seat', { whole: true, min: 0, missing: 'Pick a seat.' }),
  email: z.union([z.literal(''), email]).optional(),
});

export { policySchema };

/** The first problem in words a person understands. */
export function firstIssue(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'The request was not understood.';
  if (issue.code === 'invalid_type' && issue.received === 'undefined') {
    const field = issue.path.join('.');
    return field ? `Missing ${field}.` : 'The request has no body.';
  }
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.length ? ` in ${issue.path.join('.')}` : '';
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    return `Unknown field${issue.keys.length > 1 ? 's' : ''}${where}: ${keys}. Nothing was made; see /api/v1/openapi.json for the fields this request takes.`;
  }
  return issue.message;
}
