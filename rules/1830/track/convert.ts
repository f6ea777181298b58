// 18xx.games export payloads -> our actions (pure functions for the importer).
import { RuleError } from '../../types.ts';
import { HEXES } from './data.ts';
import type { Board, RouteInput, TileLay, TokenPlace } from './types.ts';

/** A value as text for a message, cut short. */
function short(v: unknown): string {
  const s = String(v);
  return s.length > 24 ? `${s.slice(0, 24)}...` : s;
}

/** lay_tile {hex, tile: "57-1", rotation} -> TileLay (tile number, copy, same rotation numbering). */
export function layTileFrom18xx(a: { hex: string; tile: string; rotation: number }): TileLay {
  if (!a || typeof a !== 'object' || typeof a.tile !== 'string')
    throw new RuleError('An 18xx.games tile lay needs a hex, a tile id (like 57-1) and a rotation');
  const [, tile, copy] = /^([0-9]+)-([0-9]+)$/.exec(a.tile) ?? [];
  if (tile === undefined || copy === undefined) throw new RuleError(`Unknown 18xx.games tile id "${short(a.tile)}"`);
  return { hex: a.hex, tile, copy: Number(copy), rotation: a.rotation };
}

/**
 * place_token {city: "57-1-0", slot} -> TokenPlace. The city id is the tile id
 * ("57-1", a laid copy; or a printed hex's own id like "E11-0") and the city index.
 */
export function placeTokenFrom18xx(board: Board, a: { city: string; slot?: number }): TokenPlace {
  if (!a || typeof a !== 'object' || typeof a.city !== 'string')
    throw new RuleError('An 18xx.games station needs a city id (like 57-1-0)');
  const [, name, copy, city] = /^(.+)-([0-9]+)-([0-9]+)$/.exec(a.city) ?? [];
  if (name === undefined || copy === undefined || city === undefined)
    throw new RuleError(`Unknown 18xx.games city id "${short(a.city)}"`);
  if (/^[A-K][0-9]{1,2}$/.test(name)) return { hex: name, city: Number(city) };
  for (const [hex, t] of Object.entries(board.tiles)) {
    if (t.tile === name && t.copy === Number(copy)) return { hex, city: Number(city) };
  }
  throw new RuleError(`Tile ${short(name)}-${short(copy)} of city "${short(a.city)}" is not on the map`);
}

/** run_routes {routes: [{train, connections, nodes?}]} -> RouteInput[] (the revenue is recomputed, not trusted; trains without track are left out). */
export function routesFrom18xx(a: {
  routes: { train: string; connections: string[][]; nodes?: string[] }[];
}): RouteInput[] {
  const ok =
    !!a &&
    Array.isArray(a.routes) &&
    a.routes.every(
      (r) =>
        !!r &&
        typeof r === 'object' &&
        (r.connections === undefined ||
          r.connections === null ||
          (Array.isArray(r.connections) && r.connections.every((c) => Array.isArray(c)))) &&
        (r.nodes === undefined || r.nodes === null || Array.isArray(r.nodes)),
    );
  if (!ok) throw new RuleError('18xx.games routes need a list of {train, connections: hex chains}');
  // a train listed without track ran nothing: leave it out
  return a.routes
    .filter((r) => Array.isArray(r.connections) && r.connections.length > 0)
    .map((r) => {
      const out: RouteInput = { train: r.train, connections: r.connections.map((c) => [...c]) };
      if (r.nodes?.length) out.nodes = [...r.nodes];
      return out;
    });
}

/**
 * Routes typed as text: one route per line or ";", "TRAIN: HEX-HEX-HEX", the
 * hexes of the whole run in order (the route is cut at its stops); a ","
 * starts a new stretch at a stop where the track could also run straight past
 * (Altoona): "4-0: H10-H12, H12-H14".
 */
export function routesFromText(text: string): RouteInput[] {
  if (typeof text !== 'string') throw new RuleError('Write routes as text, like "2-0: I15-J14"');
  const out: RouteInput[] = [];
  for (const raw of text.split(/[;\n]/)) {
    const line = raw.trim();
    if (!line) continue;
    const [, train, hexes] = /^([0-9D]+-[0-9]+)\s*:?\s+(.+)$/i.exec(line) ?? [];
    if (train === undefined || hexes === undefined)
      throw new RuleError(`Write a route as "train: hexes", like "2-0: I15-J14" (got "${short(line)}")`);
    const connections = hexes
      .split(',')
      .map((c) =>
        c
          .trim()
          .toUpperCase()
          .split(/[\s-]+/)
          .filter(Boolean),
      )
      .filter((c) => c.length);
    for (const c of connections) {
      if (c.length < 2)
        throw new RuleError(`A stretch of route needs at least two hexes (got "${short(c.join('-'))}")`);
      for (const h of c)
        if (!/^[A-K][0-9]{1,2}$/.test(h)) throw new RuleError(`"${short(h)}" is not a hex of the 1830 map`);
    }
    out.push({ train: train.toUpperCase(), connections });
  }
  return out;
}

/** A printed hex where track can run straight past its stop (Altoona): a route stopping there is written with a ",". */
function passesBy(hex: string): boolean {
  const h = HEXES[hex];
  return !!h && h.printed.nodes.length > 0 && h.printed.track.some(([a, b]) => a < 6 && b < 6);
}

/** Routes as text for people (the inverse of routesFromText for routes whose stretches follow each other). */
export function routesToText(routes: RouteInput[]): string {
  return routes
    .map((r) => {
      const chain: string[] = [];
      r.connections.forEach((c, i) => {
        let piece = c;
        if (i === 0) {
          const next = r.connections[1];
          if (next && !next.includes(c.at(-1) ?? '') && (c[0] === next[0] || c[0] === next.at(-1)))
            piece = [...c].reverse();
        } else {
          const last = chain[chain.length - 1];
          if (piece[0] !== last && piece[piece.length - 1] === last) piece = [...c].reverse();
        }
        const first = piece[0];
        if (first !== undefined && chain.at(-1) === first && !passesBy(first)) chain.push(...piece.slice(1));
        else chain.push(...(chain.length ? ['|', ...piece] : piece));
      });
      return `${r.train}: ${chain.join('-').replace(/-\|-/g, ', ')}`;
    })
    .join('; ');
}
