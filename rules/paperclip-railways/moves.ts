// Legal moves for a seat that must act: a sensible subset where the space is
// endless (where to put an obstacle, the river, a new station). Every move
// returned is checked by the same code `apply` uses, so each one is legal.
import type { PCAction, BuildAction } from './actions';
import { planBuild } from './build';
import { BOARD, CARD_BY_ID } from './data';
import { overLimit } from './draw';
import { freeClipsOf } from './effects';
import { clipsFor, polylineLength } from './geometry';
import { linkPolyline } from './link';
import { hasCube, isFull, minLengthTo, stationInfo, type PCState, type Station } from './state';
import { checkObstaclePlacement, checkRiver } from './table';

const MAX_BUILDS = 30;
/** How many candidate links `moves` may try in one call (each is a full check). */
const MAX_TRIES = 160;
const MAX_PLACEMENTS = 12;

function legal(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

function evenlyPick<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

function bbox(s: PCState): { x0: number; y0: number; x1: number; y1: number } {
  const xs = s.area.map((p) => p[0]), ys = s.area.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Grid points over the area's bounding box, visited in a scattered (but fixed) order. */
function scatteredGrid(s: PCState, margin: number, step: number): [number, number][] {
  const b = bbox(s);
  const pts: [number, number][] = [];
  for (let y = b.y0 + margin; y <= b.y1 - margin; y += step) for (let x = b.x0 + margin; x <= b.x1 - margin; x += step) pts.push([x, y]);
  const n = pts.length;
  let stride = 37;
  while (n > 0 && gcd(stride, n) !== 1) stride++;
  return pts.map((_, i) => pts[(i * stride) % n]!);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function obstacleMoves(s: PCState): PCAction[] {
  const out: PCAction[] = [];
  const grid = scatteredGrid(s, 60, 90);
  for (const [x, y] of grid) {
    for (const obstacle of [...s.obstacleSupply].sort()) {
      const rot = (x + y) % 180 === 0 ? 0 : 90;
      if (legal(() => checkObstaclePlacement(s, obstacle, x, y, rot))) out.push({ type: 'obstacle', obstacle, x, y, rot });
    }
    if (out.length >= MAX_PLACEMENTS) break;
  }
  return out;
}

function riverMoves(s: PCState): PCAction[] {
  const out: PCAction[] = [];
  for (const half of [300, 180, 90, 40]) {
    const dirs: [number, number][] = [[half, 0], [0, half], [Math.round(half * 0.7), Math.round(half * 0.7)], [Math.round(half * 0.7), -Math.round(half * 0.7)]];
    for (const [x, y] of scatteredGrid(s, 50, 50)) {
      const [dx, dy] = dirs[(x + y) % 4 === 0 ? 0 : Math.abs(x * 7 + y * 3) % 4]!;
      const straight: [number, number][] = [[x - dx, y - dy], [x + dx, y + dy]];
      if (legal(() => checkRiver(s, straight))) out.push({ type: 'river', points: straight });
      const bend: [number, number] = [Math.round(x + dy / 3), Math.round(y - dx / 3)];
      const bent: [number, number][] = [[x - dx, y - dy], bend, [x + dx, y + dy]];
      if (legal(() => checkRiver(s, bent))) out.push({ type: 'river', points: bent });
      if (out.length >= MAX_PLACEMENTS) return out;
    }
  }
  return out;
}

function combinations<T>(items: T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [head, ...rest] = items;
  return [...combinations(rest, k - 1).map((c) => [head!, ...c]), ...combinations(rest, k)];
}

function origins(s: PCState, seat: number): Station[] {
  return s.stations.filter((st) => ((st.kind === 'start' && st.owner === seat) || hasCube(s, st, seat)) && !isFull(s, st));
}

/** Straight links from each of the seat's stations, to stations on the table and to new cards from the hand. */
export function buildMoves(s: PCState, seat: number): BuildAction[] {
  const out: BuildAction[] = [];
  const hand = s.hands[seat]!;
  if (hand.length === 0 || s.clips[seat]! === 0) return out;
  const lastBuild = s.lastOrders === seat && s.finalStep === 'build';
  if (!lastBuild && s.cubes[seat]! === 0) return out;
  let tries = 0;
  const tryAdd = (a: BuildAction): boolean => {
    tries++;
    try {
      const plan = planBuild(s, seat, a);
      out.push({ ...a, pay: plan.pay });
      return true;
    } catch {
      return false;
    }
  };
  const from = origins(s, seat);
  for (const o of from) {
    const info = stationInfo(o);
    for (const t of s.stations) {
      if (out.length >= MAX_BUILDS || tries >= MAX_TRIES) return out;
      if (t === o || t.faceDown || isFull(s, t)) continue;
      const min = minLengthTo(info, stationInfo(t));
      if (min === null) continue;
      // Cheap first look at the straight link: long enough, and affordable?
      const clips = clipsFor(polylineLength(linkPolyline(o, t, [])), BOARD.clipLength);
      if (clips < min || clips > s.clips[seat]! || Math.ceil((clips - freeClipsOf(o) - freeClipsOf(t)) / 3) > hand.length) continue;
      tryAdd({ type: 'build', from: o.id, to: t.id });
    }
  }
  const cards = [...new Set(hand)].sort();
  for (const o of from) {
    const info = stationInfo(o);
    for (const card of cards) {
      const min = minLengthTo(info, stationInfo({ id: card, kind: 'card', card, x: 0, y: 0, w: 0, h: 0, cubes: [] }));
      if (min === null || min > s.clips[seat]! || Math.ceil(min / 3) > hand.length - 1) continue;
      let found = 0;
      for (const extra of [0, 2]) {
        const dist = (min + extra) * BOARD.clipLength + BOARD.card.w;
        for (let k = 0; k < 6 && found < 1; k++) {
          if (out.length >= MAX_BUILDS || tries >= MAX_TRIES) return out;
          const ang = ((k * 60 + s.links.length * 37 + extra * 11) * Math.PI) / 180;
          const at: [number, number] = [Math.round(o.x + dist * Math.cos(ang)), Math.round(o.y + dist * Math.sin(ang))];
          if (tryAdd({ type: 'build', from: o.id, card, at })) found++;
        }
      }
    }
  }
  return out;
}

export function legalMoves(s: PCState, seat: number): PCAction[] {
  if (s.phase === 'over' || s.turn !== seat) return [];
  if (s.phase === 'obstacles') return obstacleMoves(s);
  if (s.phase === 'river') return riverMoves(s);
  const hand = s.hands[seat]!;
  if (s.phase === 'discard') {
    const sorted = [...hand].sort((a, b) => CARD_BY_ID[a]!.points - CARD_BY_ID[b]!.points || (a < b ? -1 : 1));
    return evenlyPick(combinations(sorted, overLimit(s, seat)), 40).map((cards) => ({ type: 'discard', cards }));
  }
  const final = s.lastOrders === seat ? s.finalStep : null;
  if (final === 'draw') return [{ type: 'draw' }];
  const out: PCAction[] = [];
  if (final !== 'build' && s.deck.length > 0) out.push({ type: 'draw' });
  out.push(...buildMoves(s, seat));
  if (final === 'build' || s.deck.length === 0) out.push({ type: 'pass' });
  return out;
}
