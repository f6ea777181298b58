// The shapes of 1830 actions, checked with zod before anything else.
import { z } from 'zod';

const corp = z.string().min(1).max(8);
export const actionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pass') }).strict(),
  z
    .object({ type: z.literal('bid'), company: z.string().min(1).max(4), price: z.number().int().nonnegative() })
    .strict(),
  z.object({ type: z.literal('par'), corp, price: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('buy'), corp, from: z.enum(['ipo', 'pool']) }).strict(),
  z.object({ type: z.literal('sell'), corp, percent: z.number().int().positive() }).strict(),
  z.object({ type: z.literal('exchange'), company: z.literal('MH'), from: z.enum(['ipo', 'pool']) }).strict(),
  z
    .object({
      type: z.literal('layTile'),
      hex: z.string(),
      tile: z.string(),
      rotation: z.number().int().min(0).max(5),
      copy: z.number().int().nonnegative().optional(),
      via: z.enum(['CS', 'DH']).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('placeToken'),
      hex: z.string(),
      city: z.number().int().nonnegative(),
      via: z.literal('DH').optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('runRoutes'),
      routes: z.array(
        z
          .object({
            train: z.string(),
            connections: z.array(z.array(z.string())),
            nodes: z.array(z.string()).optional(),
          })
          .strict(),
      ),
      dividend: z.enum(['payout', 'withhold']).optional(),
    })
    .strict(),
  z.object({ type: z.literal('dividend'), kind: z.enum(['payout', 'withhold']) }).strict(),
  z
    .object({
      type: z.literal('buyTrain'),
      train: z.string(),
      price: z.number().int().positive(),
      exchange: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('discardTrain'), corp, train: z.string() }).strict(),
  z.object({ type: z.literal('buyCompany'), company: z.string(), price: z.number().int().nonnegative() }).strict(),
  z
    .object({
      type: z.literal('sellCompany'),
      company: z.string(),
      to: z.number().int().nonnegative(),
      price: z.number().int().nonnegative(),
    })
    .strict(),
  z.object({ type: z.literal('bankrupt') }).strict(),
]);

export type Action1830 = z.infer<typeof actionSchema>;

// A fast exact check of the same shapes (zod above stays the reference: a test compares
// the two on many actions). Replays check hundreds of actions, and this is much cheaper.
type Check = (v: unknown) => boolean;
const short =
  (max: number): Check =>
  (v) =>
    typeof v === 'string' && v.length >= 1 && v.length <= max;
const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const oneOf =
  (...xs: string[]): Check =>
  (v) =>
    typeof v === 'string' && xs.includes(v);
const strs: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const route: Check = (v) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'train' && k !== 'connections' && k !== 'nodes') return false;
  return (
    typeof o.train === 'string' &&
    Array.isArray(o.connections) &&
    (o.connections as unknown[]).every(strs) &&
    (o.nodes === undefined || strs(o.nodes))
  );
};
const SHAPES: Record<string, [Record<string, Check>, Record<string, Check>]> = {
  pass: [{}, {}],
  bid: [{ company: short(4), price: int(0) }, {}],
  par: [{ corp: short(8), price: int(1) }, {}],
  buy: [{ corp: short(8), from: oneOf('ipo', 'pool') }, {}],
  sell: [{ corp: short(8), percent: int(1) }, {}],
  exchange: [{ company: oneOf('MH'), from: oneOf('ipo', 'pool') }, {}],
  layTile: [
    { hex: (v) => typeof v === 'string', tile: (v) => typeof v === 'string', rotation: int(0, 5) },
    { copy: int(0), via: oneOf('CS', 'DH') },
  ],
  placeToken: [{ hex: (v) => typeof v === 'string', city: int(0) }, { via: oneOf('DH') }],
  runRoutes: [{ routes: (v) => Array.isArray(v) && v.every(route) }, { dividend: oneOf('payout', 'withhold') }],
  dividend: [{ kind: oneOf('payout', 'withhold') }, {}],
  buyTrain: [{ train: (v) => typeof v === 'string', price: int(1) }, { exchange: (v) => typeof v === 'string' }],
  discardTrain: [{ corp: short(8), train: (v) => typeof v === 'string' }, {}],
  buyCompany: [{ company: (v) => typeof v === 'string', price: int(0) }, {}],
  sellCompany: [{ company: (v) => typeof v === 'string', to: int(0), price: int(0) }, {}],
  bankrupt: [{}, {}],
};

/** True when `raw` has exactly one of the shapes above (own keys only). */
export function hasActionShape(raw: unknown): raw is Action1830 {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const o = raw as Record<string, unknown>;
  const shape = typeof o.type === 'string' ? SHAPES[o.type as string] : undefined;
  if (!shape || !Object.hasOwn(o, 'type')) return false;
  const [required, optional] = shape;
  let n = 1;
  for (const k in required) {
    if (!Object.hasOwn(o, k) || !required[k]!(o[k])) return false;
    n++;
  }
  for (const k in optional) {
    if (o[k] === undefined) continue;
    if (!Object.hasOwn(o, k) || !optional[k]!(o[k])) return false;
    n++;
  }
  return Object.keys(o).length === n;
}
