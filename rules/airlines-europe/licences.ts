// Action A, first part: buying route licences. The five licence rules, the
// connection bonuses and blocked airlines.
import { board, routeName } from './board.ts';
import type { AEState } from './state.ts';

export interface Licence {
  airline: string;
  route: number;
}

/** Does the airline reach this city, counting licences already bought earlier in this same action? */
function reaches(s: AEState, airline: string, city: string, earlier: readonly Licence[]): boolean {
  if (s.networks[airline]!.includes(city)) return true;
  for (const l of earlier) {
    if (l.airline !== airline) continue;
    const r = board.routes[l.route]!;
    if (r.from === city || r.to === city) return true;
  }
  return false;
}

/** Licences already taken on the route, counting this action's earlier purchases. */
function taken(s: AEState, route: number, earlier: readonly Licence[]): number {
  let n = s.licences[route]!.length;
  for (const l of earlier) if (l.route === route) n++;
  return n;
}

// No earlier licences, one shared empty list (this is called in the move lists' loops).
const NONE: readonly Licence[] = [];

/** The price of the next licence on the route (the cheapest free one), or null when none is left. */
export function nextLicenceCost(s: AEState, route: number, earlier: readonly Licence[] = NONE): number | null {
  const costs = ROUTES[route]!.costs;
  const k = taken(s, route, earlier);
  return k < costs.length ? costs[k]! : null;
}

/**
 * Why this licence cannot be bought now, in words, or null if it can. Checks
 * the airline's planes, the route's free licences, one licence per airline and
 * route, and the connection to the airline's network. Money is checked by the caller.
 */
export function licenceProblem(
  s: AEState,
  airline: string,
  route: number,
  earlier: readonly Licence[] = [],
): string | null {
  const a = board.airlineById[airline];
  if (!a || !s.airlines.includes(airline)) {
    if (airline === board.abacus.id) return 'Air Abacus has no planes: no licences can be bought for it.';
    return `${a?.name ?? airline} does not fly in this game.`;
  }
  const r = board.routes[route]!;
  let planesUsed = 0;
  for (const l of earlier) if (l.airline === airline) planesUsed++;
  if (s.planes[airline]! - planesUsed <= 0) return `${a.name} has no planes left: no more licences for it.`;
  if (s.licences[route]!.includes(airline) || earlier.some((l) => l.airline === airline && l.route === route)) {
    return `${a.name} already flies ${routeName(route)}: an airline holds at most one licence per route.`;
  }
  if (taken(s, route, earlier) >= r.costs.length) return `Route ${routeName(route)} has no free licence left.`;
  if (!reaches(s, airline, r.from, earlier) && !reaches(s, airline, r.to, earlier)) {
    return `Route ${routeName(route)} is not connected to ${a.name}'s network (home ${board.cityById[a.home]!.name}).`;
  }
  return null;
}

/** Can the airline still buy some licence (planes left and a connected route with a free licence)? */
export function canExpand(s: AEState, airline: string): boolean {
  if (s.planes[airline]! <= 0) return false;
  for (const city of s.networks[airline]!) {
    for (const route of board.routesByCity[city]!) {
      const held = s.licences[route]!;
      if (held.length < board.routes[route]!.costs.length && !held.includes(airline)) return true;
    }
  }
  return false;
}

/** Blocked: planes left in the supply but no licence it may legally buy. */
export function isBlocked(s: AEState, airline: string): boolean {
  return s.planes[airline]! > 0 && !canExpand(s, airline);
}

/** No airline in the game can buy another licence: the game ends. */
export function allAirlinesBlocked(s: AEState): boolean {
  return s.airlines.every((a) => !canExpand(s, a));
}

/** A free licence on the route for this airline (no licence of its own there), counting this action's purchases. */
function freeFor(s: AEState, airline: string, route: number, earlier: readonly Licence[]): boolean {
  const held = s.licences[route]!;
  if (held.includes(airline)) return false;
  let k = held.length;
  for (const l of earlier) {
    if (l.route !== route) continue;
    if (l.airline === airline) return false;
    k++;
  }
  return k < ROUTES[route]!.costs.length;
}

const ROUTES = board.routes;
const ROUTES_BY_CITY = board.routesByCity;

// Routes already looked at in the current search (stamped, so no allocation per call).
const seenStamp = new Uint32Array(board.routes.length);
let stamp = 0;

function scanCity(s: AEState, airline: string, city: string, earlier: readonly Licence[], out: number[]): void {
  const routes = ROUTES_BY_CITY[city]!;
  for (let i = 0; i < routes.length; i++) {
    const route = routes[i]!;
    if (seenStamp[route] === stamp) continue;
    seenStamp[route] = stamp;
    if (freeFor(s, airline, route, earlier)) out.push(route);
  }
}

/** Every licence this airline may buy now (routes touching its network with a free licence it does not hold). */
export function buyableRoutes(s: AEState, airline: string, earlier: readonly Licence[] = []): number[] {
  const out: number[] = [];
  let planes = s.planes[airline]!;
  for (const l of earlier) if (l.airline === airline) planes--;
  if (planes <= 0) return out;
  stamp = (stamp + 1) >>> 0;
  if (stamp === 0) {
    seenStamp.fill(0);
    stamp = 1;
  }
  const network = s.networks[airline]!;
  for (let i = 0; i < network.length; i++) scanCity(s, airline, network[i]!, earlier, out);
  for (const l of earlier) {
    if (l.airline !== airline) continue;
    const r = ROUTES[l.route]!;
    scanCity(s, airline, r.from, earlier, out);
    scanCity(s, airline, r.to, earlier, out);
  }
  return out;
}

function moveOnTrack(s: AEState, airline: string, steps: number): void {
  s.track[airline] = Math.min(board.valueTrack.length, s.track[airline]! + steps);
}

/**
 * Buys one licence (already checked): pay the bank, a plane onto the route,
 * the airline's marker forward by the price, then its connection bonus if the
 * network now reaches its bonus city for the first time. Returns the price and the bonus.
 */
export function buyLicence(s: AEState, seat: number, licence: Licence): { cost: number; bonus: number } {
  const { airline, route } = licence;
  const cost = nextLicenceCost(s, route)!;
  s.money[seat]! -= cost;
  s.bank += cost;
  s.planes[airline]! -= 1;
  s.licences[route]!.push(airline);
  const r = board.routes[route]!;
  const network = s.networks[airline]!;
  if (!network.includes(r.from)) network.push(r.from);
  if (!network.includes(r.to)) network.push(r.to);
  moveOnTrack(s, airline, cost);
  let bonus = 0;
  const target = board.airlineById[airline]!.bonus;
  if (target && s.bonusesLeft.includes(airline) && network.includes(target.city)) {
    bonus = target.value;
    moveOnTrack(s, airline, bonus);
    s.bonusesLeft.splice(s.bonusesLeft.indexOf(airline), 1);
  }
  return { cost, bonus };
}
