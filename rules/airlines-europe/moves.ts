// Legal moves for a seat that must act: taking money, every way to play
// shares, the usual trades, and a sensible subset of licence buying (per
// airline its three cheapest licences and, while its connection bonus is open,
// the licence that leads nearest its bonus city, each with one way to take a
// share, and a few pairs; the page's map form offers every licence). Everything is legal.
import type { Seat } from '../types.ts';
import { board } from './board.ts';
import type { AEAction, Take } from './actions.ts';
import { toAct } from './apply.ts';
import { buyableRoutes, licenceProblem, nextLicenceCost, type Licence } from './licences.ts';
import type { AEState } from './state.ts';
import { licenceWords } from './label.ts';
import { LABEL_MAX } from '../label.ts';

function distinct(items: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of items) if (!out.includes(x)) out.push(x);
  return out;
}

function count(items: readonly string[], x: string): number {
  let n = 0;
  for (const y of items) if (y === x) n++;
  return n;
}

export function takeOptions(s: AEState): Take[] {
  const out: Take[] = distinct(s.market).map((airline) => ({ from: 'market', airline }));
  if (s.deck.length > 0) out.push({ from: 'deck' });
  return out;
}

const MAX_PAIRS = 8;
const SINGLES_PER_AIRLINE = 3;

const ROUTES = board.routes;

function id(l: Licence): { airline: string; route: string } {
  return { airline: l.airline, route: ROUTES[l.route]!.id };
}

/** A licence for the same airline leading on from the new city the first licence reached, if any fits the money. */
function onwardRoute(s: AEState, first: Licence, money: number): number | null {
  if (s.planes[first.airline]! < 2) return null;
  const r = ROUTES[first.route]!;
  const network = s.networks[first.airline]!;
  const city = network.includes(r.to) ? r.from : r.to;
  if (network.includes(city)) return null;
  const earlier = [first];
  for (const route of board.routesByCity[city]!) {
    if (route === first.route) continue;
    if (licenceProblem(s, first.airline, route, earlier) !== null) continue;
    if (nextLicenceCost(s, route, earlier)! <= money) return route;
  }
  return null;
}

// Breadth-first distances (in routes) to a city over integer adjacency lists, reused between calls.
const CITY_IDS = board.cities.map((c) => c.id);
const CITY_INDEX: Record<string, number> = Object.create(null);
CITY_IDS.forEach((c, i) => {
  CITY_INDEX[c] = i;
});
/** Per city: its routes and, at the same position, the city at their other end. */
const ADJ_ROUTE: number[][] = CITY_IDS.map((c) => board.routesByCity[c]!.slice());
const ADJ_CITY: number[][] = CITY_IDS.map((c) =>
  board.routesByCity[c]!.map((r) => CITY_INDEX[ROUTES[r]!.from === c ? ROUTES[r]!.to : ROUTES[r]!.from]!),
);
const ROUTE_FROM = ROUTES.map((r) => CITY_INDEX[r.from]!);
const ROUTE_TO = ROUTES.map((r) => CITY_INDEX[r.to]!);
const ROUTE_SPACES = ROUTES.map((r) => r.costs.length);
const distance = new Int32Array(CITY_IDS.length);
const queue = new Int32Array(CITY_IDS.length);

/**
 * For an airline whose connection bonus is still open: the licence it may buy
 * now that brings its network nearest its bonus city (counting routes it could
 * still fly), or null. Listed so players (and random games) see the way there.
 */
function towardBonus(s: AEState, airline: string, money: number, buyable: readonly number[]): number | null {
  const bonus = board.airlineById[airline]!.bonus;
  if (!bonus || !s.bonusesLeft.includes(airline) || s.planes[airline]! <= 0) return null;
  distance.fill(-1);
  let head = 0;
  let tail = 0;
  const target = CITY_INDEX[bonus.city]!;
  distance[target] = 0;
  queue[tail++] = target;
  while (head < tail) {
    const c = queue[head++]!;
    const routes = ADJ_ROUTE[c]!;
    const ends = ADJ_CITY[c]!;
    for (let i = 0; i < routes.length; i++) {
      const o = ends[i]!;
      if (distance[o] !== -1) continue;
      const route = routes[i]!;
      const held = s.licences[route]!;
      if (held.length >= ROUTE_SPACES[route]! && !held.includes(airline)) continue;
      distance[o] = distance[c]! + 1;
      queue[tail++] = o;
    }
  }
  const network = s.networks[airline]!;
  let bestDistance = Infinity;
  for (let i = 0; i < network.length; i++) {
    const d = distance[CITY_INDEX[network[i]!]!]!;
    if (d !== -1 && d < bestDistance) bestDistance = d;
  }
  let best: number | null = null;
  for (let i = 0; i < buyable.length; i++) {
    const route = buyable[i]!;
    // The nearer end decides: a route inside the network or leading away does not help.
    const d = Math.min(distance[ROUTE_FROM[route]!]! >>> 0, distance[ROUTE_TO[route]!]! >>> 0);
    if (d < bestDistance && nextLicenceCost(s, route)! <= money) {
      bestDistance = d;
      best = route;
    }
  }
  return best;
}

function buyMoves(s: AEState, seat: Seat): AEAction[] {
  const takes = takeOptions(s);
  if (takes.length === 0) return [];
  const money = s.money[seat]!;
  const singles: Licence[] = [];
  // Per airline the few cheapest licences it can buy (the move form on the page offers every one).
  for (const airline of s.airlines) {
    const best: number[] = [];
    const bestCost: number[] = [];
    const buyable = buyableRoutes(s, airline);
    for (const route of buyable) {
      const cost = nextLicenceCost(s, route)!;
      if (cost > money) continue;
      let k = best.length;
      while (k > 0 && bestCost[k - 1]! > cost) k--;
      if (k >= SINGLES_PER_AIRLINE) continue;
      best.splice(k, 0, route);
      bestCost.splice(k, 0, cost);
      if (best.length > SINGLES_PER_AIRLINE) {
        best.pop();
        bestCost.pop();
      }
    }
    for (const route of best) singles.push({ airline, route });
    const onward = buyable.length > 0 ? towardBonus(s, airline, money, buyable) : null;
    if (onward !== null && !best.includes(onward)) singles.push({ airline, route: onward });
  }
  const out: AEAction[] = [];
  // Each single licence once, the ways to take a share in turn (market airlines and the pile),
  // so every licence and every share on offer appears without listing every combination.
  for (let i = 0; i < singles.length; i++) {
    out.push({ type: 'buy', licences: [id(singles[i]!)], take: takes[i % takes.length]! });
  }
  // Pairs: for some first licences, a second one the money still allows, taking from the pile.
  let pairs = 0;
  const offered = new Set<string>();
  const step = Math.max(1, Math.floor(singles.length / MAX_PAIRS));
  for (let i = 0; i < singles.length && pairs < MAX_PAIRS; i += step) {
    const first = singles[i]!;
    const left = money - nextLicenceCost(s, first.route)!;
    // The second licence: the same airline onward, else another airline's licence from the singles.
    let second: Licence | undefined;
    const onward = onwardRoute(s, first, left);
    if (onward !== null) second = { airline: first.airline, route: onward };
    else {
      // Only a pair whose names fit a button (the map form offers every pair).
      second = singles.find(
        (l) =>
          l.airline !== first.airline &&
          l.route !== first.route &&
          nextLicenceCost(s, l.route)! <= left &&
          `Buy ${licenceWords([id(first), id(l)])}`.length <= LABEL_MAX,
      );
    }
    // The same two licences the other way round are the same move.
    const key =
      second &&
      [first, second]
        .map((l) => `${l.airline}/${l.route}`)
        .sort()
        .join(' ');
    if (second && key && !offered.has(key)) {
      offered.add(key);
      out.push({ type: 'buy', licences: [id(first), id(second)], take: takes[takes.length - 1]! });
      pairs++;
    }
  }
  return out;
}

function playMoves(s: AEState, seat: Seat): AEAction[] {
  const hand = s.hands[seat]!;
  const kinds = distinct(hand);
  const out: AEAction[] = [];
  for (const airline of kinds) {
    const n = count(hand, airline);
    for (let c = 1; c <= n; c++) out.push({ type: 'play', shares: [{ airline, count: c }] });
  }
  for (let i = 0; i < kinds.length; i++) {
    for (let j = i + 1; j < kinds.length; j++) {
      out.push({
        type: 'play',
        shares: [
          { airline: kinds[i]!, count: 1 },
          { airline: kinds[j]!, count: 1 },
        ],
      });
    }
  }
  return out;
}

function tradeMoves(s: AEState, seat: Seat): AEAction[] {
  if (s.abacusSupply < 1) return [];
  const abacus = board.abacus.id;
  const hand = s.hands[seat]!.filter((a) => a !== abacus);
  const portfolio = s.portfolios[seat]!;
  const held = Object.keys(portfolio).filter((a) => a !== abacus && portfolio[a]! > 0);
  const out: AEAction[] = [];
  for (const airline of distinct(hand)) out.push({ type: 'trade', get: 1, give: [{ airline, from: 'hand' }] });
  for (const airline of held) out.push({ type: 'trade', get: 1, give: [{ airline, from: 'portfolio' }] });
  if (s.abacusSupply >= 2) {
    // Three of the hand: three alike where there are, and the first three otherwise.
    for (const airline of distinct(hand)) {
      if (count(hand, airline) >= 3) {
        out.push({ type: 'trade', get: 2, give: [0, 1, 2].map(() => ({ airline, from: 'hand' as const })) });
      }
    }
    const sorted = [...hand].sort();
    // The first three of the hand, unless they are three alike (listed just above).
    if (hand.length >= 3 && !(sorted[0] === sorted[1] && sorted[1] === sorted[2])) {
      out.push({
        type: 'trade',
        get: 2,
        give: sorted.slice(0, 3).map((airline) => ({ airline, from: 'hand' as const })),
      });
    }
  }
  return out;
}

export function legalMoves(s: AEState, seat: Seat): AEAction[] {
  if (!toAct(s).includes(seat)) return [];
  if (s.phase === 'opening') {
    const kinds = distinct(s.hands[seat]!).sort();
    const out: AEAction[] = [];
    for (let i = 0; i < kinds.length; i++) {
      for (let j = i + 1; j < kinds.length; j++) out.push({ type: 'open', airlines: [kinds[i]!, kinds[j]!] });
    }
    return out;
  }
  if (s.phase === 'clearout') return takeOptions(s).map((take) => ({ type: 'take', take }));
  // Money, playing and trading first: they fit a mail's quick links; licences are bought on the page's map form.
  const out: AEAction[] = [{ type: 'money' }];
  for (const m of playMoves(s, seat)) out.push(m);
  for (const m of tradeMoves(s, seat)) out.push(m);
  for (const m of buyMoves(s, seat)) out.push(m);
  return out;
}
