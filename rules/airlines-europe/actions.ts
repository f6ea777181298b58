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
  z
    .object({
      type: z.literal('buy'),
      licences: z
        .array(z.object({ airline, route: z.string().min(3).max(60) }).strict())
        .min(1)
        .max(2),
      take: takeSchema,
    })
    .strict(),
  /** B: shares from the hand into the portfolio, 2 M each. */
  z
    .object({
      type: z.literal('play'),
      shares: z
        .array(z.object({ airline, count: z.number().int().min(1).max(40) }).strict())
        .min(1)
        .max(5),
    })
    .strict(),
  /** C: 1 share for 1 Air Abacus, 3 for 2. */
  z
    .object({
      type: z.literal('trade'),
      get: z.number().int().min(0).max(20),
      give: z
        .array(z.object({ airline, from: z.enum(['hand', 'portfolio']) }).strict())
        .min(1)
        .max(10),
    })
    .strict(),
  /** D: 8 M from the bank. */
  z.object({ type: z.literal('money') }).strict(),
  /** During the clear-out after a scoring card: one share from the market or the pile. */
  z.object({ type: z.literal('take'), take: takeSchema }).strict(),
]);

export type AEAction = z.infer<typeof actionSchema>;
export type Take = z.infer<typeof takeSchema>;

// A fast exact check of the common shapes, so the hot path of playouts skips
// zod; anything it does not accept goes through the schema above, which gives
// the verdict (and the error). It accepts nothing the schema would refuse.
const isObj = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype;
const isName = (x: unknown): x is string => typeof x === 'string' && x.length >= 1 && x.length <= 20;
const keysAre = (o: Record<string, unknown>, n: number) => Object.keys(o).length === n;
const isInt = (x: unknown, min: number, max: number) =>
  Number.isInteger(x) && (x as number) >= min && (x as number) <= max;
/** Every element, holes included (a hole fails). */
function all(items: unknown[], ok: (x: unknown) => boolean): boolean {
  for (let i = 0; i < items.length; i++) if (!(i in items) || !ok(items[i])) return false;
  return true;
}

function isTake(t: unknown): boolean {
  if (!isObj(t)) return false;
  if (t.from === 'deck') return keysAre(t, 1);
  return t.from === 'market' && keysAre(t, 2) && isName(t.airline);
}

export function quickShape(a: unknown): a is AEAction {
  if (!isObj(a)) return false;
  switch (a.type) {
    case 'money':
      return keysAre(a, 1);
    case 'take':
      return keysAre(a, 2) && isTake(a.take);
    case 'buy': {
      const l = a.licences;
      if (!keysAre(a, 3) || !Array.isArray(l) || l.length < 1 || l.length > 2 || !isTake(a.take)) return false;
      return all(
        l,
        (x) =>
          isObj(x) &&
          keysAre(x, 2) &&
          isName(x.airline) &&
          typeof x.route === 'string' &&
          x.route.length >= 3 &&
          x.route.length <= 60,
      );
    }
    case 'play': {
      const p = a.shares;
      if (!keysAre(a, 2) || !Array.isArray(p) || p.length < 1 || p.length > 5) return false;
      return all(p, (x) => isObj(x) && keysAre(x, 2) && isName(x.airline) && isInt(x.count, 1, 40));
    }
    case 'trade': {
      const g = a.give;
      if (!keysAre(a, 3) || !isInt(a.get, 0, 20) || !Array.isArray(g) || g.length < 1 || g.length > 10) return false;
      return all(
        g,
        (x) => isObj(x) && keysAre(x, 2) && isName(x.airline) && (x.from === 'hand' || x.from === 'portfolio'),
      );
    }
    case 'open': {
      const o = a.airlines;
      return keysAre(a, 2) && Array.isArray(o) && o.length === 2 && all(o, isName);
    }
    default:
      return false;
  }
}
