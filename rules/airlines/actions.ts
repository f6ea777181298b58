// The moves of Airlines as untrusted JSON, checked by shape here (zod) and by
// legality in found.ts, extend.ts and stock.ts. The shapes are strict: a field
// the move does not have is refused rather than ignored, so a misspelt
// "sabotge" cannot quietly turn a sabotage into a plain stock play.
import { z } from 'zod';
import { RuleError } from '../types.ts';

const company = z.string().min(1).max(8);
/** A circle by label: route id and 1-based circle number, "ORD-MSP/2". */
const circle = z.string().min(1).max(16);
/** Where the stock card comes from: "pile", or the code of a company in the open row. */
const draw = z.string().min(1).max(8);
const card = z.number().int().positive().max(9999);
const count = z.number().int().min(1).max(20);

const actionSchema = z.discriminatedUnion('type', [
  /** Extending, first step: draw a route card. */
  z.object({ type: z.literal('drawRoute') }).strict(),
  /** Found an airline: lay out stock, play a route card from its home, take a stock card. */
  z.object({ type: z.literal('found'), company, count, card, circle, draw }).strict(),
  /** Extending, second step: play a route card for an airline, take a stock card. */
  z.object({ type: z.literal('extend'), company, card, circle, draw }).strict(),
  /**
   * Extending when no route card fits anywhere: the turn ends, the drawn card kept. (Games
   * of rules version 1: discard one face up instead, and take a stock card.)
   */
  z.object({ type: z.literal('skip'), card: card.optional(), draw: draw.optional() }).strict(),
  /** Lay out stock of one airline; with exactly one card, optionally sabotage a circle. */
  z
    .object({
      type: z.literal('stock'),
      company,
      count,
      sabotage: z.object({ company, circle }).strict().optional(),
    })
    .strict(),
]);

export type AirlinesAction = z.infer<typeof actionSchema>;
export type FoundAction = Extract<AirlinesAction, { type: 'found' }>;
export type ExtendAction = Extract<AirlinesAction, { type: 'extend' }>;
export type SkipAction = Extract<AirlinesAction, { type: 'skip' }>;
export type StockAction = Extract<AirlinesAction, { type: 'stock' }>;

const FIELDS: Record<AirlinesAction['type'], string> = {
  drawRoute: 'type',
  found: 'type, company, count, card, circle, draw',
  extend: 'type, company, card, circle, draw',
  skip: 'type (and card, draw in games begun under rules version 1)',
  stock: 'type, company, count and optionally sabotage',
};

/** What each field must be, in words, by its path in the action. */
const FIELD_TEXT: Record<string, string> = {
  company: '"company" must be an airline code, like GLA',
  count: '"count" must be a whole number of stock cards from 1 to 20',
  card: '"card" must be the number of a route card you hold, like 12',
  circle: '"circle" must name a circle by route and number, like ORD-MSP/2',
  draw: '"draw" must be "pile" or the code of an airline in the open stock row',
  sabotage: '"sabotage" must be { company, circle }: whose marker, and on which circle',
  'sabotage.company': '"sabotage.company" must be the code of the airline whose marker you set, like LSA',
  'sabotage.circle': '"sabotage.circle" must name a circle by route and number, like DEN-DFW/3',
};

/** The action checked for shape, or a RuleError saying what is wrong with it. */
export function readAction(raw: unknown): AirlinesAction {
  const parsed = actionSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) {
    throw new RuleError('That is not an Airlines move: its "type" must be drawRoute, found, extend, skip or stock.');
  }
  const issue = parsed.error.issues[0]!;
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    if (path) throw new RuleError(`In a ${type} move, "${path}" has no ${keys}; its fields are company and circle.`);
    throw new RuleError(`A ${type} move has no ${keys}; its fields are ${FIELDS[type as AirlinesAction['type']]}.`);
  }
  throw new RuleError(`In a ${type} move, ${FIELD_TEXT[path] ?? `"${path}" is not right`}.`);
}
