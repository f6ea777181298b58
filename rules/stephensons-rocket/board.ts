// The board: hex geometry and the map data (data/board.json), checked by a
// zod schema once at load. Hexes are pointy-top in axial coordinates (q, r);
// r grows to the south. Directions, clockwise from east:
// 0 east, 1 south-east, 2 south-west, 3 west, 4 north-west, 5 north-east.
import { z } from 'zod';
import boardJson from './data/board.json' with { type: 'json' };

export const GOODS = ['steel', 'textiles', 'brewing', 'leather'] as const;
export type Good = (typeof GOODS)[number];
export const DIRECTION_NAMES = ['east', 'south-east', 'south-west', 'west', 'north-west', 'north-east'] as const;
const STEPS: [number, number][] = [
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [0, -1],
  [1, -1],
];

const hexId = z.string().regex(/^[A-Z][0-9]{1,2}$/);
const boardSchema = z
  .object({
    name: z.string(),
    projection: z.object({
      lat0: z.number(),
      lon0: z.number(),
      xScale: z.number().positive(),
      hexSize: z.number().positive(),
    }),
    hexes: z.array(z.object({ id: hexId, q: z.number().int(), r: z.number().int() })).min(50),
    places: z.array(
      z.object({
        id: z.string().regex(/^[a-z]+$/),
        name: z.string().min(1),
        kind: z.enum(['start', 'town', 'city']),
        lat: z.number().min(49).max(56),
        lon: z.number().min(-6).max(2),
        hex: hexId,
        goods: z.array(z.enum(GOODS)).length(3).optional(),
      }),
    ),
    lines: z
      .array(
        z.object({
          id: z.string().regex(/^[A-Z]+$/),
          name: z.string(),
          colour: z.string().regex(/^#[0-9a-f]{6}$/),
          start: z.string(),
        }),
      )
      .length(7),
  })
  .superRefine((b, ctx) => {
    const ids = new Set<string>();
    const at = new Set<string>();
    for (const h of b.hexes) {
      if (ids.has(h.id) || at.has(`${h.q},${h.r}`)) ctx.addIssue({ code: 'custom', message: `hex ${h.id} twice` });
      ids.add(h.id);
      at.add(`${h.q},${h.r}`);
    }
    const used = new Set<string>();
    const counts: Record<string, number> = {};
    for (const p of b.places) {
      if (!ids.has(p.hex)) ctx.addIssue({ code: 'custom', message: `${p.id} is off the map` });
      if (used.has(p.hex)) ctx.addIssue({ code: 'custom', message: `two places on ${p.hex}` });
      used.add(p.hex);
      if ((p.kind === 'city') !== !!p.goods)
        ctx.addIssue({ code: 'custom', message: `${p.id}: only cities hold goods` });
      for (const g of p.goods ?? []) counts[g] = (counts[g] ?? 0) + 1;
    }
    if (b.places.filter((p) => p.kind === 'city').length !== 12)
      ctx.addIssue({ code: 'custom', message: 'there must be 12 cities' });
    for (const g of GOODS)
      if (counts[g] !== 9) ctx.addIssue({ code: 'custom', message: `there must be 9 ${g} tokens` });
    const starts = new Set(b.lines.map((l) => l.start));
    for (const l of b.lines) {
      if (b.places.find((p) => p.id === l.start)?.kind !== 'start')
        ctx.addIssue({ code: 'custom', message: `${l.id} needs a start town` });
    }
    if (starts.size !== 7 || b.places.filter((p) => p.kind === 'start').length !== 7)
      ctx.addIssue({ code: 'custom', message: 'seven start towns, one per line' });
  });

export type BoardData = z.infer<typeof boardSchema>;

export interface Place {
  id: string;
  name: string;
  kind: 'start' | 'town' | 'city';
  hex: number;
  goods: Good[];
}
export interface LineInfo {
  id: string;
  name: string;
  colour: string;
  start: number; // place index
}
export interface Board {
  data: BoardData;
  hexIds: string[];
  q: number[];
  r: number[];
  /** neighbour[hex][dir]: hex index or -1 (sea or off the map). */
  neighbour: number[][];
  hexIndex: Map<string, number>;
  /** place index on each hex, or -1. */
  placeAt: number[];
  places: Place[];
  placeIndex: Map<string, number>;
  /** places (indexes) next to each hex. */
  placesNear: number[][];
  lines: LineInfo[];
  lineIndex: Map<string, number>;
}

export function loadBoard(raw: unknown): Board {
  const data = boardSchema.parse(raw);
  const hexIds = data.hexes.map((h) => h.id);
  const hexIndex = new Map(hexIds.map((id, i) => [id, i]));
  const byPos = new Map(data.hexes.map((h, i) => [`${h.q},${h.r}`, i]));
  const neighbour = data.hexes.map((h) => STEPS.map(([dq, dr]) => byPos.get(`${h.q + dq},${h.r + dr}`) ?? -1));
  const places: Place[] = data.places.map((p) => ({
    id: p.id,
    name: p.name,
    kind: p.kind,
    hex: hexIndex.get(p.hex)!,
    goods: p.goods ?? [],
  }));
  const placeIndex = new Map(places.map((p, i) => [p.id, i]));
  const placeAt = hexIds.map(() => -1);
  places.forEach((p, i) => {
    placeAt[p.hex] = i;
  });
  const placesNear = hexIds.map((_, h) =>
    neighbour[h]!.filter((n) => n >= 0 && placeAt[n]! >= 0).map((n) => placeAt[n]!),
  );
  const lines = data.lines.map((l) => ({ id: l.id, name: l.name, colour: l.colour, start: placeIndex.get(l.start)! }));
  return {
    data,
    hexIds,
    q: data.hexes.map((h) => h.q),
    r: data.hexes.map((h) => h.r),
    neighbour,
    hexIndex,
    placeAt,
    places,
    placeIndex,
    placesNear,
    lines,
    lineIndex: new Map(lines.map((l, i) => [l.id, i])),
  };
}

export const board: Board = loadBoard(boardJson);

/** The direction from hex a to its neighbour b, or -1. */
export function directionTo(a: number, b: number): number {
  return board.neighbour[a]!.indexOf(b);
}

export function opposite(dir: number): number {
  return (dir + 3) % 6;
}

/** Turn of a move relative to a facing: 'straight', 'left' or 'right', or null if not ahead. */
export function turnOf(facing: number, dir: number): 'straight' | 'left' | 'right' | null {
  if (dir === facing) return 'straight';
  if (dir === (facing + 5) % 6) return 'left';
  if (dir === (facing + 1) % 6) return 'right';
  return null;
}

export function turnDirection(facing: number, turn: 'straight' | 'left' | 'right'): number {
  return turn === 'straight' ? facing : turn === 'left' ? (facing + 5) % 6 : (facing + 1) % 6;
}

/** A hex's name for people: its label plus the places next to it. */
export function hexName(h: number): string {
  const near = board.placesNear[h]!.map((p) => board.places[p]!.name);
  return near.length ? `${board.hexIds[h]} (by ${near.join(', ')})` : board.hexIds[h]!;
}
