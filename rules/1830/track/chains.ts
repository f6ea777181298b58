// What a corporation's network reaches, from rules version 4: a walk along chains of track, as
// 18xx.games walks a network (its rules, not its code):
//
// - From each of the corporation's stations in turn (its other stations count as already visited,
//   each is walked from itself), a depth-first walk over the tile paths (a piece of track from an
//   edge or a stop to an edge or a stop, in the order the tile lists them). A path is walked once,
//   a stop is walked from once; a path may not be entered while the chain being walked has already
//   left its hex by one of the path's edges (each hex side once per chain: the chain never comes
//   back in by an edge it left by, so it cannot turn back along its own track).
// - Where a tile joins two of its paths at one edge (a branch), what is walked beyond that edge is
//   walked again by every other chain that reaches it: the marks of the paths and stops walked
//   after a branch are taken back when the walk returns from them.
// - A stop is reached when a walked path touches it; the walk goes on from it unless it is an
//   off-board or a city filled with other corporations' stations. The hex edges a walked path
//   leaves by are reached on both sides of the border (where track may be laid next).
//
// Rules version 3's walk (graph.ts) is a search over (hex, edge entered) with no memory of the
// chain; it still reaches a little more where a chain would have to leave a hex by an edge and come
// back in by the same edge. Games of version 3 and older keep that walk.
import * as data from './data.ts';
import { hexIdAt, i16, printedAt, tileDef, u8, type End, type TileDef } from './data.ts';
import { Reach } from './graph.ts';
import type { Board } from './types.ts';

const NEIGHBOR = data.NEIGHBOR;
const OPEN_EDGES = data.OPEN_EDGES;
const NODE = data.NODE;
const MAX_NODES = data.MAX_NODES;
const COUNT = data.HEX_IDS.length;
const SEEN = COUNT;

interface Laid {
  tile: TileDef;
  paths: [End, End][];
}

export function chainReachOf(board: Board, corp: string): Reach {
  const d = new Uint8Array(COUNT * (1 + MAX_NODES));
  let nodeCount = 0;
  const tiles = board.tiles;
  const tokens = board.tokens;
  const laidCache: (Laid | undefined)[] = new Array(COUNT);
  const laid = (i: number): Laid => {
    let l = laidCache[i];
    if (!l) {
      const t = tiles[hexIdAt(i)];
      const tile = t ? tileDef(t.tile) : printedAt(i);
      l = { tile, paths: tile.turned[t ? t.rotation : 0]! };
      laidCache[i] = l;
    }
    return l;
  };
  const reach = (k: number, walked: boolean) => {
    const mark = u8(d, SEEN + k);
    if (mark === 0) nodeCount++;
    if (walked) d[SEEN + k] = 2;
    else if (mark === 0) d[SEEN + k] = 1;
  };
  /** The walk goes on from this stop (not an off-board, not a city full of others' stations). */
  const passable = (i: number, n: number): boolean => {
    const node = laid(i).tile.nodes[n];
    if (!node || node.kind === 'offboard') return false;
    if (node.kind !== 'city') return true;
    const toks = tokens[hexIdAt(i)]?.[n];
    return !(toks && toks.length >= node.slots && !toks.includes(corp));
  };
  /** More than one path of the tile leaves by this edge (a branch). */
  const branches = (i: number, e: number): boolean => {
    let count = 0;
    for (const [a, b] of laid(i).paths) if (a === e || b === e) count++;
    return count > 1;
  };

  const starts = data.stationKeys(tokens, corp);
  for (const k of starts) {
    const i = Math.floor(k / MAX_NODES);
    d[i] = u8(d, i) | u8(OPEN_EDGES, i);
    reach(k, true);
  }

  const visitedNode = new Uint8Array(COUNT * MAX_NODES);
  const visitedPath = new Uint32Array(COUNT); // bit p: path p of hex i walked
  const used = new Uint8Array(COUNT * 6); // how often the chain walked now has left hex i by edge e

  function walkNode(k: number, converging: boolean): void {
    if (visitedNode[k]) return;
    visitedNode[k] = 1;
    const i = (k / MAX_NODES) | 0;
    const end = NODE + (k - i * MAX_NODES);
    const paths = laid(i).paths;
    for (let p = 0; p < paths.length; p++) {
      const [a, b] = paths[p]!;
      if (a === end || b === end) walkPath(i, p, -1, converging, k, converging);
    }
    if (converging) visitedNode[k] = 0;
  }

  /** Walks path p of hex i, entered at edge `skip` (-1: from a stop), for the chain begun at stop `from`. */
  function walkPath(i: number, p: number, skip: number, converging: boolean, from: number, fromConverging: boolean) {
    const bit = 1 << p;
    if (visitedPath[i]! & bit) return;
    const [a, b] = laid(i).paths[p]!;
    if ((a < 6 && used[i * 6 + a]) || (b < 6 && used[i * 6 + b])) return;
    visitedPath[i] = visitedPath[i]! | bit;
    // what the path reaches: its edges (both sides of the border) and its stops
    for (const x of [a, b]) {
      if (x < 6) {
        d[i] = u8(d, i) | (1 << x);
        const n = i16(NEIGHBOR, i * 6 + x);
        if (n >= 0) d[n] = u8(d, n) | (1 << ((x + 3) % 6));
      } else reach(i * MAX_NODES + (x - NODE), false);
    }
    for (const x of [a, b]) {
      if (x < 6) continue;
      const k = i * MAX_NODES + (x - NODE);
      if (k === from || !passable(i, x - NODE)) continue;
      reach(k, true);
      walkNode(k, fromConverging || converging);
    }
    for (const e of [a, b]) {
      if (e >= 6 || e === skip) continue;
      const n = i16(NEIGHBOR, i * 6 + e);
      if (n < 0) continue;
      used[i * 6 + e] = u8(used, i * 6 + e) + 1;
      const back = (e + 3) % 6;
      const next = converging || branches(i, e);
      const paths = laid(n).paths;
      for (let q = 0; q < paths.length; q++) {
        const [qa, qb] = paths[q]!;
        if (qa === back || qb === back) walkPath(n, q, back, next, from, fromConverging);
      }
      used[i * 6 + e] = u8(used, i * 6 + e) - 1;
    }
    if (converging) visitedPath[i] = visitedPath[i]! & ~bit;
  }

  for (const k of starts) {
    visitedNode.fill(0);
    visitedPath.fill(0);
    for (const other of starts) if (other !== k) visitedNode[other] = 1;
    walkNode(k, false);
  }
  return new Reach(d, nodeCount);
}
