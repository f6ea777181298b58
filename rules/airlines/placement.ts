// Where a route card may go: the rules shared by founding and extending.
// The pattern must match, the value must reach the circle's, the circle must
// be free, the airline must be allowed that pattern, fly the route only once,
// and (extending) its network must touch the route; (founding) the route must
// start at its home.
import { board, type RouteCard } from './board.ts';
import { fliesRoute, supplies, supply, touches, type AirlinesState } from './state.ts';

/** Only circles of at least this value may be sabotaged. */
export const SABOTAGE_MIN_VALUE = 5;

export function placementProblem(
  s: AirlinesState,
  c: number,
  card: RouteCard,
  ci: number,
  mode: 'found' | 'extend',
): string | null {
  const company = board.companies[c]!;
  const circle = board.circles[ci]!;
  const route = board.routes[circle.route]!;
  if (s.circles[ci]) return `Circle ${circle.n} of ${route.name} is taken.`;
  if (card.pattern !== route.pattern) {
    return `Your ${card.pattern} ${card.value} does not match ${route.name}, a ${route.pattern} route.`;
  }
  if (card.value < circle.value) {
    return `Your ${card.pattern} ${card.value} is too low for circle ${circle.n} of ${route.name} (value ${circle.value}).`;
  }
  if (!company.patterns.includes(route.pattern)) {
    return `${company.name} (${company.code}) may not fly ${route.pattern} routes; it flies ${company.patterns.join(', ')}.`;
  }
  if (mode === 'found') {
    if (route.from !== company.home && route.to !== company.home) {
      return `${route.name} does not start at ${company.code}'s home, ${board.cities[company.home]!.name}.`;
    }
    if (supply(s, c) < 2) return `${company.code} has too few markers left to be founded.`;
    return null;
  }
  if (!s.founded[c]) return `${company.code} has not been founded yet.`;
  if (!touches(s, c, route.index)) return `${company.code}'s network does not reach ${route.name}.`;
  if (fliesRoute(s, c, route.index))
    return `${company.code} already flies ${route.name}; each airline only once per route.`;
  if (supply(s, c) < 1) return `${company.code} has no markers left.`;
  return null;
}

// Lookups built once from the board, so that listing the moves (run on every
// turn of every playout) walks flat arrays instead of searching.
const routesByPattern = new Map(board.patterns.map((p) => [p.id, board.routes.filter((r) => r.pattern === p.id)]));
/** Airlines that may fly each pattern. */
const fliersByPattern = new Map(
  board.patterns.map((p) => [p.id, board.companies.filter((c) => c.patterns.includes(p.id)).map((c) => c.index)]),
);
const patternIndex = new Map(board.patterns.map((p, i) => [p.id, i]));
const circleValue = Int8Array.from(board.circles.map((c) => c.value));
const circleRoute = Int16Array.from(board.circles.map((c) => c.route));
/** Circles, most valuable first (then by index). */
const circlesByValue = board.circles.map((c) => c.index).sort((a, b) => circleValue[b]! - circleValue[a]! || a - b);

export interface Placement {
  company: number;
  card: number;
  circle: number;
}

/** Every legal extension with the seat's route cards (cards of equal pattern and value counted once). */
export function extensions(s: AirlinesState, seat: number): Placement[] {
  const out: Placement[] = [];
  const cards = distinctCards(s.routes[seat]!);
  const left = supplies(s);
  const cities = board.cities.length;
  // One pass over the board: the cities each airline reaches, the airlines on each route.
  const nets = new Uint8Array(board.companies.length * cities);
  const flown = new Uint16Array(board.routes.length);
  for (const c of board.companies) if (s.founded[c.index]) nets[c.index * cities + c.home] = 1;
  for (let ci = 0; ci < s.circles.length; ci++) {
    const m = s.circles[ci];
    if (!m || m.sab) continue;
    const r = board.routes[circleRoute[ci]!]!;
    nets[m.c * cities + r.from] = 1;
    nets[m.c * cities + r.to] = 1;
    flown[r.index]! |= 1 << m.c;
  }
  for (const id of cards) {
    const card = board.cardById.get(id)!;
    const fliers = (fliersByPattern.get(card.pattern) ?? []).filter((c) => s.founded[c] && left[c]! > 0);
    if (fliers.length === 0) continue;
    for (const route of routesByPattern.get(card.pattern) ?? []) {
      let free = false;
      for (const ci of route.circles) if (!s.circles[ci] && circleValue[ci]! <= card.value) free = true;
      if (!free) continue;
      for (const c of fliers) {
        const base = c * cities;
        if (!nets[base + route.from] && !nets[base + route.to]) continue;
        if (flown[route.index]! & (1 << c)) continue;
        for (const ci of route.circles) {
          if (!s.circles[ci] && circleValue[ci]! <= card.value) out.push({ company: c, card: id, circle: ci });
        }
      }
    }
  }
  return out;
}

/** Every legal founding placement for airlines the seat holds stock of. */
export function foundings(s: AirlinesState, seat: number): Placement[] {
  const out: Placement[] = [];
  const held = s.stock[seat]!;
  const candidates = board.companies.filter(
    (c) => held[c.index]! > 0 && !s.founded[c.index] && !s.played.some((p) => p[c.index]! > 0),
  );
  if (candidates.length === 0) return out;
  const left = supplies(s);
  const cards = distinctCards(s.routes[seat]!);
  for (const company of candidates) {
    if (left[company.index]! < 2) continue;
    for (const id of cards) {
      const card = board.cardById.get(id)!;
      if (!company.patterns.includes(card.pattern)) continue;
      for (const ri of board.routesAt[company.home]!) {
        const route = board.routes[ri]!;
        if (route.pattern !== card.pattern) continue;
        for (const ci of route.circles) {
          if (!s.circles[ci] && board.circles[ci]!.value <= card.value)
            out.push({ company: company.index, card: id, circle: ci });
        }
      }
    }
  }
  return out;
}

/** One card id for each distinct pattern and value, lowest id first. */
function distinctCards(hand: number[]): number[] {
  const seen: number[] = [];
  const out: number[] = [];
  for (const id of [...hand].sort((a, b) => a - b)) {
    const c = board.cardById.get(id)!;
    const key = patternIndex.get(c.pattern)! * 16 + c.value;
    if (!seen.includes(key)) {
      seen.push(key);
      out.push(id);
    }
  }
  return out;
}

/** Circles that may be sabotaged, most valuable first: free, value 5 or more, on a route with no sabotage yet. */
export function sabotageCircles(s: AirlinesState): number[] {
  const sabotaged = new Uint8Array(board.routes.length);
  for (let ci = 0; ci < s.circles.length; ci++) if (s.circles[ci]?.sab) sabotaged[circleRoute[ci]!] = 1;
  const out: number[] = [];
  for (const ci of circlesByValue) {
    if (circleValue[ci]! < SABOTAGE_MIN_VALUE) break;
    if (!s.circles[ci] && !sabotaged[circleRoute[ci]!]) out.push(ci);
  }
  return out;
}
