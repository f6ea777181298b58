// 18xx.games export payloads -> our actions (pure functions for the importer).
import { RuleError } from '../../types';
import type { Board, RouteInput, TileLay, TokenPlace } from './types';

/** lay_tile {hex, tile: "57-1", rotation} -> TileLay (tile number, copy, same rotation numbering). */
export function layTileFrom18xx(a: { hex: string; tile: string; rotation: number }): TileLay {
  const m = /^([0-9]+)-([0-9]+)$/.exec(a.tile);
  if (!m) throw new RuleError(`Unknown 18xx.games tile id "${a.tile}"`);
  return { hex: a.hex, tile: m[1], copy: Number(m[2]), rotation: a.rotation };
}

/**
 * place_token {city: "57-1-0", slot} -> TokenPlace. The city id is the tile id
 * ("57-1", a laid copy; or a printed hex's own id like "E11-0") and the city index.
 */
export function placeTokenFrom18xx(board: Board, a: { city: string; slot?: number }): TokenPlace {
  const m = /^(.+)-([0-9]+)-([0-9]+)$/.exec(a.city);
  if (!m) throw new RuleError(`Unknown 18xx.games city id "${a.city}"`);
  const [, name, copy, city] = m;
  if (/^[A-K][0-9]{1,2}$/.test(name)) return { hex: name, city: Number(city) };
  for (const [hex, t] of Object.entries(board.tiles)) {
    if (t.tile === name && t.copy === Number(copy)) return { hex, city: Number(city) };
  }
  throw new RuleError(`Tile ${name}-${copy} of city "${a.city}" is not on the map`);
}

/** run_routes {routes: [{train, connections, nodes?}]} -> RouteInput[] (the revenue is recomputed, not trusted). */
export function routesFrom18xx(a: { routes: { train: string; connections: string[][]; nodes?: string[] }[] }): RouteInput[] {
  return a.routes.map((r) => {
    const out: RouteInput = { train: r.train, connections: r.connections.map((c) => [...c]) };
    if (r.nodes && r.nodes.length) out.nodes = [...r.nodes];
    return out;
  });
}
