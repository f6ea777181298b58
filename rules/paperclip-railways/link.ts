// The geometry of one link: where it leaves and reaches its stations, its
// length in clips, whether it may be laid at all, and what it meets on the way.
import { refuse } from './refuse.ts';
import { BOARD } from './data.ts';
import {
  boundsOf,
  clipsFor,
  rectsTouch,
  type Rect,
  exitPoint,
  leavesRectAt,
  onSegment,
  orient,
  pointInPolygon,
  pointInRect,
  polylineIsSimple,
  polylineLength,
  polylineTouchesPolygon,
  segmentContact,
  segmentsTouch,
  segmentTouchesRect,
  type Pt,
} from './geometry.ts';
import { stationInfo, stationRect, type PCState, type Station } from './state.ts';

export type StationLike = Pick<Station, 'id' | 'x' | 'y' | 'w' | 'h'>;

export interface LinkGeometry {
  points: [number, number][];
  length: number;
  clips: number;
  /** Contacts (crossings and touches) with each other seat's links. */
  crossings: number[];
  /** Obstacles touched or crossed, the river counting as one. */
  obstacles: number;
  riverTouched: boolean;
}

/**
 * One stretch run along together may come in pieces, split where either link
 * bends without turning (a collinear bend): pieces on one line that meet are
 * one stretch, one contact. Each stretch is stored lowest point first.
 */
function joinStretches(stretches: [Pt, Pt][]): void {
  const less = (p: Pt, q: Pt) => p[0] < q[0] || (p[0] === q[0] && p[1] < q[1]);
  for (let i = 0; i < stretches.length; i++) {
    for (let j = i + 1; j < stretches.length; j++) {
      const [a, b] = stretches[i]!;
      const [c, d] = stretches[j]!;
      if (orient(a, b, c) !== 0 || orient(a, b, d) !== 0) continue;
      if (!onSegment(a, b, c) && !onSegment(a, b, d) && !onSegment(c, d, a)) continue;
      stretches[i] = [less(c, a) ? c : a, less(b, d) ? d : b];
      stretches.splice(j, 1);
      j = i; // the longer stretch may now meet one passed over
    }
  }
}

/** The full polyline: from the edge of `from`, through the bends, to the edge of `to`. */
export function linkPolyline(
  from: StationLike,
  to: StationLike,
  bends: readonly Pt[],
  allowed?: (p: Pt) => boolean,
): [number, number][] {
  const fr = stationRect(from),
    tr = stationRect(to);
  const first: Pt = bends[0] ?? [to.x, to.y];
  const last: Pt = bends[bends.length - 1] ?? [from.x, from.y];
  if (pointInRect(first, fr)) refuse('The first bend lies on the start station.');
  if (pointInRect(last, tr)) refuse('The last bend lies on the end station.');
  const p0 = exitPoint(fr, first, allowed)!;
  const pk = exitPoint(tr, last, allowed)!;
  return [[p0[0], p0[1]], ...bends.map((b) => [b[0], b[1]] as [number, number]), [pk[0], pk[1]]];
}

/**
 * Checks the link's shape on the table as it is (the end station, if new,
 * is passed in as `to` and not yet on the table) and measures what it meets.
 * Throws RuleError when the link may not be laid there.
 */
export function measureLink(
  s: PCState,
  seat: number,
  from: StationLike,
  to: StationLike,
  bends: readonly Pt[],
): LinkGeometry {
  if (bends.length > BOARD.maxBends) refuse(`A link may have at most ${BOARD.maxBends} bends.`);
  // Rules version 2: an end rounded out of the play area takes the whole millimetre on the other side.
  const inArea = s.version >= 2 ? (p: Pt) => pointInPolygon(p, s.area) : undefined;
  const points = linkPolyline(from, to, bends, inArea);
  const n = points.length;
  for (let i = 1; i < n; i++) {
    if (points[i]![0] === points[i - 1]![0] && points[i]![1] === points[i - 1]![1]) {
      refuse('Two points of the link are the same; drop one of them.');
    }
  }
  if (!polylineIsSimple(points)) refuse('A link may not cross itself.');
  for (const p of points) {
    if (!pointInPolygon(p, s.area)) refuse(`The link leaves the play area at ${p[0]},${p[1]}.`);
  }
  const fr = stationRect(from),
    tr = stationRect(to);
  // Only the clips at its two ends may touch the start and end stations.
  if (!leavesRectAt(points[0]!, points[1]!, fr)) refuse('The link runs along or back over its start station.');
  if (!leavesRectAt(points[n - 1]!, points[n - 2]!, tr)) refuse('The link runs along or back over its end station.');
  const box = boundsOf(points);
  // Only stations whose card meets the link's bounding box can touch it.
  const near: Rect[] = [];
  const nearSt: Station[] = [];
  for (const st of s.stations) {
    if (st.id === from.id || st.id === to.id) continue;
    const r = stationRect(st);
    if (rectsTouch(r, box)) {
      near.push(r);
      nearSt.push(st);
    }
  }
  for (let i = 1; i < n; i++) {
    const a = points[i - 1]!,
      b = points[i]!;
    if (i > 1 && segmentTouchesRect(a, b, fr)) refuse('The link comes back to touch its start station.');
    if (i < n - 1 && segmentTouchesRect(a, b, tr)) refuse('The link touches its end station before it arrives.');
    for (let k = 0; k < near.length; k++) {
      if (segmentTouchesRect(a, b, near[k]!))
        refuse(`The link may not cross or touch ${stationInfo(nearSt[k]!).name}.`);
    }
  }
  const length = polylineLength(points);
  // Rules version 1 rounded a float length with a tolerance of 3e-8 mm.
  const clips =
    s.version >= 2 ? clipsFor(points, BOARD.clipLength) : Math.max(1, Math.ceil(length / BOARD.clipLength - 1e-9));

  const crossings = new Array<number>(s.seats).fill(0);
  const p0 = points[0]!,
    pk = points[n - 1]!;
  const isEnd = (x: number, y: number) => (x === p0[0] && y === p0[1]) || (x === pk[0] && y === pk[1]);
  const minX = box.x0,
    minY = box.y0,
    maxX = box.x1,
    maxY = box.y1;
  for (const l of s.links) {
    if (l.owner === seat) continue; // crossing your own links is free
    // Distinct contact points, and stretches where the links run together (one contact each).
    // Few per link, so plain arrays with exact comparison beat keyed maps here.
    const px: number[] = [],
      py: number[] = [];
    const stretches: [Pt, Pt][] = [];
    const lp = l.points;
    for (let j = 1; j < lp.length; j++) {
      const c = lp[j - 1]!,
        d = lp[j]!;
      if (
        Math.max(c[0], d[0]) < minX ||
        Math.min(c[0], d[0]) > maxX ||
        Math.max(c[1], d[1]) < minY ||
        Math.min(c[1], d[1]) > maxY
      )
        continue;
      for (let i = 1; i < n; i++) {
        // Most pairs miss: the allocation-free test first, the contact point only for a hit.
        if (!segmentsTouch(points[i - 1]!, points[i]!, c, d)) continue;
        const hit = segmentContact(points[i - 1]!, points[i]!, c, d);
        if (hit.kind === 'none') continue;
        if (hit.kind === 'overlap') {
          if (!stretches.some(([a, b]) => a[0] === hit.x && a[1] === hit.y && b[0] === hit.x2 && b[1] === hit.y2)) {
            stretches.push([
              [hit.x, hit.y],
              [hit.x2, hit.y2],
            ]);
          }
          continue;
        }
        // Two links meeting at the edge of a station they both serve do not cross.
        if (isEnd(hit.x, hit.y)) continue;
        let seen = false;
        for (let k = 0; k < px.length; k++) if (px[k] === hit.x && py[k] === hit.y) seen = true;
        if (!seen) {
          px.push(hit.x);
          py.push(hit.y);
        }
      }
    }
    if (s.version >= 2) joinStretches(stretches);
    let count = stretches.length;
    for (let k = 0; k < px.length; k++) {
      const p: Pt = [px[k]!, py[k]!];
      if (!stretches.some(([a, b]) => onSegment(a, b, p))) count++;
    }
    crossings[l.owner]! += count;
  }
  let obstacles = 0;
  for (const o of s.obstacles) if (polylineTouchesPolygon(points, o.shape)) obstacles++;
  let riverTouched = false;
  const river = s.river;
  if (river && rectsTouch(boundsOf(river), box)) {
    outer: for (let j = 1; j < river.length; j++) {
      for (let i = 1; i < n; i++) {
        if (segmentsTouch(points[i - 1]!, points[i]!, river[j - 1]!, river[j]!)) {
          riverTouched = true;
          break outer;
        }
      }
    }
  }
  if (riverTouched) obstacles++;
  return { points, length, clips, crossings, obstacles, riverTouched };
}
