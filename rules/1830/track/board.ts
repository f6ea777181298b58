// The board: which tile lies on each hex (and turned how), and the station tokens.
import * as data from './data.ts';
import { HOMES, NODE, hexIdAt, rotatedTrack, tileDef, type End, type TileDef } from './data.ts';
import type { Board, LaidTile } from './types.ts';
import { RuleError } from '../../types.ts';

// module-local references (no per-use lookup of another module's bindings on hot paths)
const HEXES = data.HEXES;
const TILES = data.TILES;
const NODE_KEY = data.NODE_KEY;
const MAX_NODES = data.MAX_NODES;

export function newBoard(): Board {
  const homes: Board['homes'] = {};
  for (const [corp, h] of Object.entries(HOMES)) homes[corp] = { hex: h.hex, city: h.city ?? null };
  return { tiles: {}, tokens: {}, homes, pending: [] };
}

/** The laid tile on a hex, null when the preprinted face shows. */
export function tileAt(board: Board, hex: string): LaidTile | null {
  return board.tiles[hex] ?? null;
}

/** The face showing on a hex and its rotation. */
export function faceAt(board: Board, hex: string): { tile: TileDef; rotation: number } {
  const laid = board.tiles[hex];
  if (laid) return { tile: tileDef(laid.tile), rotation: laid.rotation };
  const h = HEXES[hex];
  if (!h) throw new RuleError(`There is no hex ${hex} on the 1830 map`);
  return { tile: h.printed, rotation: 0 };
}

/** The track on a hex as it lies (rotated). */
export function trackAt(board: Board, hex: string): [End, End][] {
  const { tile, rotation } = faceAt(board, hex);
  return rotatedTrack(tile, rotation);
}

export function cityCount(board: Board, hex: string): number {
  return faceAt(board, hex).tile.cityCount;
}

/** Copies of each manifest tile still in the supply (tiles replaced by upgrades go back). */
export function tilesInSupply(board: Board): Record<string, number> {
  const left: Record<string, number> = {};
  for (const t of Object.values(TILES)) left[t.id] = t.count;
  for (const laid of Object.values(board.tiles)) left[laid.tile] = (left[laid.tile] ?? 0) - 1;
  return left;
}

/** Tokens in each city of a hex (always one array per city). */
export function cityTokens(board: Board, hex: string): string[][] {
  const n = cityCount(board, hex);
  const t = board.tokens[hex] ?? [];
  const out: string[][] = [];
  for (let i = 0; i < n; i++) out.push(t[i] ?? []);
  return out;
}

export function hasTokenIn(board: Board, corp: string, hex: string): boolean {
  const cities = board.tokens[hex];
  if (!cities) return false;
  for (const city of cities) if (city.includes(corp)) return true;
  return false;
}

/** Hexes where a corporation has stations. */
export function tokenHexes(board: Board, corp: string): string[] {
  return Object.keys(board.tokens).filter((h) => hasTokenIn(board, corp, h));
}

/** Number of city slots held for home tokens not yet placed (other corporations' reservations). */
export function reservedSlots(board: Board, hex: string, city: number, except?: string): number {
  let n = 0;
  const homes = board.homes;
  // for...in, not Object.entries: this runs for every city a walk reaches (no array per call)
  for (const corp in homes) {
    const r = homes[corp];
    if (r && corp !== except && r.hex === hex && r.city === city) n++;
  }
  return n;
}

/** A corporation (other than `except`) holds a whole-hex reservation (Erie on E11 before its home token). */
export function hexReservedByOther(board: Board, hex: string, corp: string): string | null {
  const homes = board.homes;
  for (const c in homes) {
    const r = homes[c];
    if (r && c !== corp && r.hex === hex && r.city === null) return c;
  }
  return null;
}

/** A city blocks a corporation's trains (and its track connectivity) when every slot holds another company's token. */
export function cityBlocks(board: Board, hex: string, city: number, corp: string): boolean {
  const { tile } = faceAt(board, hex);
  const node = tile.nodes[city];
  if (node?.kind !== 'city') return false;
  const toks = (board.tokens[hex] ?? [])[city] ?? [];
  if (toks.includes(corp)) return false;
  return toks.length >= node.slots;
}

/** Node id "HEX-i" as 18xx.games writes it. */
export const nodeId = (hex: string, index: number): string => `${hex}-${index}`;
export function parseNodeId(id: string): { hex: string; index: number } {
  const k = NODE_KEY.get(id);
  if (k !== undefined) return { hex: hexIdAt((k / MAX_NODES) | 0), index: k % MAX_NODES };
  const m = /^([A-Z][0-9]{1,2})-([0-9])$/.exec(id);
  const [, hex, index] = m ?? [];
  if (hex === undefined || index === undefined)
    throw new RuleError(`"${id}" is not a stop (write it as hex-number, like E11-1)`);
  return { hex, index: Number(index) };
}

export const isNode = (e: End): boolean => e >= NODE;
