// The few map-module calls the importer needs (rules/1830/track does the work).
import * as track from './track/index.ts';
import type { Board } from './track/index.ts';

export const trackPort = {
  newBoard: (): Board => track.newBoard(),
  layTileFrom18xx: (a: { hex: string; tile: string; rotation: number }) => track.layTileFrom18xx(a),
  placeTokenFrom18xx: (board: unknown, a: { city: string; slot: number }) =>
    track.placeTokenFrom18xx(board as Board, a),
  routesFrom18xx: (a: { routes: unknown[] }) => track.routesFrom18xx(a as never),
  tokenHexes: (board: unknown, corp: string): string[] => (board ? track.tokenHexes(board as Board, corp) : []),
  /** hex -> "tile/rotation" for every laid tile. */
  tilesForCheckpoint: (board: unknown): Record<string, string> | null => {
    const tiles = (board as Board | null)?.tiles;
    if (!tiles) return {};
    return Object.fromEntries(Object.entries(tiles).map(([hex, t]) => [hex, `${t.tile}/${t.rotation}`]));
  },
};
