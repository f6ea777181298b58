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
import { RuleError } from '../../types';
import { cityBlocks, faceAt, nodeId, parseNodeId, trackAt } from './board';
import { HEXES, NODE, invert, nodeRevenue } from './data';
import { hexLabel } from './lay';
import { BORDER, type Stop } from './network';
import { type Board, type PhaseName, type RouteInput, type RouteResult, type RunResult, type TrainInput } from './types';

interface Lane {
  from: string;
  to: string;
  borders: number[];
  hexes: string[];
}

/** Stop details for the checks, computed only for the stops a route names. */
function stopInfo(board: Board, corp: string, phase: PhaseName, id: string): Stop {
  const { hex, index } = parseNodeId(id);
  const node = faceAt(board, hex).tile.nodes[index];
  const toks = board.tokens[hex] ?? [];
  return {
    id,
    hex,
    index,
    kind: node.kind,
    revenue: nodeRevenue(node, phase),
    passable: node.kind !== 'offboard' && !(node.kind === 'city' && cityBlocks(board, hex, index, corp)),
    token: node.kind === 'city' && (toks[index] ?? []).includes(corp),
    group: HEXES[hex].group,
  };
}

const label = (board: Board, id: string): string => {
  const { hex, index } = parseNodeId(id);
  const { tile } = faceAt(board, hex);
  return tile.nodes.length > 1 ? `${hexLabel(hex)} ${tile.nodes[index].kind} ${index}` : hexLabel(hex);
};

function brokenChain(hexes: string[]): RuleError {
  return new RuleError(`There is no track from a stop in ${hexes[0]} to a stop in ${hexes[hexes.length - 1]} through ${hexes.join('-')}`);
}

function hasPath(board: Board, hex: string, p: number, q: number): boolean {
  const track = trackAt(board, hex);
  for (let k = 0; k < track.length; k++) {
    const a = track[k][0];
    const b = track[k][1];
    if ((a === p && b === q) || (a === q && b === p)) return true;
  }
  return false;
}

/** Stops of a hex joined by track to one of its edges. */
function stopsAtEdge(board: Board, hex: string, edge: number): string[] {
  const out: string[] = [];
  const track = trackAt(board, hex);
  for (let k = 0; k < track.length; k++) {
    const a = track[k][0];
    const b = track[k][1];
    if (a === edge && b >= NODE) out.push(nodeId(hex, b - NODE));
    else if (b === edge && a >= NODE) out.push(nodeId(hex, a - NODE));
  }
  return out;
}

/**
 * The stretches of track that follow a hex chain. Normally the chain runs from
 * a stop to a stop (one stretch); a chain typed through stops ("K13-J14-I15")
 * is cut at every hex where the track can only go on through a stop.
 */
function lanesAlong(board: Board, hexes: string[]): Lane[][] {
  const edges: number[] = [];
  for (let i = 0; i + 1 < hexes.length; i++) {
    const h = HEXES[hexes[i]];
    if (!h) throw new RuleError(`There is no hex ${hexes[i]} on the 1830 map`);
    const e = h.neighbors.indexOf(hexes[i + 1]);
    if (e < 0) throw brokenChain(hexes);
    edges.push(e);
  }
  if (!HEXES[hexes[hexes.length - 1]]) throw new RuleError(`There is no hex ${hexes[hexes.length - 1]} on the 1830 map`);
  // cut points: hex index and the stop there (null at the two ends: any stop meeting the edge)
  const cutAt: number[] = [0];
  const cutStop: (string | null)[] = [null];
  for (let i = 1; i + 1 < hexes.length; i++) {
    const entry = invert(edges[i - 1]);
    if (hasPath(board, hexes[i], entry, edges[i])) continue;
    const onward = stopsAtEdge(board, hexes[i], edges[i]);
    const through = stopsAtEdge(board, hexes[i], entry).filter((n) => onward.includes(n));
    if (through.length !== 1) throw brokenChain(hexes);
    cutAt.push(i);
    cutStop.push(through[0]);
  }
  cutAt.push(hexes.length - 1);
  cutStop.push(null);
  const out: Lane[][] = [];
  for (let k = 0; k + 1 < cutAt.length; k++) {
    const s = cutAt[k];
    const t = cutAt[k + 1];
    const starts = cutStop[k] !== null ? [cutStop[k]!] : stopsAtEdge(board, hexes[s], edges[s]);
    const ends = cutStop[k + 1] !== null ? [cutStop[k + 1]!] : stopsAtEdge(board, hexes[t], invert(edges[t - 1]));
    const borders: number[] = [];
    for (let i = s; i < t; i++) borders.push(BORDER[hexes[i]][edges[i]]);
    const part = hexes.slice(s, t + 1);
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
  if (k === options.length) return acc;
  for (const c of options[k]) {
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
  const joined = joinLanes(options, 0, null, []);
  if (!joined) throw new RuleError(`The pieces of the route of train ${route.train} do not join up stop to stop`);
  return { stops: [joined[0].a, ...joined.map((j) => j.b)], lanes: joined.map((j) => j.lane) };
}

const HEX_RE = /^[A-Z][0-9]{1,2}$/;
function wellFormed(routes: unknown): routes is RouteInput[] {
  if (!Array.isArray(routes)) return false;
  for (const r of routes) {
    if (!r || typeof r !== 'object' || typeof r.train !== 'string' || !r.train || !Array.isArray(r.connections) || !r.connections.length) return false;
    for (const c of r.connections) {
      if (!Array.isArray(c) || c.length < 2) return false;
      for (const h of c) if (typeof h !== 'string' || !HEX_RE.test(h)) return false;
    }
    if (r.nodes !== undefined && (!Array.isArray(r.nodes) || r.nodes.some((n: unknown) => typeof n !== 'string'))) return false;
  }
  return true;
}

/** Checks every route of a corporation's run together and computes the revenue; throws RuleError on the first broken rule. */
export function runRoutes(board: Board, corp: string, phase: PhaseName, trains: TrainInput[], routes: RouteInput[]): RunResult {
  if (!wellFormed(routes)) throw new RuleError('Each route needs a train and its track as hex chains from stop to stop (like F20-G19)');
  const used = new Set<string>();
  const borders = new Map<number, string>();
  const results: RouteResult[] = [];
  let total = 0;
  for (const route of routes) {
    const train = trains.find((t) => t.id === route.train);
    if (!train) throw new RuleError(`${corp} has no train ${route.train}`);
    if (used.has(route.train)) throw new RuleError(`Train ${route.train} can run only one route`);
    used.add(route.train);
    const { stops: ids, lanes } = resolveRoute(board, route);
    const stops = ids.map((id) => stopInfo(board, corp, phase, id));
    const seen = new Set<string>();
    for (const s of stops) {
      if (seen.has(s.id)) throw new RuleError(`The route of train ${route.train} visits ${label(board, s.id)} twice`);
      seen.add(s.id);
    }
    for (let k = 1; k + 1 < stops.length; k++) {
      const stop = stops[k];
      if (stop.kind === 'offboard') throw new RuleError(`A route may only start or end at an off-board area like ${label(board, stop.id)}; train ${route.train} runs through it`);
      if (!stop.passable) throw new RuleError(`${label(board, stop.id)} is full of other companies' stations: ${corp}'s train ${route.train} may end there but not run through`);
    }
    if (!stops.some((s) => s.token)) throw new RuleError(`The route of train ${route.train} does not include a ${corp} station`);
    if (stops.length > train.distance) {
      throw new RuleError(`Train ${route.train} counts at most ${train.distance} stops (towns count); its route has ${stops.length}`);
    }
    const groups = stops.map((s) => s.group).filter((g): g is string => !!g);
    if (new Set(groups).size !== groups.length) throw new RuleError(`The route of train ${route.train} visits the ${groups[0]} off-board twice`);
    for (const c of lanes) {
      for (const b of c.borders) {
        const other = borders.get(b);
        if (other !== undefined) {
          throw new RuleError(
            other === route.train
              ? `The route of train ${route.train} uses the same track twice (${c.hexes.join('-')})`
              : `Trains ${other} and ${route.train} may not use the same track (${c.hexes.join('-')})`,
          );
        }
        borders.set(b, route.train);
      }
    }
    let revenue = 0;
    for (const st of stops) revenue += st.revenue;
    total += revenue;
    results.push({ train: route.train, revenue, stops: ids, hexes: stops.map((st) => st.hex) });
  }
  return { revenue: total, routes: results };
}
