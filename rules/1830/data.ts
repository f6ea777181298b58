// The 1830 game data (rules/1830/data/game.json), checked against a schema once at load.
// Ids follow 18xx.games (private symbols, corporation symbols, hex coordinates,
// train names) so imported games line up.
import { z } from 'zod';
import raw from './data/game.json' with { type: 'json' };

const zone = z.enum(['white', 'par', 'yellow', 'orange', 'brown']);
const byCount = z.record(z.string(), z.number().int().positive());

const privateSchema = z.object({
  sym: z.string(),
  name: z.string(),
  value: z.number().int().positive(),
  revenue: z.number().int().nonnegative(),
  blocks: z.array(z.string()),
  freeTileLay: z.object({ hex: z.string(), tiles: z.array(z.string()) }).optional(),
  tileAndToken: z.object({ hex: z.string(), tiles: z.array(z.string()), cost: z.number() }).optional(),
  exchangeFor: z.string().optional(),
  freeShare: z.object({ corp: z.string(), percent: z.number() }).optional(),
  presidency: z.string().optional(),
  closesOnTrainOf: z.string().optional(),
  noSaleToCorporation: z.boolean().optional(),
});

const corporationSchema = z.object({
  sym: z.string(),
  name: z.string(),
  tokens: z.array(z.number().int().nonnegative()).min(1),
  home: z.string(),
  homeCity: z.number().int().optional(),
  color: z.string(),
  textColor: z.string(),
});

const trainSchema = z.object({
  name: z.string(),
  distance: z.number().int().positive(),
  price: z.number().int().positive(),
  count: z.union([z.number().int().positive(), z.literal('unlimited')]),
  countWithOptional6: z.number().int().positive().optional(),
  rustsOn: z.string().optional(),
  availableOn: z.string().optional(),
  closesPrivates: z.boolean().optional(),
  tradeIn: z.record(z.string(), z.number().int().positive()).optional(),
});

const phaseSchema = z.object({
  name: z.string(),
  on: z.string().optional(),
  trainLimit: z.number().int().positive(),
  tiles: z.array(z.enum(['yellow', 'green', 'brown', 'gray'])),
  operatingRounds: z.number().int().positive(),
  corporationsBuyPrivates: z.boolean(),
  playersTradePrivates: z.boolean(),
});

export const gameDataSchema = z.object({
  bank: z.number().int().positive(),
  startingCash: byCount,
  certLimit: byCount,
  shareLimitPercent: z.number(),
  poolLimitPercent: z.number(),
  floatPercent: z.number(),
  minBidIncrement: z.number().int().positive(),
  zones: z.record(zone, z.string()),
  marketRows: z.array(z.array(z.union([z.null(), z.tuple([z.number().int().positive(), zone])]))),
  privates: z.array(privateSchema).length(6),
  corporations: z.array(corporationSchema).length(8),
  trains: z.array(trainSchema),
  phases: z.array(phaseSchema),
  options: z.array(z.object({ id: z.string(), label: z.string() })),
});

export type GameData = z.infer<typeof gameDataSchema>;
export type PrivateData = z.infer<typeof privateSchema>;
export type CorporationData = z.infer<typeof corporationSchema>;
export type TrainData = z.infer<typeof trainSchema>;
export type PhaseData = z.infer<typeof phaseSchema>;
export type Zone = z.infer<typeof zone>;

export const DATA: GameData = gameDataSchema.parse(raw);

export const PRIVATES: Record<string, PrivateData> = Object.fromEntries(DATA.privates.map((p) => [p.sym, p]));
export const CORPS: Record<string, CorporationData> = Object.fromEntries(DATA.corporations.map((c) => [c.sym, c]));
export const CORP_SYMS: string[] = DATA.corporations.map((c) => c.sym);
export const PRIVATE_SYMS: string[] = DATA.privates.map((p) => p.sym);
export const TRAINS: Record<string, TrainData> = Object.fromEntries(DATA.trains.map((t) => [t.name, t]));

/** Par cells, highest first: [price, row, column]. */
export const PAR_CELLS: [number, number, number][] = [];
DATA.marketRows.forEach((row, r) => {
  row.forEach((cell, c) => {
    if (cell && cell[1] === 'par') PAR_CELLS.push([cell[0], r, c]);
  });
});
PAR_CELLS.sort((a, b) => b[0] - a[0]);

export function cellAt(r: number, c: number): [number, Zone] | null {
  if (r < 0 || c < 0) return null;
  return DATA.marketRows[r]?.[c] ?? null;
}
