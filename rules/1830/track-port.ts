// The one place the 1830 rules call into the map module (rules/1830/track). Everything
// the operating rounds and the importer need from the map goes through `trackPort`.
import type { RuleError as _R } from '../types';

export interface TrackPort {
  newBoard(): unknown;
  layTileFrom18xx(a: { hex: string; tile: string; rotation: number }): { hex: string; tile: string; rotation: number; copy?: number };
  placeTokenFrom18xx(board: unknown, a: { city: string; slot: number }): { hex: string; city: number };
  routesFrom18xx(a: { routes: unknown[] }): { train: string; connections: string[][]; nodes?: string[] }[];
  /** hex -> "tile/rotation" for every laid tile, or null when the map cannot tell. */
  tilesForCheckpoint(board: unknown): Record<string, string> | null;
}

function tileParts(id: string): { tile: string; copy?: number } {
  const [tile, copy] = id.split('-');
  return copy === undefined ? { tile: tile! } : { tile: tile!, copy: Number(copy) };
}

export const trackPort: TrackPort = {
  newBoard: () => ({ tiles: {}, tokens: {}, homes: {}, pending: [] }),
  layTileFrom18xx: (a) => ({ hex: a.hex, rotation: a.rotation, ...tileParts(a.tile) }),
  placeTokenFrom18xx: () => {
    throw new Error('the map module is not wired yet');
  },
  tilesForCheckpoint: (board) => {
    const tiles = (board as { tiles?: Record<string, { tile: string; rotation: number }> } | null)?.tiles;
    if (!tiles) return null;
    return Object.fromEntries(Object.entries(tiles).map(([hex, t]) => [hex, `${t.tile}/${t.rotation}`]));
  },
  routesFrom18xx: (a) => (a.routes as { train: string; connections: string[][] }[]).map((r) => ({ train: r.train, connections: r.connections })),
};
export type { _R };
