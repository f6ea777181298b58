// The best routes for all of a corporation's trains together (exact).
//
// 1. Every legal route is listed once: a walk over the stretches of track
//    between stops, from each stop the corporation's network reaches, never
//    reusing a stop or a hex side, through passable stops only, up to the longest
//    train's length, kept when it holds a station of the corporation.
// 2. Trains, longest first, take routes by branch and bound over the routes
//    sorted by revenue, with hex sides as bit masks: a route is skipped when it
//    shares track with the routes already taken, and a branch is cut when even
//    the best remaining routes could not beat the best set found.
import { item } from '../../item.ts';
import { i32, u32, u8 } from './data.ts';
import { BORDER_COUNT, buildNetwork, type Chain, type Network } from './network.ts';
import type { Board, PhaseName, RouteInput, Suggestion, TrainInput } from './types.ts';

const WORDS = Math.ceil(BORDER_COUNT / 32) || 1;

interface Candidate {
  revenue: number;
  length: number;
  mask: Uint32Array;
  stops: number[];
  chains: Chain[];
}

const stopAt = (net: Network, i: number) => item(net.stops, i, 'network stops');
const chainsAt = (net: Network, i: number) => item(net.chains, i, 'network chains');

/** Stops linked to a station of the corporation by track that trains may run over. */
function reachableStops(net: Network): boolean[] {
  const seen = net.stops.map(() => false);
  const queue: number[] = [];
  net.stops.forEach((s, i) => {
    if (s.token) {
      seen[i] = true;
      queue.push(i);
    }
  });
  for (let i = queue.pop(); i !== undefined; i = queue.pop()) {
    const stop = stopAt(net, i);
    if (!stop.passable && !stop.token) continue;
    for (const c of chainsAt(net, i)) {
      if (!seen[c.to]) {
        seen[c.to] = true;
        queue.push(c.to);
      }
    }
  }
  return seen;
}

/** Every legal route of at most maxLength stops (each listed once, from its lower-numbered end). */
export function listRoutes(net: Network, maxLength: number): Candidate[] {
  const reach = reachableStops(net);
  const out: Candidate[] = [];
  const usedBorder = new Uint8Array(BORDER_COUNT);
  const onRoute = new Uint8Array(net.stops.length);
  const stops: number[] = [];
  const chains: Chain[] = [];
  const hasToken = (): boolean => stops.some((s) => stopAt(net, s).token);
  const record = (revenue: number) => {
    const first = item(stops, 0);
    const last = item(stops, stops.length - 1);
    if (first > last || !hasToken()) return;
    const groups = new Set<string>();
    for (const s of stops) {
      const g = stopAt(net, s).group;
      if (g) {
        if (groups.has(g)) return;
        groups.add(g);
      }
    }
    const mask = new Uint32Array(WORDS);
    for (const c of chains) for (const b of c.borders) mask[b >>> 5] = u32(mask, b >>> 5) | (1 << (b & 31));
    out.push({ revenue, length: stops.length, mask, stops: [...stops], chains: [...chains] });
  };
  const extend = (cur: number, revenue: number) => {
    if (stops.length >= maxLength) return;
    if (stops.length > 1 && !stopAt(net, cur).passable) return;
    for (const c of chainsAt(net, cur)) {
      if (u8(onRoute, c.to)) continue;
      let free = true;
      for (const b of c.borders)
        if (u8(usedBorder, b)) {
          free = false;
          break;
        }
      if (!free) continue;
      for (const b of c.borders) usedBorder[b] = 1;
      onRoute[c.to] = 1;
      stops.push(c.to);
      chains.push(c);
      const r = revenue + stopAt(net, c.to).revenue;
      record(r);
      extend(c.to, r);
      chains.pop();
      stops.pop();
      onRoute[c.to] = 0;
      for (const b of c.borders) usedBorder[b] = 0;
    }
  };
  net.stops.forEach((s, i) => {
    if (!reach[i]) return;
    onRoute[i] = 1;
    stops.push(i);
    extend(i, s.revenue);
    stops.pop();
    onRoute[i] = 0;
  });
  return out;
}

function toInput(net: Network, train: string, c: Candidate): RouteInput {
  return { train, connections: c.chains.map((ch) => [...ch.hexes]), nodes: c.stops.map((s) => stopAt(net, s).id) };
}

/** The set of routes, one per train at most, with the highest total revenue. */
export function suggestRoutes(board: Board, corp: string, phase: PhaseName, trains: TrainInput[]): Suggestion {
  const empty: Suggestion = { revenue: 0, routes: [], details: [] };
  const order = [...trains].sort((a, b) => b.distance - a.distance);
  const [longest] = order;
  if (!longest) return empty;
  const net = buildNetwork(board, corp, phase);
  const maxLength = Math.min(longest.distance, net.stops.length);
  const all = listRoutes(net, maxLength).sort((a, b) => b.revenue - a.revenue || a.length - b.length);
  if (all.length === 0) return empty;

  // masks in one flat array (route i owns words i*WORDS .. i*WORDS+WORDS-1)
  const n = all.length;
  const masks = new Uint32Array(n * WORDS);
  const revenue = new Int32Array(n);
  all.forEach((c, i) => {
    masks.set(c.mask, i * WORDS);
    revenue[i] = c.revenue;
  });
  const lists = order.map((t) => {
    const ids: number[] = [];
    all.forEach((c, i) => {
      if (c.length <= t.distance) ids.push(i);
    });
    return Int32Array.from(ids);
  });
  // rest[t]: what trains t.. could earn at best (each its highest-paying route); rest[order.length] = 0
  const rest = new Int32Array(order.length + 1);
  for (let k = order.length - 1; k >= 0; k--) {
    const list = item(lists, k);
    rest[k] = i32(rest, k + 1) + (list.length ? i32(revenue, i32(list, 0)) : 0);
  }
  // distance of train t (the sort put them longest first)
  const distance = Int32Array.from(order, (t) => t.distance);

  let best = -1;
  let bestPick: number[] = [];
  const pick: number[] = [];
  const used = new Uint32Array(WORDS);
  const search = (t: number, value: number, from: number) => {
    if (value + i32(rest, t) <= best) return;
    const list = lists[t];
    if (!list) {
      best = value;
      bestPick = [...pick];
      return;
    }
    const sameAsNext = t + 1 < order.length && distance[t + 1] === distance[t];
    const after = i32(rest, t + 1);
    for (let k = from; k < list.length; k++) {
      const i = i32(list, k);
      const earns = i32(revenue, i);
      if (value + earns + after <= best) break;
      const base = i * WORDS;
      let fits = true;
      for (let w = 0; w < WORDS; w++) {
        if (u32(masks, base + w) & u32(used, w)) {
          fits = false;
          break;
        }
      }
      if (!fits) continue;
      for (let w = 0; w < WORDS; w++) used[w] = u32(used, w) | u32(masks, base + w);
      pick.push(i);
      search(t + 1, value + earns, sameAsNext ? k + 1 : 0);
      pick.pop();
      for (let w = 0; w < WORDS; w++) used[w] = u32(used, w) & ~u32(masks, base + w);
    }
    // this train runs nothing (then neither do the identical ones after it)
    pick.push(-1);
    let next = t + 1;
    while (sameAsNext && next < order.length && distance[next] === distance[t]) {
      pick.push(-1);
      next++;
    }
    search(next, value, 0);
    pick.length = t;
  };
  search(0, 0, 0);

  const routes: RouteInput[] = [];
  const details: Suggestion['details'] = [];
  bestPick.forEach((i, k) => {
    if (i < 0) return;
    const c = item(all, i);
    const train = item(order, k).id;
    routes.push(toInput(net, train, c));
    details.push({
      train,
      revenue: c.revenue,
      stops: c.stops.map((s) => stopAt(net, s).id),
      hexes: c.stops.map((s) => stopAt(net, s).hex),
    });
  });
  return { revenue: Math.max(best, 0), routes, details };
}
