// The moves of Airlines as untrusted JSON, checked by shape here (zod) and by
// legality in found.ts, extend.ts and stock.ts.
import { z } from 'zod';

const company = z.string().min(1).max(8);
/** A circle by label: route id and 1-based circle number, "ORD-MSP/2". */
const circle = z.string().min(1).max(16);
/** Where the stock card comes from: "pile", or the code of a company in the open row. */
const draw = z.string().min(1).max(8);
const card = z.number().int().positive();

export const actionSchema = z.discriminatedUnion('type', [
  /** Extending, first step: draw a route card. */
  z.object({ type: z.literal('drawRoute') }),
  /** Found an airline: lay out stock, play a route card from its home, take a stock card. */
  z.object({ type: z.literal('found'), company, count: z.number().int().min(1).max(20), card, circle, draw }),
  /** Extending, second step: play a route card for an airline, take a stock card. */
  z.object({ type: z.literal('extend'), company, card, circle, draw }),
  /** Extending when no route card fits anywhere: discard one face up instead, take a stock card. */
  z.object({ type: z.literal('skip'), card, draw }),
  /** Lay out stock of one airline; with exactly one card, optionally sabotage a circle. */
  z.object({
    type: z.literal('stock'),
    company,
    count: z.number().int().min(1).max(20),
    sabotage: z.object({ company, circle }).optional(),
  }),
]);

export type AirlinesAction = z.infer<typeof actionSchema>;
export type FoundAction = Extract<AirlinesAction, { type: 'found' }>;
export type ExtendAction = Extract<AirlinesAction, { type: 'extend' }>;
export type SkipAction = Extract<AirlinesAction, { type: 'skip' }>;
export type StockAction = Extract<AirlinesAction, { type: 'stock' }>;
