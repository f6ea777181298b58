// Exact plane geometry for the virtual table.
//
// Every point the rules keep is an integer number of millimetres, so the
// orientation tests below (cross products of differences) are exact in
// doubles for tables up to several metres. Where an intersection point is
// needed (to tell one crossing from another) it is a ratio of two exact
// integers, and IEEE division rounds it correctly: the same rational point
// reached from different segments gives the same double, so points can be
// compared with ===. Nothing here uses an epsilon: lengths are compared with
// whole clips exactly (compareLength).

export type Pt = readonly [number, number];

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Sign of the turn a -> b -> c: 1 left (counter-clockwise in y-up), -1 right, 0 collinear. */
export function orient(a: Pt, b: Pt, c: Pt): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/** c lies on the closed segment ab, given that a, b, c are collinear. */
function withinBox(a: Pt, b: Pt, c: Pt): boolean {
  return (
    Math.min(a[0], b[0]) <= c[0] &&
    c[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= c[1] &&
    c[1] <= Math.max(a[1], b[1])
  );
}

export function onSegment(a: Pt, b: Pt, c: Pt): boolean {
  return orient(a, b, c) === 0 && withinBox(a, b, c);
}

/** The closed segments ab and cd share at least one point. */
export function segmentsTouch(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  // Quick rejection on bounding boxes.
  if (Math.max(a[0], b[0]) < Math.min(c[0], d[0]) || Math.max(c[0], d[0]) < Math.min(a[0], b[0])) return false;
  if (Math.max(a[1], b[1]) < Math.min(c[1], d[1]) || Math.max(c[1], d[1]) < Math.min(a[1], b[1])) return false;
  const o1 = orient(a, b, c),
    o2 = orient(a, b, d),
    o3 = orient(c, d, a),
    o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && withinBox(a, b, c)) return true;
  if (o2 === 0 && withinBox(a, b, d)) return true;
  if (o3 === 0 && withinBox(c, d, a)) return true;
  if (o4 === 0 && withinBox(c, d, b)) return true;
  return false;
}

export type Contact =
  | { kind: 'none' }
  | { kind: 'cross'; x: number; y: number } // the segments meet in one point, each passing through
  | { kind: 'touch'; x: number; y: number } // one point, at an end of at least one segment
  | { kind: 'overlap'; x: number; y: number; x2: number; y2: number }; // collinear, sharing the stretch (x,y)-(x2,y2)

/** How the closed segments ab and cd meet. */
export function segmentContact(a: Pt, b: Pt, c: Pt, d: Pt): Contact {
  if (!segmentsTouch(a, b, c, d)) return { kind: 'none' };
  const rx = b[0] - a[0],
    ry = b[1] - a[1];
  const sx = d[0] - c[0],
    sy = d[1] - c[1];
  const den = rx * sy - ry * sx;
  if (den === 0) {
    // Parallel and touching, so collinear: a single shared end point or a stretch.
    const pts = [a, b, c, d].filter((p, i) => (i < 2 ? withinBox(c, d, p) : withinBox(a, b, p)));
    const less = (p: Pt, q: Pt) => p[0] < q[0] || (p[0] === q[0] && p[1] < q[1]);
    const first = pts.reduce((m, p) => (less(p, m) ? p : m));
    const last = pts.reduce((m, p) => (less(m, p) ? p : m));
    const distinct = last[0] !== first[0] || last[1] !== first[1];
    return distinct
      ? { kind: 'overlap', x: first[0], y: first[1], x2: last[0], y2: last[1] }
      : { kind: 'touch', x: first[0], y: first[1] };
  }
  // a + t r = c + u s, t = tn/den, u = un/den
  const qx = c[0] - a[0],
    qy = c[1] - a[1];
  let tn = qx * sy - qy * sx;
  let un = qx * ry - qy * rx;
  let dd = den;
  if (dd < 0) {
    tn = -tn;
    un = -un;
    dd = -dd;
  }
  const x = (a[0] * dd + tn * rx) / dd;
  const y = (a[1] * dd + tn * ry) / dd;
  const interior = tn > 0 && tn < dd && un > 0 && un < dd;
  return { kind: interior ? 'cross' : 'touch', x, y };
}

export function segmentLength(a: Pt, b: Pt): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

export function polylineLength(points: readonly Pt[]): number {
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += segmentLength(points[i - 1]!, points[i]!);
  return sum;
}

/** The whole square root of a non-negative integer, rounded down. */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

/**
 * The sign of (length of the polyline − mm), decided exactly. Points are whole
 * millimetres, so each squared segment length is an integer. A sum of square
 * roots of integers is itself an integer only when every root is (roots of
 * distinct square-free numbers are independent over the rationals), so then
 * the sum is compared in integers; otherwise it is irrational, never equal to
 * mm, and the sum of roots to P decimals (each rounded down, so the sum is
 * known to within n units of the last place) settles the side, P doubling
 * until it does.
 */
export function compareLength(points: readonly Pt[], mm: number): number {
  const squares: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const dx = points[i]![0] - points[i - 1]![0],
      dy = points[i]![1] - points[i - 1]![1];
    squares.push(dx * dx + dy * dy);
  }
  // Far from mm (the float sum is good to about 1e-12 mm on a table), the float decides.
  const approx = squares.reduce((a, q) => a + Math.sqrt(q), 0);
  if (Math.abs(approx - mm) > 1e-6) return approx < mm ? -1 : 1;
  const roots = squares.map((q) => isqrt(BigInt(q)));
  if (roots.every((r, i) => r * r === BigInt(squares[i]!))) {
    const sum = roots.reduce((a, b) => a + b, 0n);
    const target = BigInt(mm);
    return sum < target ? -1 : sum > target ? 1 : 0;
  }
  for (let digits = 8n; ; digits *= 2n) {
    const scale = 10n ** digits;
    const low = squares.reduce((a, q) => a + isqrt(BigInt(q) * scale * scale), 0n);
    const target = BigInt(mm) * scale;
    if (target >= low + BigInt(squares.length)) return -1;
    if (target <= low) return 1;
  }
}

/** Whole clips needed to cover the polyline: the fewest whose total length is at least its exact length. */
export function clipsFor(points: readonly Pt[], clipLength: number): number {
  let k = Math.max(1, Math.ceil(polylineLength(points) / clipLength));
  while (k > 1 && compareLength(points, (k - 1) * clipLength) <= 0) k--;
  while (compareLength(points, k * clipLength) > 0) k++;
  return k;
}

// ---- rectangles (station cards) ----

export function rectAt(x: number, y: number, w: number, h: number): Rect {
  return { x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 };
}

export function rectCorners(r: Rect): Pt[] {
  return [
    [r.x0, r.y0],
    [r.x1, r.y0],
    [r.x1, r.y1],
    [r.x0, r.y1],
  ];
}

export function pointInRect(p: Pt, r: Rect): boolean {
  return r.x0 <= p[0] && p[0] <= r.x1 && r.y0 <= p[1] && p[1] <= r.y1;
}

/** The closed segment ab meets the closed rectangle. */
export function segmentTouchesRect(a: Pt, b: Pt, r: Rect): boolean {
  if (Math.max(a[0], b[0]) < r.x0 || Math.min(a[0], b[0]) > r.x1) return false;
  if (Math.max(a[1], b[1]) < r.y0 || Math.min(a[1], b[1]) > r.y1) return false;
  if (pointInRect(a, r) || pointInRect(b, r)) return true;
  const c = rectCorners(r);
  for (let i = 0; i < 4; i++) if (segmentsTouch(a, b, c[i]!, c[(i + 1) % 4]!)) return true;
  return false;
}

/**
 * For a segment that starts at `a` on the rectangle's boundary: true when it
 * leaves at once, meeting the closed rectangle in `a` alone.
 */
export function leavesRectAt(a: Pt, b: Pt, r: Rect): boolean {
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  return (
    (a[0] === r.x0 && dx < 0) || (a[0] === r.x1 && dx > 0) || (a[1] === r.y0 && dy < 0) || (a[1] === r.y1 && dy > 0)
  );
}

/** Two closed rectangles share a point. */
export function rectsTouch(p: Rect, q: Rect): boolean {
  return p.x0 <= q.x1 && q.x0 <= p.x1 && p.y0 <= q.y1 && q.y0 <= p.y1;
}

/**
 * Where the ray from the rectangle's centre towards `target` leaves the
 * rectangle, rounded to a whole millimetre along the edge it leaves by (so
 * the point stays exactly on the boundary). Null when the target is the centre.
 * With `allowed`, when the nearest whole millimetre is not allowed (outside the
 * play area) the whole millimetre on the ray's other side is taken if it is: the
 * exact point lies between the two.
 */
export function exitPoint(r: Rect, target: Pt, allowed?: (p: Pt) => boolean): Pt | null {
  const cx = (r.x0 + r.x1) / 2,
    cy = (r.y0 + r.y1) / 2;
  const hw = (r.x1 - r.x0) / 2,
    hh = (r.y1 - r.y0) / 2;
  const dx = target[0] - cx,
    dy = target[1] - cy;
  if (dx === 0 && dy === 0) return null;
  const along = Math.abs(dx) * hh >= Math.abs(dy) * hw;
  const fixed = along ? (dx > 0 ? r.x1 : r.x0) : dy > 0 ? r.y1 : r.y0;
  const exact = along ? cy + (dy * hw) / Math.abs(dx) : cx + (dx * hh) / Math.abs(dy);
  const [lo, hi] = along ? [r.y0, r.y1] : [r.x0, r.x1];
  const at = (v: number): Pt => {
    const c = Math.min(hi, Math.max(lo, v));
    return along ? [fixed, c] : [c, fixed];
  };
  const nearest = at(Math.round(exact));
  if (!allowed || allowed(nearest) || Number.isInteger(exact)) return nearest;
  const other = at(Math.round(exact) === Math.floor(exact) ? Math.ceil(exact) : Math.floor(exact));
  return allowed(other) ? other : nearest;
}

// ---- polygons (play area, obstacles) ----

/** Point in the closed polygon (any simple polygon; boundary counts as inside). */
export function pointInPolygon(p: Pt, poly: readonly Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[j]!,
      b = poly[i]!;
    if (onSegment(a, b, p)) return true;
    if (a[1] > p[1] !== b[1] > p[1]) {
      // x of the edge at height p.y, compared without division
      const lhs = (p[0] - a[0]) * (b[1] - a[1]);
      const rhs = (b[0] - a[0]) * (p[1] - a[1]);
      if (b[1] - a[1] > 0 ? lhs < rhs : lhs > rhs) inside = !inside;
    }
  }
  return inside;
}

/** The closed segment meets the closed polygon (crosses, touches or lies inside). */
export function segmentTouchesPolygon(a: Pt, b: Pt, poly: readonly Pt[]): boolean {
  if (pointInPolygon(a, poly) || pointInPolygon(b, poly)) return true;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++)
    if (segmentsTouch(a, b, poly[j]!, poly[i]!)) return true;
  return false;
}

/** The smallest closed axis-aligned rectangle holding the points. */
export function boundsOf(points: readonly Pt[]): Rect {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const p of points) {
    if (p[0] < x0) x0 = p[0];
    if (p[0] > x1) x1 = p[0];
    if (p[1] < y0) y0 = p[1];
    if (p[1] > y1) y1 = p[1];
  }
  return { x0, y0, x1, y1 };
}

export function polylineTouchesPolygon(points: readonly Pt[], poly: readonly Pt[]): boolean {
  // Disjoint bounding boxes: nothing to meet (the exact tests below decide the rest).
  if (!rectsTouch(boundsOf(points), boundsOf(poly))) return false;
  for (let i = 1; i < points.length; i++) if (segmentTouchesPolygon(points[i - 1]!, points[i]!, poly)) return true;
  return false;
}

/** Two closed polygons share a point. */
export function polygonsTouch(p: readonly Pt[], q: readonly Pt[]): boolean {
  if (!rectsTouch(boundsOf(p), boundsOf(q))) return false;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) if (segmentTouchesPolygon(p[j]!, p[i]!, q)) return true;
  return pointInPolygon(q[0]!, p);
}

/**
 * A convex polygon and a rectangle overlap with positive area (separating
 * axis test; touching along an edge or at a corner is not overlap).
 */
export function rectOverlapsConvex(r: Rect, poly: readonly Pt[]): boolean {
  const rp = rectCorners(r);
  const axes: Pt[] = [
    [1, 0],
    [0, 1],
  ];
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[j]!,
      b = poly[i]!;
    axes.push([-(b[1] - a[1]), b[0] - a[0]]);
  }
  for (const ax of axes) {
    let pmin = Infinity,
      pmax = -Infinity,
      qmin = Infinity,
      qmax = -Infinity;
    for (const p of rp) {
      const v = p[0] * ax[0] + p[1] * ax[1];
      pmin = Math.min(pmin, v);
      pmax = Math.max(pmax, v);
    }
    for (const p of poly) {
      const v = p[0] * ax[0] + p[1] * ax[1];
      qmin = Math.min(qmin, v);
      qmax = Math.max(qmax, v);
    }
    if (pmax <= qmin || qmax <= pmin) return false;
  }
  return true;
}

/** A polyline does not meet itself except where consecutive segments share their joint. */
export function polylineIsSimple(points: readonly Pt[]): boolean {
  const n = points.length - 1;
  for (let i = 0; i < n; i++) {
    const a = points[i]!,
      b = points[i + 1]!;
    if (a[0] === b[0] && a[1] === b[1]) return false;
    for (let j = i + 1; j < n; j++) {
      const c = points[j]!,
        d = points[j + 1]!;
      if (j === i + 1) {
        // Neighbours share b; they must not fold back over each other.
        if (orient(a, b, d) === 0 && (d[0] - b[0]) * (a[0] - b[0]) + (d[1] - b[1]) * (a[1] - b[1]) > 0) return false;
        continue;
      }
      if (segmentsTouch(a, b, c, d)) return false;
    }
  }
  return true;
}

export function rotatePoint(p: Pt, quarterTurns: number): Pt {
  const q = ((quarterTurns % 4) + 4) % 4;
  // `+ 0` turns -0 into 0 so states stay byte-identical through JSON.
  if (q === 0) return [p[0] + 0, p[1] + 0];
  if (q === 1) return [-p[1] + 0, p[0] + 0];
  if (q === 2) return [-p[0] + 0, -p[1] + 0];
  return [p[1] + 0, -p[0] + 0];
}
