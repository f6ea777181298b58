// Legal moves for a seat that must act: a sensible subset where the space is
// endless (where to put an obstacle, the river, a new station). Every move
// returned is checked by the same code `apply` uses, so each one is legal.
import type { PCAction, BuildAction } from './actions.ts';
import { planBuild } from './build.ts';
import { BOARD, CARD_BY_ID } from './data.ts';
import { overLimit } from './draw.ts';
import { freeClipsOf } from './effects.ts';
import { pointInPolygon, rectsTouch, type Rect } from './geometry.ts';
import type { StationLike } from './link.ts';
import { hasCube, isFull, minLengthTo, stationInfo, stationRect, type PCState, type Station } from './state.ts';
import { probe } from './refuse.ts';
import { checkObstaclePlacement, checkRiver } from './table.ts';
import { GRID, gridOf, squareOf } from './places.ts';

const MAX_BUILDS = 16;
/** How many candidate links `moves` may try in one call (each is a full check). */
const MAX_TRIES = 48;
const MAX_PLACEMENTS = 12;

function legal(fn: () => unknown): boolean {
  return (
    probe(() => {
      fn();
      return true;
    }) === true
  );
}

function evenlyPick<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

function bbox(s: PCState): { x0: number; y0: number; x1: number; y1: number } {
  const xs = s.area.map((p) => p[0]),
    ys = s.area.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Grid points over the area's bounding box, visited in a scattered (but fixed) order. */
function scatteredGrid(s: PCState, margin: number, step: number): [number, number][] {
  const b = bbox(s);
  const pts: [number, number][] = [];
  for (let y = b.y0 + margin; y <= b.y1 - margin; y += step)
    for (let x = b.x0 + margin; x <= b.x1 - margin; x += step) pts.push([x, y]);
  const n = pts.length;
  let stride = 37;
  while (n > 0 && gcd(stride, n) !== 1) stride++;
  return pts.map((_, i) => pts[(i * stride) % n]!);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Obstacles at the centres of the picture's grid squares, one a square: what a quick link names
 * ("Place the Lake at D4") is then that move alone, and the links spread over the table (the
 * board on the page places any obstacle anywhere).
 */
function obstacleMoves(s: PCState): PCAction[] {
  const out: PCAction[] = [];
  const g = gridOf(s.area);
  const centres = scatteredGrid(s, GRID / 2, GRID).map(([x, y]): [number, number] => [
    g.x0 + Math.floor((x - g.x0) / GRID) * GRID + GRID / 2,
    g.y0 + Math.floor((y - g.y0) / GRID) * GRID + GRID / 2,
  ]);
  const seen = new Set<string>();
  for (const [x, y] of centres) {
    if (seen.has(`${x},${y}`)) continue;
    seen.add(`${x},${y}`);
    // One obstacle a square, each in turn first: the quick links spread over the table.
    const supply = [...s.obstacleSupply].sort();
    const rot = (x + y) % 180 === 0 ? 0 : 90;
    for (let k = 0; k < supply.length; k++) {
      const obstacle = supply[(seen.size + k) % supply.length]!;
      if (legal(() => checkObstaclePlacement(s, obstacle, x, y, rot))) {
        out.push({ type: 'obstacle', obstacle, x, y, rot });
        break;
      }
    }
    if (out.length >= MAX_PLACEMENTS) break;
  }
  return out;
}

/** Rivers from a spread of starting points, no two through the same grid squares (their words would match). */
function riverMoves(s: PCState): PCAction[] {
  const out: PCAction[] = [];
  const seen = new Set<string>();
  const offer = (points: [number, number][]): void => {
    const key = points.map((p) => squareOf(s.area, p[0], p[1])).join(' ');
    if (seen.has(key) || !legal(() => checkRiver(s, points))) return;
    seen.add(key);
    out.push({ type: 'river', points });
  };
  for (const half of [180, 300, 90, 40]) {
    const dirs: [number, number][] = [
      [half, 0],
      [0, half],
      [Math.round(half * 0.7), Math.round(half * 0.7)],
      [Math.round(half * 0.7), -Math.round(half * 0.7)],
    ];
    for (const [x, y] of scatteredGrid(s, 50, 50)) {
      const [dx, dy] = dirs[(x + y) % 4 === 0 ? 0 : Math.abs(x * 7 + y * 3) % 4]!;
      offer([
        [x - dx, y - dy],
        [x + dx, y + dy],
      ]);
      const bend: [number, number] = [Math.round(x + dy / 3), Math.round(y - dx / 3)];
      offer([[x - dx, y - dy], bend, [x + dx, y + dy]]);
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
  return s.stations.filter(
    (st) => ((st.kind === 'start' && st.owner === seat) || hasCube(s, st, seat)) && !isFull(s, st),
  );
}

/** Distance from a card's centre to its edge in the direction (dx, dy). */
function toEdge(st: StationLike, dx: number, dy: number): number {
  const ax = Math.abs(dx),
    ay = Math.abs(dy);
  return Math.min(ax > 0 ? st.w / 2 / ax : Infinity, ay > 0 ? st.h / 2 / ay : Infinity);
}

/**
 * Straight links from the seat's stations, to stations on the table and to new
 * cards from the hand. Candidates are first sifted by cheap estimates (length,
 * clips, cards, a free spot in the area), then taken in turns, a link to the
 * table and a new station alternately, and each is checked in full by
 * `planBuild`; at most MAX_BUILDS are kept and MAX_TRIES checked.
 */
export function buildMoves(s: PCState, seat: number): BuildAction[] {
  const out: BuildAction[] = [];
  const hand = s.hands[seat]!;
  if (hand.length === 0 || s.clips[seat]! === 0) return out;
  const lastBuild = s.lastOrders === seat && s.finalStep === 'build';
  if (!lastBuild && s.cubes[seat]! === 0) return out;
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
  // The straight link's length estimated from the centres (its ends are rounded
  // to whole millimetres, so allow a clip either way; planBuild decides exactly).
  const plausible = (o: StationLike, t: StationLike, min: number, free: number, handForPay: number): boolean => {
    const dx = t.x - o.x,
      dy = t.y - o.y;
    const d = Math.hypot(dx, dy);
    if (d === 0) return false;
    const len = d * (1 - toEdge(o, dx, dy) - toEdge(t, dx, dy));
    const clips = Math.ceil(len / clipLen);
    return clips + 1 >= min && clips - 1 <= clipsLeft && Math.max(1, Math.ceil((clips - 1 - free) / 3)) <= handForPay;
  };
  // Groups of alternatives, each worked out only when its turn comes: the
  // first legal action of a group is offered.
  const toTable: (() => BuildAction[])[] = [];
  const toNew: (() => BuildAction[])[] = [];
  const ends = s.stations
    .filter((t) => !t.faceDown && !isFull(s, t))
    .map((t) => ({ t, info: stationInfo(t), free: freeClipsOf(t) }));
  for (const o of from) {
    const info = stationInfo(o);
    const oFree = freeClipsOf(o);
    const done = linked.get(o.id);
    for (const { t, info: tInfo, free } of ends) {
      if (t === o || done?.has(t.id)) continue;
      const min = minLengthTo(info, tInfo);
      if (min === null || !plausible(o, t, min, oFree + free, hand.length)) continue;
      toTable.push(() => [{ type: 'build', from: o.id, to: t.id }]);
    }
  }
  // New cards, placed a little beyond the minimum length from the start
  // station, in directions that point into the play area.
  const cards = [...new Set(hand)].sort();
  let cx = 0,
    cy = 0;
  for (const p of s.area) {
    cx += p[0] / s.area.length;
    cy += p[1] / s.area.length;
  }
  const turn = ((s.links.length * 37) % 60) - 30;
  let rects: Rect[] | null = null;
  const newCard = (o: Station, card: string, min: number): BuildAction[] => {
    rects ??= s.stations.map(stationRect);
    const probeSt: Station = { id: card, kind: 'card', card, x: 0, y: 0, w: BOARD.card.w, h: BOARD.card.h, cubes: [] };
    const free = freeClipsOf(o) + freeClipsOf(probeSt);
    const inward = (Math.atan2(cy - o.y, cx - o.x) * 180) / Math.PI;
    const group: BuildAction[] = [];
    for (const extra of [0, 2]) {
      const dist = (min + extra) * clipLen + BOARD.card.w;
      for (let k = 0; k < 6; k++) {
        const ang = ((inward + turn + extra * 11 + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * 50) * Math.PI) / 180;
        const at: [number, number] = [Math.round(o.x + dist * Math.cos(ang)), Math.round(o.y + dist * Math.sin(ang))];
        if (!pointInPolygon(at, s.area)) continue;
        probeSt.x = at[0];
        probeSt.y = at[1];
        const r = stationRect(probeSt);
        if (rects.some((q) => rectsTouch(r, q))) continue;
        if (!plausible(o, probeSt, min, free, hand.length - 1)) continue;
        group.push({ type: 'build', from: o.id, card, at });
      }
    }
    return group;
  };
  for (const o of from) {
    const info = stationInfo(o);
    for (const card of cards) {
      const min = minLengthTo(info, stationInfo({ id: card, kind: 'card', card, x: 0, y: 0, w: 0, h: 0, cubes: [] }));
      if (min === null || min > clipsLeft) continue;
      toNew.push(() => newCard(o, card, min));
    }
  }
  // Take the groups in turns, spreading over start stations and cards.
  let tries = 0;
  const take = (make: () => BuildAction[]): void => {
    for (const a of make()) {
      if (tries >= MAX_TRIES) return;
      tries++;
      const plan = probe(() => planBuild(s, seat, a));
      if (plan) {
        out.push({ ...a, pay: plan.pay });
        return;
      }
    }
  };
  const spread = <T>(xs: T[]): T[] => {
    if (xs.length < 2) return xs;
    let stride = 7;
    while (gcd(stride, xs.length) !== 1) stride++;
    const at = s.links.length % xs.length;
    return xs.map((_, i) => xs[(at + i * stride) % xs.length]!);
  };
  const a = spread(toTable),
    b = spread(toNew);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) take(a[i]!);
    if (out.length >= MAX_BUILDS || tries >= MAX_TRIES) break;
    if (i < b.length) take(b[i]!);
    if (out.length >= MAX_BUILDS || tries >= MAX_TRIES) break;
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
