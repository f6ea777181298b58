// Routes: checking the routes a corporation runs and computing their revenue.
//
// 1830 as 18xx.games plays it: a route is a line of track from stop to stop;
// it visits at least two stops, one of them a station of the corporation; it
// never visits a stop twice; it may not run through an off-board area or a city
// whose every slot holds another company's station (it may end there); a train
// counts every city, town and off-board it visits and may visit as many as its
// number (a D train any number); no two routes, and no route twice, may use the
// same piece of track (hex side); off-boards pay their yellow value, and their
// brown value from phase 5 on.
import { item } from '../../item.ts';
import { RuleError } from '../../types.ts';
import { faceAt, parseNodeId } from './board.ts';
import * as data from './data.ts';
import { hexIdAt, i16, i32, nodeRevenue, printedAt, tileDef, u16 } from './data.ts';
import { hexLabel } from './lay.ts';
import { BORDER_AT, BORDER_COUNT } from './network.ts';
import type { Board, PhaseName, RouteInput, RouteResult, RunResult, TrainInput } from './types.ts';

// module-local references to the integer tables (hot path)
const HEX_INDEX = data.HEX_INDEX;
const NEIGHBOR = data.NEIGHBOR;
const GROUP = data.GROUP;
const NODE_IDS = data.NODE_IDS;
const NODE_KEY = data.NODE_KEY;
const NODE = data.NODE;
const MAX_NODES = data.MAX_NODES;
const END_COUNT = data.END_COUNT;
const NODE_BITS = ((1 << MAX_NODES) - 1) << NODE;

interface Lane {
  from: string;
  to: string;
  borders: number[];
  hexes: string[];
}

const label = (board: Board, id: string): string => {
  const { hex, index } = parseNodeId(id);
  const { tile } = faceAt(board, hex);
  const node = tile.nodes[index];
  return node && tile.nodes.length > 1 ? `${hexLabel(hex)} ${node.kind} ${index}` : hexLabel(hex);
};

function brokenChain(hexes: string[]): RuleError {
  return new RuleError(
    `There is no track from a stop in ${hexes[0]} to a stop in ${hexes[hexes.length - 1]} through ${hexes.join('-')}`,
  );
}

/** The path masks of the face on hex i as it lies: conn[base + end]. */
function connOf(board: Board, i: number): { conn: Uint16Array; base: number } {
  const laid = board.tiles[hexIdAt(i)];
  return laid
    ? { conn: tileDef(laid.tile).conn, base: laid.rotation * END_COUNT }
    : { conn: printedAt(i).conn, base: 0 };
}

/** Stop ids of hex i joined by track to its edge (mask of node ends). */
function stopsIn(i: number, nodeMask: number): string[] {
  const out: string[] = [];
  let m = nodeMask & NODE_BITS;
  while (m !== 0) {
    const low = m & -m;
    m ^= low;
    out.push(item(NODE_IDS, i * MAX_NODES + (31 - Math.clz32(low)) - NODE, 'stop ids'));
  }
  return out;
}

/**
 * The stretches of track that follow a hex chain. Normally the chain runs from
 * a stop to a stop (one stretch); a chain typed through stops ("K13-J14-I15")
 * is cut at every hex where the track can only go on through a stop.
 */
function lanesAlong(board: Board, hexes: string[]): Lane[][] {
  const len = hexes.length;
  // idx[i]: map index of hexes[i]; edges[i]: the edge of hexes[i] that leads to hexes[i + 1]
  const idx: number[] = [];
  const edges: number[] = [];
  for (const hex of hexes) {
    const b = HEX_INDEX.get(hex);
    if (idx.length === 0) {
      if (b === undefined) throw new RuleError(`There is no hex ${hex} on the 1830 map`);
    } else {
      const a = item(idx, idx.length - 1);
      let e = 0;
      if (b !== undefined) while (e < 6 && i16(NEIGHBOR, a * 6 + e) !== b) e++;
      if (b === undefined || e === 6) throw brokenChain(hexes);
      edges.push(e);
    }
    idx.push(b);
  }
  // cut points: hex index and the stop there (null at the two ends: any stop meeting the edge)
  const cutAt: number[] = [0];
  const cutStop: (string | null)[] = [null];
  for (let i = 1; i + 1 < len; i++) {
    const entry = (item(edges, i - 1) + 3) % 6;
    const { conn, base } = connOf(board, item(idx, i));
    const fromEntry = u16(conn, base + entry);
    if (fromEntry & (1 << item(edges, i))) continue;
    const through = stopsIn(item(idx, i), fromEntry & u16(conn, base + item(edges, i)));
    const [stop] = through;
    if (through.length !== 1 || stop === undefined) throw brokenChain(hexes);
    cutAt.push(i);
    cutStop.push(stop);
  }
  cutAt.push(len - 1);
  cutStop.push(null);
  const out: Lane[][] = [];
  for (let k = 0; k + 1 < cutAt.length; k++) {
    const s = item(cutAt, k);
    const t = item(cutAt, k + 1);
    const startStop = item(cutStop, k);
    let starts: string[];
    if (startStop !== null) starts = [startStop];
    else {
      const { conn, base } = connOf(board, item(idx, s));
      starts = stopsIn(item(idx, s), u16(conn, base + item(edges, s)));
    }
    const endStop = item(cutStop, k + 1);
    let ends: string[];
    if (endStop !== null) ends = [endStop];
    else {
      const { conn, base } = connOf(board, item(idx, t));
      ends = stopsIn(item(idx, t), u16(conn, base + ((item(edges, t - 1) + 3) % 6)));
    }
    const borders: number[] = [];
    for (let i = s; i < t; i++) borders.push(i16(BORDER_AT, item(idx, i) * 6 + item(edges, i)));
    const part = s === 0 && t === len - 1 ? hexes : hexes.slice(s, t + 1);
    const lanes: Lane[] = [];
    for (const from of starts) for (const to of ends) if (from !== to) lanes.push({ from, to, borders, hexes: part });
    if (!lanes.length) throw brokenChain(hexes);
    out.push(lanes);
  }
  return out;
}

interface Joined {
  lane: Lane;
  a: string;
  b: string;
}

/** One stretch per connection, consecutive ones sharing a stop (depth-first; usually one choice each). */
function joinLanes(options: Lane[][], k: number, prevEnd: string | null, acc: Joined[]): Joined[] | null {
  const lanes = options[k];
  if (!lanes) return acc;
  for (const c of lanes) {
    for (let flip = 0; flip < 2; flip++) {
      const a = flip ? c.to : c.from;
      const b = flip ? c.from : c.to;
      if (prevEnd !== null && a !== prevEnd) continue;
      acc.push({ lane: c, a, b });
      const r = joinLanes(options, k + 1, b, acc);
      if (r) return r;
      acc.pop();
    }
  }
  return null;
}

/**
 * joinLanes when every connection has exactly one stretch (the usual case): the
 * first stretch is tried both ways round, the others must follow on. Gives what
 * joinLanes gives; null when that needs the general search (or it fails).
 */
function joinSingle(options: Lane[][]): Joined[] | null {
  for (const o of options) if (o.length !== 1) return null;
  for (let flip = 0; flip < 2; flip++) {
    const out: Joined[] = [];
    let prev: string | null = null;
    let ok = true;
    for (const [k, lanes] of options.entries()) {
      const c = item(lanes, 0);
      let a: string;
      let b: string;
      if (k === 0) {
        a = flip ? c.to : c.from;
        b = flip ? c.from : c.to;
      } else if (c.from === prev) {
        a = c.from;
        b = c.to;
      } else if (c.to === prev) {
        a = c.to;
        b = c.from;
      } else {
        ok = false;
        break;
      }
      out.push({ lane: c, a, b });
      prev = b;
    }
    if (ok) return out;
  }
  return null;
}

/** Turns one route's connections into its stops and stretches of track; throws RuleError when the track is not there. */
export function resolveRoute(board: Board, route: RouteInput): { stops: string[]; lanes: Lane[] } {
  const pinned = route.nodes ?? [];
  const options: Lane[][] = [];
  for (const hexes of route.connections) {
    for (const found of lanesAlong(board, hexes)) {
      const preferred = pinned.length ? found.filter((c) => pinned.includes(c.from) && pinned.includes(c.to)) : [];
      options.push(preferred.length ? preferred : found);
    }
  }
  const joined = joinSingle(options) ?? joinLanes(options, 0, null, []);
  if (!joined) throw new RuleError(`The pieces of the route of train ${route.train} do not join up stop to stop`);
  return { stops: [item(joined, 0).a, ...joined.map((j) => j.b)], lanes: joined.map((j) => j.lane) };
}

const HEX_RE = /^[A-Z][0-9]{1,2}$/;
function wellFormed(routes: unknown): routes is RouteInput[] {
  if (!Array.isArray(routes)) return false;
  for (const r of routes) {
    if (
      !r ||
      typeof r !== 'object' ||
      typeof r.train !== 'string' ||
      !r.train ||
      !Array.isArray(r.connections) ||
      !r.connections.length
    )
      return false;
    for (const c of r.connections) {
      if (!Array.isArray(c) || c.length < 2) return false;
      for (const h of c) if (typeof h !== 'string' || !(HEX_INDEX.has(h) || HEX_RE.test(h))) return false;
    }
    if (r.nodes !== undefined && (!Array.isArray(r.nodes) || r.nodes.some((n: unknown) => typeof n !== 'string')))
      return false;
  }
  return true;
}

const BORDER_OWNER = new Int32Array(BORDER_COUNT);
let runStamp = 1;

/** Checks every route of a corporation's run together and computes the revenue; throws RuleError on the first broken rule. */
export function runRoutes(
  board: Board,
  corp: string,
  phase: PhaseName,
  trains: TrainInput[],
  routes: RouteInput[],
): RunResult {
  if (!wellFormed(routes))
    throw new RuleError('Each route needs a train and its track as hex chains from stop to stop (like F20-G19)');
  const used = new Set<string>();
  // owner of each border in this run: BORDER_OWNER[b] - stamp is the route index (values below stamp: free)
  if (runStamp > 0x3fffffff) {
    BORDER_OWNER.fill(0);
    runStamp = 1;
  }
  const stamp = runStamp;
  runStamp += routes.length + 1;
  const results: RouteResult[] = [];
  let total = 0;
  for (const [ri, route] of routes.entries()) {
    const train = trains.find((t) => t.id === route.train);
    if (!train)
      throw new RuleError(
        `${corp} has no train ${route.train.length > 24 ? `${route.train.slice(0, 24)}...` : route.train}`,
      );
    if (used.has(route.train)) throw new RuleError(`Train ${route.train} can run only one route`);
    used.add(route.train);
    const { stops: ids, lanes } = resolveRoute(board, route);
    const n = ids.length;
    const keys: number[] = [];
    for (const id of ids) {
      const key = NODE_KEY.get(id);
      if (key === undefined) throw new Error(`1830 routes: ${id} is not a stop id`);
      if (keys.includes(key)) throw new RuleError(`The route of train ${route.train} visits ${label(board, id)} twice`);
      keys.push(key);
    }
    let revenue = 0;
    let token = false;
    const groups: string[] = [];
    const hexes: string[] = [];
    for (const [k, key] of keys.entries()) {
      const i = (key / MAX_NODES) | 0;
      const index = key - i * MAX_NODES;
      const hex = hexIdAt(i);
      hexes.push(hex);
      const laid = board.tiles[hex];
      const tile = laid ? tileDef(laid.tile) : printedAt(i);
      const node = tile.nodes[index];
      if (!node) throw new Error(`1830 routes: tile #${tile.id} has no stop ${index}`);
      const toks = node.kind === 'city' ? board.tokens[hex]?.[index] : undefined;
      const mine = !!toks && toks.includes(corp);
      if (k > 0 && k + 1 < n) {
        if (node.kind === 'offboard')
          throw new RuleError(
            `A route may only start or end at an off-board area like ${label(board, item(ids, k))}; train ${route.train} runs through it`,
          );
        if (toks && !mine && toks.length >= node.slots) {
          throw new RuleError(
            `${label(board, item(ids, k))} is full of other companies' stations: ${corp}'s train ${route.train} may end there but not run through`,
          );
        }
      }
      if (mine) token = true;
      revenue += node.kind === 'offboard' ? nodeRevenue(node, phase) : node.revenue;
      const g = item(GROUP, i, 'off-board groups');
      if (g) groups.push(g);
    }
    if (!token) throw new RuleError(`The route of train ${route.train} does not include a ${corp} station`);
    if (n > train.distance) {
      throw new RuleError(
        `Train ${route.train} counts at most ${train.distance} stops (towns count); its route has ${n}`,
      );
    }
    if (new Set(groups).size !== groups.length)
      throw new RuleError(`The route of train ${route.train} visits the ${groups[0]} off-board twice`);
    for (const c of lanes) {
      for (const b of c.borders) {
        const owner = i32(BORDER_OWNER, b);
        if (owner >= stamp) {
          const other = item(routes, owner - stamp).train;
          throw new RuleError(
            other === route.train
              ? `The route of train ${route.train} uses the same track twice (${c.hexes.join('-')})`
              : `Trains ${other} and ${route.train} may not use the same track (${c.hexes.join('-')})`,
          );
        }
        BORDER_OWNER[b] = stamp + ri;
      }
    }
    total += revenue;
    results.push({ train: route.train, revenue, stops: ids, hexes });
  }
  return { revenue: total, routes: results };
}
