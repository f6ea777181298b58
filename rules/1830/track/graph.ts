// What a corporation's network reaches: the hex edges where it may build on
// (track laid must touch one of them) and the cities where it may place a
// station. Walks the track from its stations; cities full of other companies'
// tokens and off-boards stop the walk (they are reached but not passed).
//
// The walk runs over integer tables (./data): hex indexes, per-face bit masks
// of which ends each path joins, typed arrays for what was seen. The string
// forms (`edges`, `nodes`) are built only when someone asks for them.
import { item } from '../../item.ts';
import * as data from './data.ts';
import { hexIdAt, i16, i32, printedAt, tileDef, u16, u8 } from './data.ts';
import type { Board } from './types.ts';
import { chainReachOf } from './chains.ts';

const HEX_IDS = data.HEX_IDS;
const HEX_INDEX = data.HEX_INDEX;
const NEIGHBOR = data.NEIGHBOR;
const OPEN_EDGES = data.OPEN_EDGES;
const NODE_IDS = data.NODE_IDS;
const NODE = data.NODE;
const MAX_NODES = data.MAX_NODES;
const END_COUNT = data.END_COUNT;
const COUNT = HEX_IDS.length;

const SEEN = COUNT; // offset of the node marks in Reach.data

/** What a corporation's track reaches. */
export class Reach {
  /**
   * data[i] (i < COUNT): bit mask of the edges of hex i (index in HEX_IDS) that the network touches;
   * data[COUNT + i * MAX_NODES + n]: node n of hex i is reached (1: reached, 2: walked on from).
   */
  readonly data: Uint8Array;
  /** Number of nodes reached. */
  readonly nodeCount: number;
  private edgesCache: Record<string, number> | null = null;
  private nodesCache: Set<string> | null = null;

  constructor(data: Uint8Array, nodeCount: number) {
    this.data = data;
    this.nodeCount = nodeCount;
  }

  /** edges[hex]: bit mask of the hex edges the network touches (bit e for edge e); hexes in map order. */
  get edges(): Record<string, number> {
    if (!this.edgesCache) {
      const edges: Record<string, number> = {};
      for (let i = 0; i < COUNT; i++) {
        const mask = u8(this.data, i);
        if (mask) edges[hexIdAt(i)] = mask;
      }
      this.edgesCache = edges;
    }
    return this.edgesCache;
  }

  /** Node ids ("HEX-i") the network reaches, in map order. */
  get nodes(): Set<string> {
    if (!this.nodesCache) {
      const nodes = new Set<string>();
      const d = this.data;
      for (let k = 0; k < COUNT * MAX_NODES; k++) if (u8(d, SEEN + k)) nodes.add(item(NODE_IDS, k, 'stop ids'));
      this.nodesCache = nodes;
    }
    return this.nodesCache;
  }

  /** Node keys (hex index * MAX_NODES + node index) the network reaches, in map order. */
  nodeKeys(): number[] {
    const out: number[] = [];
    const d = this.data;
    for (let k = 0; k < COUNT * MAX_NODES; k++) if (u8(d, SEEN + k)) out.push(k);
    return out;
  }

  /** The network touches hex `hex` (by id) at these edges (bit mask). */
  edgesOf(hex: string): number {
    const i = HEX_INDEX.get(hex);
    return i === undefined ? 0 : u8(this.data, i);
  }

  /** The network reaches city/node `city` of `hex`. */
  reaches(hex: string, city: number): boolean {
    const i = HEX_INDEX.get(hex);
    return i !== undefined && city >= 0 && city < MAX_NODES && this.data[SEEN + i * MAX_NODES + city] !== 0;
  }

  /** Hex ids the network touches, in map order. */
  hexes(): string[] {
    const out: string[] = [];
    for (let i = 0; i < COUNT; i++) if (u8(this.data, i)) out.push(hexIdAt(i));
    return out;
  }
}

// work stack, reused: each (hex, entry edge) is pushed at most once, each node at most once
// (or, from board version 3, once per edge it is newly left by)
const STACK = new Int32Array(COUNT * (6 + 7 * MAX_NODES) + 1);
const ENTERED = new Uint8Array(COUNT); // bit e: the walk entered hex i at edge e
// from board version 3: per node key, the edges the walk has left it by, and those still to leave by
const EXITED = new Uint8Array(COUNT * MAX_NODES);
const PENDING = new Uint8Array(COUNT * MAX_NODES);
const EDGE_BITS = 0x3f;

export function reachOf(board: Board, corp: string): Reach {
  // From rules version 4 the walk follows chains of track (chains.ts); older games keep this one.
  if ((board.version ?? 0) >= 4) return chainReachOf(board, corp);
  const d = new Uint8Array(COUNT * (1 + MAX_NODES));
  const entered = ENTERED;
  entered.fill(0);
  let nodeCount = 0;
  const tiles = board.tiles;
  const tokens = board.tokens;
  const stack = STACK;
  let sp = 0;
  // 18xx.games walks track as chains that never use a piece twice: a walk that reaches a town or
  // city by one edge does not leave it by that same edge (and come back along its own track).
  // Boards of games set up before rules version 3 (no board.version) keep the older walk, which allowed it.
  const noReversal = (board.version ?? 0) >= 3;
  if (noReversal) {
    EXITED.fill(0);
    PENDING.fill(0);
  }
  // encoded work: node n of hex i -> -(i * MAX_NODES + n) - 1; entry at edge e of hex i -> i * 6 + e

  for (const k of data.stationKeys(tokens, corp)) {
    const i = Math.floor(k / MAX_NODES);
    d[i] = u8(d, i) | u8(OPEN_EDGES, i);
    const mark = u8(d, SEEN + k);
    if (mark !== 2) {
      if (mark === 0) nodeCount++;
      d[SEEN + k] = 2;
      if (noReversal) {
        EXITED[k] = EDGE_BITS;
        PENDING[k] = EDGE_BITS;
      }
      stack[sp++] = -k - 1;
    }
  }

  while (sp > 0) {
    const item = i32(stack, --sp);
    let i: number;
    let from: number;
    if (item < 0) {
      const k = -item - 1;
      i = (k / MAX_NODES) | 0;
      from = NODE + (k - i * MAX_NODES);
    } else {
      i = (item / 6) | 0;
      from = item - i * 6;
    }
    const hex = hexIdAt(i);
    const laid = tiles[hex];
    const tile = laid ? tileDef(laid.tile) : printedAt(i);
    let m = u16(tile.conn, (laid ? laid.rotation : 0) * END_COUNT + from);
    if (noReversal && from >= NODE) {
      // leave the node only by the edges not taken yet (and not by the one it was reached by)
      const k = i * MAX_NODES + (from - NODE);
      m &= u8(PENDING, k) | ~EDGE_BITS;
      PENDING[k] = 0;
    }
    while (m !== 0) {
      const low = m & -m;
      m ^= low;
      const other = 31 - Math.clz32(low);
      if (other < 6) {
        d[i] = u8(d, i) | low;
        const n = i16(NEIGHBOR, i * 6 + other);
        if (n < 0) continue;
        const back = (other + 3) % 6;
        d[n] = u8(d, n) | (1 << back);
        const entries = u8(entered, n);
        if (!(entries & (1 << back))) {
          entered[n] = entries | (1 << back);
          stack[sp++] = n * 6 + back;
        }
      } else {
        const idx = other - NODE;
        const k = i * MAX_NODES + idx;
        const mark = u8(d, SEEN + k);
        if (mark === 2 && !noReversal) continue;
        if (mark === 0) nodeCount++;
        if (mark !== 2) d[SEEN + k] = 1;
        const node = tile.nodes[idx];
        if (!node) throw new Error(`1830 map: tile #${tile.id} has track to a stop ${idx} it does not have`);
        if (node.kind === 'offboard') continue;
        if (node.kind === 'city') {
          const toks = tokens[hex]?.[idx];
          if (toks && toks.length >= node.slots && !toks.includes(corp)) continue;
        }
        if (noReversal) {
          if (from >= NODE) continue; // a node reached from a node on the same tile: not in 1830
          const exits = u16(tile.conn, (laid ? laid.rotation : 0) * END_COUNT + other) & EDGE_BITS;
          const add = exits & ~(1 << from) & ~u8(EXITED, k);
          d[SEEN + k] = 2;
          if (add === 0) continue;
          EXITED[k] = u8(EXITED, k) | add;
          const wasPending = u8(PENDING, k) !== 0;
          PENDING[k] = u8(PENDING, k) | add;
          if (!wasPending) stack[sp++] = -k - 1;
          continue;
        }
        d[SEEN + k] = 2;
        stack[sp++] = -k - 1;
      }
    }
  }
  return new Reach(d, nodeCount);
}
