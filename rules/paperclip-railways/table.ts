// Laying out the table: the play area, the stations set at setup, obstacles
// and the river placed by the players, and where a new station may go.
import { refuse } from './refuse.ts';
import { BOARD } from './data.ts';
import {
  pointInPolygon,
  polygonsTouch,
  polylineIsSimple,
  compareLength,
  polylineLength,
  polylineTouchesPolygon,
  rectCorners,
  rectOverlapsConvex,
  rectsTouch,
  rotatePoint,
  segmentTouchesRect,
  type Pt,
} from './geometry.ts';
import { RULES_VERSION, stationInfo, stationRect, type PCState, type Station } from './state.ts';

/** The obstacle's outline on the table, placed at (x, y) turned by rot degrees (0, 90, 180, 270). */
export function obstacleShape(id: string, x: number, y: number, rot: number): [number, number][] {
  const def = BOARD.obstacles.find((o) => o.id === id);
  if (!def) refuse(`There is no obstacle called "${id}".`);
  return def.shape.map((p) => {
    const r = rotatePoint(p as Pt, rot / 90);
    return [r[0] + x, r[1] + y];
  });
}

export function checkObstaclePlacement(s: PCState, id: string, x: number, y: number, rot: number): [number, number][] {
  if (!BOARD.obstacles.some((o) => o.id === id)) {
    refuse(`There is no obstacle called "${id.slice(0, 24)}": ${BOARD.obstacles.map((o) => o.id).join(', ')}.`);
  }
  if (!s.obstacleSupply.includes(id)) refuse(`The ${id} has already been placed.`);
  if (![0, 90, 180, 270].includes(rot)) refuse('Turn an obstacle by 0, 90, 180 or 270 degrees.');
  const shape = obstacleShape(id, x, y, rot);
  if (!shape.every((p) => pointInPolygon(p, s.area))) refuse('An obstacle must lie wholly inside the play area.');
  for (const st of s.stations) {
    if (polygonsTouch(shape, rectCorners(stationRect(st)))) refuse('An obstacle may not touch a station.');
  }
  for (const o of s.obstacles) {
    if (polygonsTouch(shape, o.shape)) refuse('Obstacles may not touch each other.');
  }
  return shape;
}

export function riverMaxLength(): number {
  return BOARD.river.clips * BOARD.clipLength;
}

export function checkRiver(s: PCState, points: [number, number][]): void {
  if (points.length < 2 || points.length > BOARD.river.maxPoints) {
    refuse(`The river is a line of 2 to ${BOARD.river.maxPoints} points.`);
  }
  if (!points.every((p) => pointInPolygon(p, s.area))) refuse('The river must stay inside the play area.');
  if (!polylineIsSimple(points)) refuse('The river may not cross or double back on itself.');
  const tooLong =
    s.version >= 2 ? compareLength(points, riverMaxLength()) > 0 : polylineLength(points) > riverMaxLength();
  if (tooLong) {
    const len = Math.round(polylineLength(points));
    const over = len > riverMaxLength() ? `${len} mm` : `a hair over ${riverMaxLength()} mm`;
    refuse(`The river is ${BOARD.river.clips} clips long (${riverMaxLength()} mm); that line is ${over}.`);
  }
  for (const st of s.stations) {
    for (let i = 1; i < points.length; i++) {
      if (segmentTouchesRect(points[i - 1]!, points[i]!, stationRect(st))) refuse('The river may not touch a station.');
    }
  }
  for (const o of s.obstacles) {
    if (polylineTouchesPolygon(points, o.shape)) refuse('The river may not touch an obstacle.');
  }
}

/** Does a station rectangle touch or overlap an obstacle or the river? */
export function stationOnObstacle(s: PCState, st: Pick<Station, 'x' | 'y' | 'w' | 'h'>): boolean {
  const r = stationRect(st);
  const poly = rectCorners(r);
  if (s.obstacles.some((o) => polygonsTouch(poly, o.shape))) return true;
  const river = s.river;
  if (river) for (let i = 1; i < river.length; i++) if (segmentTouchesRect(river[i - 1]!, river[i]!, r)) return true;
  return false;
}

/**
 * Checks a new station card at (x, y): it may not touch or overlap another
 * station nor another player's link, and part of it must lie inside the area.
 * Returns whether it sits on an obstacle or the river (that costs the penalty).
 */
export function checkStationPlacement(s: PCState, seat: number, x: number, y: number): { onObstacle: boolean } {
  const probe = { x, y, w: BOARD.card.w, h: BOARD.card.h };
  const r = stationRect(probe);
  if (!rectOverlapsConvex(r, s.area)) refuse('A new station must lie at least partly inside the play area.');
  for (const st of s.stations) {
    if (rectsTouch(r, stationRect(st))) refuse(`A new station may not touch or overlap ${stationInfo(st).name}.`);
  }
  for (const l of s.links) {
    if (l.owner === seat) continue; // "You may place a new station on top of a link you already have."
    for (let i = 1; i < l.points.length; i++) {
      if (segmentTouchesRect(l.points[i - 1]!, l.points[i]!, r)) {
        refuse("A new station may lie on your own links but not on another player's.");
      }
    }
  }
  return { onObstacle: stationOnObstacle(s, probe) };
}

/**
 * The corners and side midpoints where border and starting stations go. A
 * midpoint at half a millimetre is rounded towards the table's centre (0,0) in
 * rules version 2, so it stays in the area on both sides; Math.round (version 1)
 * put 268.5 at 269, half a millimetre outside, but -268.5 at -268.
 */
export function setupSpots(
  seats: number,
  corners: [number, number][],
  version = RULES_VERSION,
): { border: Pt[]; start: Pt[] } {
  const half = (v: number) => (version >= 2 ? Math.sign(v) * Math.ceil(Math.abs(v) - 0.5) : Math.round(v));
  if (seats === 2) {
    // A rhombus: two border cards on the long diagonal, the two starting stations on the others.
    return { border: [corners[0]!, corners[2]!], start: [corners[1]!, corners[3]!] };
  }
  const mid = corners.map((c, i) => {
    const d = corners[(i + 1) % corners.length]!;
    return [half((c[0] + d[0]) / 2), half((c[1] + d[1]) / 2)] as Pt;
  });
  return { border: corners, start: mid };
}
