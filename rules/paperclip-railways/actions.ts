// The moves a player can send, as untrusted JSON checked by zod.
import { z } from 'zod';

const coord = z.number().int().min(-5000).max(5000);
const point = z.tuple([coord, coord]);

export const actionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('obstacle'), obstacle: z.string().max(40), x: coord, y: coord, rot: z.number().int() }).strict(),
  z.object({ type: z.literal('river'), points: z.array(point).min(2).max(20) }).strict(),
  z.object({ type: z.literal('draw') }).strict(),
  z.object({ type: z.literal('discard'), cards: z.array(z.string().max(40)).min(1).max(20) }).strict(),
  z
    .object({
      type: z.literal('build'),
      from: z.string().max(40),
      /** An existing station, or omitted when `card` and `at` place a new one from the hand. */
      to: z.string().max(40).optional(),
      card: z.string().max(40).optional(),
      at: point.optional(),
      bends: z.array(point).max(20).optional(),
      /** Cards to discard for the clips; chosen for you (lowest points first) when omitted. */
      pay: z.array(z.string().max(40)).max(20).optional(),
    })
    .strict(),
  z.object({ type: z.literal('pass') }).strict(),
]);

export type PCAction = z.infer<typeof actionSchema>;
export type BuildAction = Extract<PCAction, { type: 'build' }>;
