// Legal moves for a seat that must act: a sensible subset where the space is
// endless (where to put an obstacle, the river, a new station). Every move
// returned is checked by the same code `apply` uses, so each one is legal.
import type { PCAction, BuildAction } from './actions';
import { planBuild } from './build';
import { BOARD, CARD_BY_ID } from './data';
import { overLimit } from './draw';
import { freeClipsOf } from './effects';
import { clipsFor, pointInPolygon, polylineLength, rectsTouch } from './geometry';
import { linkPolyline, type StationLike } from './link';
import { hasCube, isFull, minLengthTo, stationInfo, stationRect, type PCState, type Station } from './state';
import { probe } from './refuse';
import { checkObstaclePlacement, checkRiver } from './table';

const MAX_BUILDS = 30;
/** How many candidate links `moves` may try in one call (each is a full check). */
const MAX_TRIES = 160;
const MAX_PLACEMENTS = 12;

function legal(fn: () => unknown): boolean {
  return probe(() => (fn(), true)) === true;
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
  for (const half of [180, 300, 90, 40]) {
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
    const plan = probe(() => planBuild(s, seat, a));
    if (!plan) return false;
    out.push({ ...a, pay: plan.pay });
    return true;
  };
  const from = origins(s, seat);
  const linked = new Map<string, Set<string>>();
  const addLinked = (a: string, b: string) => {
    let set = linked.get(a);
    if (!set) linked.set(a, (set = new Set()));
    set.add(b);
  };
  for (const l of s.links) {
    if (l.owner !== seat) continue;
    addLinked(l.from, l.to);
    addLinked(l.to, l.from);
  }
  const clipsLeft = s.clips[seat]!;
  const clipLen = BOARD.clipLength;
  // Cheap first look at a straight link (no geometry against the table): long enough, affordable?
  const worthTrying = (o: Station, t: StationLike, min: number, free: number, handForPay: number): boolean => {
    const clips = clipsFor(polylineLength(linkPolyline(o, t, [])), clipLen);
    if (clips < min || clips > clipsLeft) return false;
    return Math.max(1, Math.ceil((clips - free) / 3)) <= handForPay;
  };
  // Ends worth a look: face up with room (worked out once, not per start station).
  const ends = s.stations.filter((t) => !t.faceDown && !isFull(s, t)).map((t) => ({ t, info: stationInfo(t), free: freeClipsOf(t) }));
  // A straight link between two cards is at most as long as their centres are apart
  // (a millimetre more for rounding its ends) and at least that less both half diagonals.
  const halfDiag = Math.hypot(BOARD.card.w, BOARD.card.h) / 2;
  for (const o of from) {
    const info = stationInfo(o);
    const oFree = freeClipsOf(o);
    const oDiag = Math.hypot(o.w, o.h) / 2;
    const done = linked.get(o.id);
    for (const { t, info: tInfo, free } of ends) {
      if (out.length >= MAX_BUILDS || tries >= MAX_TRIES) return out;
      if (t === o || done?.has(t.id)) continue;
      const min = minLengthTo(info, tInfo);
      if (min === null) continue;
      const d = Math.hypot(t.x - o.x, t.y - o.y);
      const most = Math.ceil((d + 2) / clipLen);
      const least = Math.ceil((d - oDiag - Math.max(halfDiag, Math.hypot(t.w, t.h) / 2) - 2) / clipLen);
      if (most < min || least > clipsLeft || Math.ceil((least - oFree - free) / 3) > hand.length) continue;
      if (!worthTrying(o, t, min, oFree + free, hand.length)) continue;
      tryAdd({ type: 'build', from: o.id, to: t.id });
    }
  }
  // New cards from the hand, placed a little beyond the minimum length from
  // the start station, in directions that point into the play area.
  const cards = [...new Set(hand)].sort();
  let cx = 0, cy = 0;
  for (const p of s.area) {
    cx += p[0] / s.area.length;
    cy += p[1] / s.area.length;
  }
  const turn = ((s.links.length * 37) % 60) - 30;
  const rects = s.stations.map(stationRect);
  for (const o of from) {
    const info = stationInfo(o);
    const oFree = freeClipsOf(o);
    const inward = (Math.atan2(cy - o.y, cx - o.x) * 180) / Math.PI;
    for (const card of cards) {
      const probeSt: Station = { id: card, kind: 'card', card, x: 0, y: 0, w: BOARD.card.w, h: BOARD.card.h, cubes: [] };
      const min = minLengthTo(info, stationInfo(probeSt));
      if (min === null || min > clipsLeft) continue;
      let found = 0;
      for (const extra of [0, 2]) {
        const dist = (min + extra) * BOARD.clipLength + BOARD.card.w;
        for (let k = 0; k < 6 && found < 1; k++) {
          if (out.length >= MAX_BUILDS || tries >= MAX_TRIES) return out;
          const ang = ((inward + turn + extra * 11 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 50) * Math.PI) / 180;
          const at: [number, number] = [Math.round(o.x + dist * Math.cos(ang)), Math.round(o.y + dist * Math.sin(ang))];
          if (!pointInPolygon(at, s.area)) continue;
          probeSt.x = at[0];
          probeSt.y = at[1];
          const r = stationRect(probeSt);
          if (rects.some((q) => rectsTouch(r, q))) continue;
          if (!worthTrying(o, probeSt, min, oFree + freeClipsOf(probeSt), hand.length - 1)) continue;
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
