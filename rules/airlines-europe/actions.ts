// The moves a player can send, as untrusted JSON checked by these schemas.
import { z } from 'zod';

const airline = z.string().min(1).max(20);
export const takeSchema = z.discriminatedUnion('from', [
  z.object({ from: z.literal('market'), airline }).strict(),
  z.object({ from: z.literal('deck') }).strict(),
]);

export const actionSchema = z.discriminatedUnion('type', [
  /** Opening: two shares of different airlines from the hand become the starting portfolio. */
  z.object({ type: z.literal('open'), airlines: z.tuple([airline, airline]) }).strict(),
  /** A: one or two licences (route id like "athens-sofia"), then one share from the market or the pile. */
  z.object({
    type: z.literal('buy'),
    licences: z.array(z.object({ airline, route: z.string().min(3).max(60) }).strict()).min(1).max(2),
    take: takeSchema,
  }).strict(),
  /** B: shares from the hand into the portfolio, 2 M each. */
  z.object({
    type: z.literal('play'),
    shares: z.array(z.object({ airline, count: z.number().int().min(1).max(40) }).strict()).min(1).max(5),
  }).strict(),
  /** C: 1 share for 1 Air Abacus, 3 for 2. */
  z.object({
    type: z.literal('trade'),
    get: z.number().int().min(0).max(20),
    give: z.array(z.object({ airline, from: z.enum(['hand', 'portfolio']) }).strict()).min(1).max(10),
  }).strict(),
  /** D: 8 M from the bank. */
  z.object({ type: z.literal('money') }).strict(),
  /** During the clear-out after a scoring card: one share from the market or the pile. */
  z.object({ type: z.literal('take'), take: takeSchema }).strict(),
]);

export type AEAction = z.infer<typeof actionSchema>;
export type Take = z.infer<typeof takeSchema>;
