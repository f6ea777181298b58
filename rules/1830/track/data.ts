// The 1830 map and tile manifest (../data/map.json, ../data/tiles.json), checked
// against a schema once at load and compiled into lookup tables.
//
// Track encoding in the JSON: a path is a pair of ends, "e0".."e5" for a hex
// edge (18xx.games numbering, pointy layout: 0 south-west, 1 west, 2 north-west,
// 3 north-east, 4 east, 5 south-east), "c0"/"t0"/"o0" for the first city, town
// or off-board of the hex. Compiled, an end is a number: 0..5 an edge,
// NODE + i the i-th node (cities first, then towns, then off-boards).
import { z } from 'zod';
import mapRaw from '../data/map.json' with { type: 'json' };
import tilesRaw from '../data/tiles.json' with { type: 'json' };
import type { PhaseName, TileColor } from './types.ts';

const end = z.string().regex(/^(e[0-5]|[cto][0-9])$/);
const city = z.object({ revenue: z.number().int().nonnegative(), slots: z.number().int().positive() });
const town = z.object({ revenue: z.number().int().nonnegative() });
const offboard = z.object({ yellow: z.number().int().positive(), brown: z.number().int().positive() });
const color = z.enum(['white', 'yellow', 'green', 'brown', 'gray', 'red']);

const tileSchema = z.object({
  id: z.string(),
  color,
  count: z.number().int().positive(),
  label: z.string().nullable(),
  cities: z.array(city),
  towns: z.array(town),
  track: z.array(z.tuple([end, end])),
  upgrades: z.array(z.string()),
});

const hexSchema = z.object({
  id: z.string().regex(/^[A-K][0-9]{1,2}$/),
  name: z.string().optional(),
  color,
  cities: z.array(city).optional(),
  towns: z.array(town).optional(),
  offboards: z.array(offboard).optional(),
  track: z.array(z.tuple([end, end])).optional(),
  walls: z.array(z.number().int().min(0).max(5)).optional(),
  label: z.string().optional(),
  terrain: z.enum(['river', 'mountain']).optional(),
  cost: z.number().int().positive().optional(),
  group: z.string().optional(),
  hiddenRevenue: z.boolean().optional(),
  upgrades: z.array(z.string()).optional(),
});

const privateLay = z.object({
  hex: z.string(),
  tiles: z.array(z.string()),
  consumesLay: z.boolean(),
  needsConnection: z.boolean(),
  token: z.boolean(),
});

const mapSchema = z.object({
  layout: z.literal('pointy'),
  hexes: z.array(hexSchema),
  homes: z.record(z.string(), z.object({ hex: z.string(), city: z.number().int().optional() })),
  privateHexes: z.record(z.string(), z.array(z.string())),
  /** The two privates with a tile ability (C&SL and D&H), both required. */
  privateLays: z.object({ CS: privateLay, DH: privateLay }),
  /** The seed's exceptions: NYC may lay #57 on its home hex and Erie #59 on its home hex (even before green) without connection. */
  homeLays: z.record(z.string(), z.object({ hex: z.string(), tile: z.string(), anyPhase: z.boolean() })),
});

export const MAP = mapSchema.parse(mapRaw);
export const TILE_DATA = z.object({ tiles: z.array(tileSchema) }).parse(tilesRaw).tiles;

/** Compiled ends: 0..5 edges, NODE + i nodes. */
export const NODE = 10;
/** Stops on one hex at most (cities, towns, off-boards). */
export const MAX_NODES = 4;
/** Ends 0..END_COUNT-1: edges 0..5, nodes NODE..NODE+MAX_NODES-1. */
export const END_COUNT = NODE + MAX_NODES;
export type End = number;

// Readers of the integer tables below and of the walks' work arrays. Every index
// into them is computed from these same tables, so a miss is a bug in this
// module: it throws instead of reading undefined (which bit operations would
// quietly turn into 0). One reader per array type keeps each call site monomorphic.
function outside(i: number, length: number): never {
  throw new Error(`1830 map tables: index ${i} outside 0..${length - 1}`);
}
export function u8(a: Uint8Array, i: number): number {
  const v = a[i];
  return v === undefined ? outside(i, a.length) : v;
}
export function u16(a: Uint16Array, i: number): number {
  const v = a[i];
  return v === undefined ? outside(i, a.length) : v;
}
export function i16(a: Int16Array, i: number): number {
  const v = a[i];
  return v === undefined ? outside(i, a.length) : v;
}
export function i32(a: Int32Array, i: number): number {
  const v = a[i];
  return v === undefined ? outside(i, a.length) : v;
}
export function u32(a: Uint32Array, i: number): number {
  const v = a[i];
  return v === undefined ? outside(i, a.length) : v;
}

export type NodeKind = 'city' | 'town' | 'offboard';
export interface NodeDef {
  kind: NodeKind;
  /** City/town revenue; for off-boards the yellow-phase value. */
  revenue: number;
  /** Off-boards: the value from phase 5 on. */
  brown?: number;
  slots: number;
}

/** A tile face: the manifest tiles and every hex's preprinted face. */
export interface TileDef {
  id: string;
  color: TileColor;
  label: string | null;
  nodes: NodeDef[];
  cityCount: number;
  townCount: number;
  track: [End, End][];
  upgrades: string[];
  count: number;
  /** track turned by each rotation 0..5 */
  turned: [End, End][][];
  /** conn[rotation * END_COUNT + end]: bit mask of the ends joined to `end` by one path (bit e an edge, bit NODE + i a node). */
  conn: Uint16Array;
}

export interface HexDef {
  id: string;
  name: string;
  color: TileColor;
  /** Column (number - 1) and row (letter index), 18xx.games pointy axes. */
  x: number;
  y: number;
  /** neighbors[edge]: the hex across that edge that track can reach, null when none (map edge, wall, dead red/gray side). */
  neighbors: (string | null)[];
  /** All hexes across each edge, for drawing. */
  adjacent: (string | null)[];
  printed: TileDef;
  cost: number;
  terrain: 'river' | 'mountain' | null;
  group: string | null;
  hiddenRevenue: boolean;
}

function compileEnd(e: string, counts: { c: number; t: number }): End {
  if (e[0] === 'e') return Number(e.slice(1));
  const i = Number(e.slice(1));
  if (e[0] === 'c') return NODE + i;
  if (e[0] === 't') return NODE + counts.c + i;
  return NODE + counts.c + counts.t + i;
}

function makeTile(
  id: string,
  color: TileColor,
  label: string | null,
  cities: { revenue: number; slots: number }[],
  towns: { revenue: number }[],
  offboards: { yellow: number; brown: number }[],
  track: [string, string][],
  upgrades: string[],
  count: number,
): TileDef {
  const counts = { c: cities.length, t: towns.length };
  const nodes: NodeDef[] = [
    ...cities.map((c) => ({ kind: 'city' as const, revenue: c.revenue, slots: c.slots })),
    ...towns.map((t) => ({ kind: 'town' as const, revenue: t.revenue, slots: 0 })),
    ...offboards.map((o) => ({ kind: 'offboard' as const, revenue: o.yellow, brown: o.brown, slots: 0 })),
  ];
  const compiled = track.map(([a, b]) => [compileEnd(a, counts), compileEnd(b, counts)] as [End, End]);
  const turned = [0, 1, 2, 3, 4, 5].map((r) =>
    compiled.map(([a, b]) => [a < 6 ? (a + r) % 6 : a, b < 6 ? (b + r) % 6 : b] as [End, End]),
  );
  if (nodes.length > MAX_NODES) throw new Error(`${id} has more than ${MAX_NODES} stops`);
  const conn = new Uint16Array(6 * END_COUNT);
  turned.forEach((paths, r) => {
    for (const [a, b] of paths) {
      conn[r * END_COUNT + a] = u16(conn, r * END_COUNT + a) | (1 << b);
      conn[r * END_COUNT + b] = u16(conn, r * END_COUNT + b) | (1 << a);
    }
  });
  return {
    id,
    color,
    label,
    nodes,
    cityCount: cities.length,
    townCount: towns.length,
    track: compiled,
    upgrades,
    count,
    turned,
    conn,
  };
}

export const TILES: Record<string, TileDef> = {};
/** A manifest tile by number; for numbers that come from the manifest or the board (a player's tile is checked against TILES first). */
export function tileDef(id: string): TileDef {
  const t = TILES[id];
  if (!t) throw new Error(`1830 tile manifest: there is no tile #${id}`);
  return t;
}
for (const t of TILE_DATA) {
  TILES[t.id] = makeTile(t.id, t.color, t.label, t.cities, t.towns, [], t.track, t.upgrades, t.count);
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Pointy layout: [dx, dy] of the neighbour across each edge. */
export const DIRECTIONS: [number, number][] = [
  [-1, 1],
  [-2, 0],
  [-1, -1],
  [1, -1],
  [2, 0],
  [1, 1],
];

export const HEXES: Record<string, HexDef> = {};
/** A hex of the map by id; for ids that come from the map itself (a player's hex is checked against HEXES first). */
export function hexDef(id: string): HexDef {
  const h = HEXES[id];
  if (!h) throw new Error(`1830 map: there is no hex ${id}`);
  return h;
}
const byXY = new Map<string, string>();
for (const h of MAP.hexes) {
  const x = Number(h.id.slice(1)) - 1;
  const y = LETTERS.indexOf(h.id.charAt(0));
  const printed = makeTile(
    h.id,
    h.color,
    h.label ?? null,
    h.cities ?? [],
    h.towns ?? [],
    h.offboards ?? [],
    h.track ?? [],
    h.upgrades ?? [],
    1,
  );
  HEXES[h.id] = {
    id: h.id,
    name: h.name ?? '',
    color: h.color,
    x,
    y,
    neighbors: [],
    adjacent: [],
    printed,
    cost: h.cost ?? 0,
    terrain: h.terrain ?? null,
    group: h.group ?? null,
    hiddenRevenue: h.hiddenRevenue ?? false,
  };
  byXY.set(`${x},${y}`, h.id);
}
export const HEX_IDS = Object.keys(HEXES);

export const invert = (edge: number): number => (edge + 3) % 6;

function printedExits(h: HexDef): Set<number> {
  const s = new Set<number>();
  for (const [a, b] of h.printed.track) {
    if (a < 6) s.add(a);
    if (b < 6) s.add(b);
  }
  return s;
}

for (const raw of MAP.hexes) {
  const h = hexDef(raw.id);
  const walls = new Set(raw.walls ?? []);
  DIRECTIONS.forEach(([dx, dy], e) => {
    const nid = byXY.get(`${h.x + dx},${h.y + dy}`) ?? null;
    h.adjacent.push(nid);
    let reach: string | null = nid;
    if (nid) {
      const n = hexDef(nid);
      if (walls.has(e)) reach = null;
      else if ((n.color === 'red' || n.color === 'gray') && !printedExits(n).has(invert(e))) reach = null;
    }
    h.neighbors.push(reach);
  });
}

export const HOMES = MAP.homes;
export const PRIVATE_HEXES = MAP.privateHexes;
export const PRIVATE_LAYS = MAP.privateLays;
export const HOME_LAYS = MAP.homeLays;

const PHASE_COLORS: Record<PhaseName, TileColor[]> = {
  '2': ['yellow'],
  '3': ['yellow', 'green'],
  '4': ['yellow', 'green'],
  '5': ['yellow', 'green', 'brown'],
  '6': ['yellow', 'green', 'brown'],
  D: ['yellow', 'green', 'brown'],
};

export function phaseColors(phase: PhaseName): TileColor[] {
  const c = PHASE_COLORS[phase];
  if (!c) throw new Error(`unknown phase ${phase}`);
  return c;
}

/** Off-board value in a phase: the brown value once brown tiles are available. */
export function nodeRevenue(node: NodeDef, phase: PhaseName): number {
  if (node.kind === 'offboard')
    return phaseColors(phase).includes('brown') ? (node.brown ?? node.revenue) : node.revenue;
  return node.revenue;
}

/** The track of a tile face turned by `rotation` (edges only move). */
export function rotatedTrack(tile: TileDef, rotation: number): [End, End][] {
  const track = tile.turned[rotation];
  if (!track) throw new Error(`1830 map: rotation ${rotation} of tile #${tile.id} is not 0 to 5`);
  return track;
}

// Integer tables for the hot paths (hex index i = position in HEX_IDS).
/** Hex id -> index in HEX_IDS. */
export const HEX_INDEX = new Map<string, number>(HEX_IDS.map((h, i) => [h, i]));
/** The index of a hex id that comes from the map itself. */
export function hexIndex(id: string): number {
  const i = HEX_INDEX.get(id);
  if (i === undefined) throw new Error(`1830 map: there is no hex ${id}`);
  return i;
}
/** The hex id at index i of HEX_IDS. */
export function hexIdAt(i: number): string {
  const id = HEX_IDS[i];
  if (id === undefined) throw new Error(`1830 map: there is no hex number ${i}`);
  return id;
}
/** NEIGHBOR[i * 6 + e]: index of the hex across edge e that track can reach, -1 for none. */
export const NEIGHBOR = new Int16Array(HEX_IDS.length * 6).fill(-1);
/** OPEN_EDGES[i]: bit mask of the edges of hex i that track can cross. */
export const OPEN_EDGES = new Uint8Array(HEX_IDS.length);
/** The preprinted face of each hex, by index. */
export const PRINTED: TileDef[] = HEX_IDS.map((id) => hexDef(id).printed);
/** The preprinted face of hex i. */
export function printedAt(i: number): TileDef {
  const t = PRINTED[i];
  if (!t) throw new Error(`1830 map: there is no hex number ${i}`);
  return t;
}
/** Off-board group of each hex (null for none), by index. */
export const GROUP: (string | null)[] = HEX_IDS.map((id) => hexDef(id).group);
/** NODE_IDS[i * MAX_NODES + n]: the stop id "HEX-n". */
export const NODE_IDS: string[] = [];
/** Stop id -> i * MAX_NODES + n. */
export const NODE_KEY = new Map<string, number>();
HEX_IDS.forEach((id, i) => {
  hexDef(id).neighbors.forEach((n, e) => {
    if (n) {
      NEIGHBOR[i * 6 + e] = hexIndex(n);
      OPEN_EDGES[i] = u8(OPEN_EDGES, i) | (1 << e);
    }
  });
  for (let n = 0; n < MAX_NODES; n++) {
    const nid = `${id}-${n}`;
    NODE_IDS.push(nid);
    NODE_KEY.set(nid, i * MAX_NODES + n);
  }
});

/**
 * The corporation's stations as node keys (i * MAX_NODES + city), in the order `tokens` lists
 * its hexes: where a network walk starts (graph.ts, chains.ts).
 */
export function stationKeys(tokens: Record<string, string[][]>, corp: string): number[] {
  const out: number[] = [];
  for (const hex in tokens) {
    const i = HEX_INDEX.get(hex);
    const cities = tokens[hex];
    if (i === undefined || !cities) continue;
    for (let c = 0; c < cities.length; c++) if (cities[c]?.includes(corp)) out.push(i * MAX_NODES + c);
  }
  return out;
}
