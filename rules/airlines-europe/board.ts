// The board as data: cities, routes with their licence costs, airlines, the
// value track. Loaded from data/board.json and checked against a schema once;
// a different board is only a different data file. Everything the engine
// looks up often (route ends, routes by city) is precomputed here.
import { z } from 'zod';
import boardJson from './data/board.json' with { type: 'json' };

const id = z.string().regex(/^[a-z]+$/, 'ids are lower-case letters');

const boardSchema = z.object({
  name: z.string(),
  cities: z
    .array(z.object({ id, name: z.string(), lat: z.number().min(30).max(72), lon: z.number().min(-25).max(45) }))
    .min(2),
  routes: z
    .array(
      z.object({
        id: z.string(),
        from: id,
        to: id,
        costs: z.array(z.number().int().min(1)).min(1).max(3),
      }),
    )
    .min(1),
  airlines: z
    .array(
      z.object({
        id,
        name: z.string(),
        colour: z.string().regex(/^#[0-9a-f]{6}$/i),
        shares: z.number().int().min(1),
        planes: z.number().int().min(1),
        home: id,
        start: z.number().int().min(0),
        /** The fewest players with whom this airline is used. */
        minPlayers: z.number().int().min(2).max(5),
        bonus: z.object({ city: id, value: z.number().int().min(1) }).optional(),
      }),
    )
    .min(2),
  abacus: z.object({
    id,
    name: z.string(),
    colour: z.string(),
    shares: z.number().int().min(1),
    rows: z.array(z.array(z.number().int().min(0))).length(3),
  }),
  valueTrack: z.object({
    length: z.number().int().min(1),
    rows: z.array(z.object({ from: z.number().int().min(0), points: z.array(z.number().int().min(0)).min(1) })).min(1),
  }),
  setup: z.object({
    startMoney: z.number().int().min(0),
    bankPerPlayer: z.number().int().min(1),
    handSize: z.number().int().min(2),
    marketSize: z.number().int().min(1),
    openingShares: z.literal(2),
    finalStack: z.number().int().min(1),
    /** The early stack is between these shares of the rest ("roughly a quarter"). */
    earlyFraction: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]),
    dividend: z.number().int().min(0),
    takeMoney: z.number().int().min(1),
    brokeKeep: z.number().int().min(0),
  }),
});

export type BoardData = z.infer<typeof boardSchema>;
export type AirlineData = BoardData['airlines'][number];
export type RouteData = BoardData['routes'][number];

export interface Board extends BoardData {
  cityById: Record<string, BoardData['cities'][number]>;
  airlineById: Record<string, AirlineData>;
  /** Route index by id, both orientations ("athens-sofia" and "sofia-athens"). */
  routeIndex: Record<string, number>;
  /** Route indices touching each city. */
  routesByCity: Record<string, number[]>;
  /** The airline ids used with this many players, board order. */
  airlinesFor(players: number): string[];
  /** Victory points by rank for an airline at this track position. */
  rowAt(position: number): number[];
}

/** Checks the data beyond its shape: every reference resolves, costs ascend, rows ascend. */
export function loadBoard(raw: unknown): Board {
  const data = boardSchema.parse(raw);
  const problems: string[] = [];
  // Lookups by names that arrive in moves: no prototype, so "constructor" finds nothing.
  const cityById: Record<string, BoardData['cities'][number]> = Object.create(null);
  for (const c of data.cities) cityById[c.id] = c;
  if (Object.keys(cityById).length !== data.cities.length) problems.push('duplicate city id');
  const routeIndex: Record<string, number> = Object.create(null);
  const routesByCity: Record<string, number[]> = Object.create(null);
  for (const c of data.cities) routesByCity[c.id] = [];
  data.routes.forEach((r, i) => {
    if (!cityById[r.from] || !cityById[r.to]) problems.push(`route ${r.id} names an unknown city`);
    if (r.from === r.to) problems.push(`route ${r.id} goes nowhere`);
    if (r.id !== `${r.from}-${r.to}`) problems.push(`route ${r.id} should be called ${r.from}-${r.to}`);
    if (routeIndex[r.id] !== undefined) problems.push(`route ${r.id} twice`);
    for (let k = 1; k < r.costs.length; k++)
      if (r.costs[k]! < r.costs[k - 1]!) problems.push(`route ${r.id}: costs must ascend`);
    routeIndex[`${r.from}-${r.to}`] = i;
    routeIndex[`${r.to}-${r.from}`] = i;
    routesByCity[r.from]?.push(i);
    routesByCity[r.to]?.push(i);
  });
  const airlineById: Record<string, AirlineData> = Object.create(null);
  for (const a of data.airlines) airlineById[a.id] = a;
  if (Object.keys(airlineById).length !== data.airlines.length) problems.push('duplicate airline id');
  if (airlineById[data.abacus.id]) problems.push('Air Abacus must not be a plane airline');
  for (const a of data.airlines) {
    if (!cityById[a.home]) problems.push(`${a.name}: unknown home ${a.home}`);
    if (a.bonus && !cityById[a.bonus.city]) problems.push(`${a.name}: unknown bonus city ${a.bonus.city}`);
    if (a.planes !== a.shares) problems.push(`${a.name}: as many planes as shares`);
    if (a.start > data.valueTrack.length) problems.push(`${a.name}: starts off the track`);
  }
  const rows = data.valueTrack.rows;
  if (rows[0]!.from !== 0) problems.push('the value track rows must start at 0');
  for (let k = 1; k < rows.length; k++)
    if (rows[k]!.from <= rows[k - 1]!.from) problems.push('value track rows must ascend');
  if (problems.length) throw new Error(`Airlines Europe board: ${problems.join('; ')}`);

  const byPlayers = new Map<number, string[]>();
  for (let n = 2; n <= 5; n++)
    byPlayers.set(
      n,
      data.airlines.filter((a) => a.minPlayers <= n).map((a) => a.id),
    );
  // Row lookup by position, one array per position.
  const rowByPosition: number[][] = [];
  for (let p = 0, k = 0; p <= data.valueTrack.length; p++) {
    while (k + 1 < rows.length && rows[k + 1]!.from <= p) k++;
    rowByPosition.push(rows[k]!.points);
  }
  return {
    ...data,
    cityById,
    airlineById,
    routeIndex,
    routesByCity,
    airlinesFor: (players) => byPlayers.get(players) ?? [],
    rowAt: (position) => rowByPosition[Math.max(0, Math.min(position, data.valueTrack.length))]!,
  };
}

export const board: Board = loadBoard(boardJson);

/** An airline id of the board (Air Abacus included)? */
export function isAirlineId(id: string): boolean {
  return id === board.abacus.id || board.airlineById[id] !== undefined;
}

export function airlineName(id: string): string {
  if (id === board.abacus.id) return board.abacus.name;
  return board.airlineById[id]?.name ?? id;
}

export function cityName(id: string): string {
  return board.cityById[id]?.name ?? id;
}

/** "Athens-Sofia" */
export function routeName(index: number): string {
  const r = board.routes[index]!;
  return `${cityName(r.from)}-${cityName(r.to)}`;
}
