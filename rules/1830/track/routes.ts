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
import { hexLabel } from './lay';
import { buildNetwork, type Chain, type Network } from './network';
import { routeInputSchema, type Board, type PhaseName, type RouteInput, type RouteResult, type RunResult, type TrainInput } from './types';

export const stopLabel = (net: Network, i: number): string => {
  const s = net.stops[i];
  const h = hexLabel(s.hex);
  return net.stops.filter((x) => x.hex === s.hex).length > 1 ? `${h} ${s.kind} ${s.index}` : h;
};

/** Turns one route's connections into its stops and chains; throws RuleError when the track is not there. */
export function resolveRoute(net: Network, route: RouteInput): { stops: number[]; chains: Chain[] } {
  const pinned = new Set((route.nodes ?? []).map((n) => net.index.get(n)).filter((n): n is number => n !== undefined));
  const options = route.connections.map((hexes) => {
    const found: Chain[] = [];
    net.stops.forEach((s, si) => {
      if (s.hex !== hexes[0]) return;
      for (const c of net.chains[si]) {
        if (c.hexes.length === hexes.length && c.hexes.every((h, k) => h === hexes[k])) found.push(c);
      }
    });
    if (found.length === 0) {
      throw new RuleError(`There is no track from a stop in ${hexes[0]} to a stop in ${hexes[hexes.length - 1]} through ${hexes.join('-')}`);
    }
    const preferred = found.filter((c) => pinned.has(c.from) && pinned.has(c.to));
    return preferred.length ? preferred : found;
  });
  // choose one chain per connection so that consecutive ones share a stop
  const pick = (k: number, prevEnd: number | null, acc: { chain: Chain; a: number; b: number }[]): typeof acc | null => {
    if (k === options.length) return acc;
    for (const c of options[k]) {
      for (const [a, b] of [
        [c.from, c.to],
        [c.to, c.from],
      ]) {
        if (prevEnd !== null && a !== prevEnd) continue;
        const r = pick(k + 1, b, [...acc, { chain: c, a, b }]);
        if (r) return r;
      }
    }
    return null;
  };
  const joined = pick(0, null, []);
  if (!joined) throw new RuleError(`The pieces of the route of train ${route.train} do not join up stop to stop`);
  return { stops: [joined[0].a, ...joined.map((j) => j.b)], chains: joined.map((j) => j.chain) };
}

/** Checks every route of a corporation's run together and computes the revenue; throws RuleError on the first broken rule. */
export function runRoutes(board: Board, corp: string, phase: PhaseName, trains: TrainInput[], routes: RouteInput[]): RunResult {
  const parsed = routeInputSchema.array().safeParse(routes);
  if (!parsed.success) throw new RuleError('Each route needs a train and its track as hex chains from stop to stop (like F20-G19)');
  const net = buildNetwork(board, corp, phase);
  const used = new Set<string>();
  const borders = new Map<number, string>();
  const results: RouteResult[] = [];
  let total = 0;
  for (const route of parsed.data) {
    const train = trains.find((t) => t.id === route.train);
    if (!train) throw new RuleError(`${corp} has no train ${route.train}`);
    if (used.has(route.train)) throw new RuleError(`Train ${route.train} can run only one route`);
    used.add(route.train);
    const { stops, chains } = resolveRoute(net, route);
    const seen = new Set<number>();
    for (const s of stops) {
      if (seen.has(s)) throw new RuleError(`The route of train ${route.train} visits ${stopLabel(net, s)} twice`);
      seen.add(s);
    }
    stops.slice(1, -1).forEach((s) => {
      const stop = net.stops[s];
      if (stop.kind === 'offboard') throw new RuleError(`A route may only start or end at an off-board area like ${stopLabel(net, s)}; train ${route.train} runs through it`);
      if (!stop.passable) throw new RuleError(`${stopLabel(net, s)} is full of other companies' stations: ${corp}'s train ${route.train} may end there but not run through`);
    });
    if (!stops.some((s) => net.stops[s].token)) throw new RuleError(`The route of train ${route.train} does not include a ${corp} station`);
    if (stops.length > train.distance) {
      throw new RuleError(`Train ${route.train} counts at most ${train.distance} stops (towns count); its route has ${stops.length}`);
    }
    const groups = stops.map((s) => net.stops[s].group).filter((g): g is string => !!g);
    if (new Set(groups).size !== groups.length) throw new RuleError(`The route of train ${route.train} visits the ${groups[0]} off-board twice`);
    for (const c of chains) {
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
    const revenue = stops.reduce((sum, s) => sum + net.stops[s].revenue, 0);
    total += revenue;
    results.push({ train: route.train, revenue, stops: stops.map((s) => net.stops[s].id), hexes: stops.map((s) => net.stops[s].hex) });
  }
  return { revenue: total, routes: results };
}
