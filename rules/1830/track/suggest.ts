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
  while (queue.length) {
    const i = queue.pop()!;
    if (!net.stops[i].passable && !net.stops[i].token) continue;
    for (const c of net.chains[i]) {
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
  const hasToken = (): boolean => stops.some((s) => net.stops[s].token);
  const record = (revenue: number) => {
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (first > last || !hasToken()) return;
    const groups = new Set<string>();
    for (const s of stops) {
      const g = net.stops[s].group;
      if (g) {
        if (groups.has(g)) return;
        groups.add(g);
      }
    }
    const mask = new Uint32Array(WORDS);
    for (const c of chains) for (const b of c.borders) mask[b >>> 5] |= 1 << (b & 31);
    out.push({ revenue, length: stops.length, mask, stops: [...stops], chains: [...chains] });
  };
  const extend = (cur: number, revenue: number) => {
    if (stops.length >= maxLength) return;
    if (stops.length > 1 && !net.stops[cur].passable) return;
    for (const c of net.chains[cur]) {
      if (onRoute[c.to]) continue;
      let free = true;
      for (const b of c.borders)
        if (usedBorder[b]) {
          free = false;
          break;
        }
      if (!free) continue;
      for (const b of c.borders) usedBorder[b] = 1;
      onRoute[c.to] = 1;
      stops.push(c.to);
      chains.push(c);
      const r = revenue + net.stops[c.to].revenue;
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
  return { train, connections: c.chains.map((ch) => [...ch.hexes]), nodes: c.stops.map((s) => net.stops[s].id) };
}

/** The set of routes, one per train at most, with the highest total revenue. */
export function suggestRoutes(board: Board, corp: string, phase: PhaseName, trains: TrainInput[]): Suggestion {
  const empty: Suggestion = { revenue: 0, routes: [], details: [] };
  if (trains.length === 0) return empty;
  const net = buildNetwork(board, corp, phase);
  const order = [...trains].sort((a, b) => b.distance - a.distance);
  const maxLength = Math.min(order[0].distance, net.stops.length);
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
    for (let i = 0; i < n; i++) if (all[i].length <= t.distance) ids.push(i);
    return Int32Array.from(ids);
  });
  const top = lists.map((l) => (l.length ? revenue[l[0]] : 0));
  const rest = new Array(order.length + 1).fill(0);
  for (let k = order.length - 1; k >= 0; k--) rest[k] = rest[k + 1] + top[k];

  let best = -1;
  let bestPick: number[] = [];
  const pick: number[] = [];
  const used = new Uint32Array(WORDS);
  const search = (t: number, value: number, from: number) => {
    if (value + rest[t] <= best) return;
    if (t === order.length) {
      best = value;
      bestPick = [...pick];
      return;
    }
    const list = lists[t];
    const sameAsNext = t + 1 < order.length && order[t + 1].distance === order[t].distance;
    const after = rest[t + 1];
    for (let k = from; k < list.length; k++) {
      const i = list[k];
      if (value + revenue[i] + after <= best) break;
      const base = i * WORDS;
      let fits = true;
      for (let w = 0; w < WORDS; w++) {
        if (masks[base + w] & used[w]) {
          fits = false;
          break;
        }
      }
      if (!fits) continue;
      for (let w = 0; w < WORDS; w++) used[w] |= masks[base + w];
      pick.push(i);
      search(t + 1, value + revenue[i], sameAsNext ? k + 1 : 0);
      pick.pop();
      for (let w = 0; w < WORDS; w++) used[w] &= ~masks[base + w];
    }
    // this train runs nothing (then neither do the identical ones after it)
    pick.push(-1);
    let next = t + 1;
    while (sameAsNext && next < order.length && order[next].distance === order[t].distance) {
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
    const c = all[i];
    routes.push(toInput(net, order[k].id, c));
    details.push({
      train: order[k].id,
      revenue: c.revenue,
      stops: c.stops.map((s) => net.stops[s].id),
      hexes: c.stops.map((s) => net.stops[s].hex),
    });
  });
  return { revenue: Math.max(best, 0), routes, details };
}
