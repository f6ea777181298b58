// The shapes of 1830 actions, checked with zod before anything else.
import { z } from 'zod';

const corp = z.string().min(1).max(8);
export const actionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pass') }).strict(),
  z.object({ type: z.literal('bid'), company: z.string().min(1).max(4), price: z.number().int().nonnegative() }).strict(),
  z.object({ type: z.literal('par'), corp, price: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('buy'), corp, from: z.enum(['ipo', 'pool']) }).strict(),
  z.object({ type: z.literal('sell'), corp, percent: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('exchange'), company: z.literal('MH'), from: z.enum(['ipo', 'pool']) }).strict(),
  z.object({ type: z.literal('layTile'), hex: z.string(), tile: z.string(), rotation: z.number().int().min(0).max(5), copy: z.number().int().nonnegative().optional(), via: z.enum(['CS', 'DH']).optional() }).strict(),
  z.object({ type: z.literal('placeToken'), hex: z.string(), city: z.number().int().nonnegative(), via: z.literal('DH').optional() }).strict(),
  z.object({ type: z.literal('runRoutes'), routes: z.array(z.object({ train: z.string(), connections: z.array(z.array(z.string())), nodes: z.array(z.string()).optional() }).strict()) }).strict(),
  z.object({ type: z.literal('dividend'), kind: z.enum(['payout', 'withhold']) }).strict(),
  z.object({ type: z.literal('buyTrain'), train: z.string(), price: z.number().int().positive(), exchange: z.string().optional() }).strict(),
  z.object({ type: z.literal('discardTrain'), corp, train: z.string() }).strict(),
  z.object({ type: z.literal('buyCompany'), company: z.string(), price: z.number().int().nonnegative() }).strict(),
  z.object({ type: z.literal('bankrupt') }).strict(),
]);

export type Action1830 = z.infer<typeof actionSchema>;
