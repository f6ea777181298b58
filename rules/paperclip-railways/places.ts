// Where a point of the table is, in words a player finds on the picture: the square of the
// reference grid drawn over the table (columns lettered from the left, rows numbered from the
// top, like a road atlas: "D4"), and the face-up station next to it if there is one. Millimetres
// appear nowhere on the picture, so no history line or label gives them.
import { stationInfo, type PCState } from './state.ts';

/** A station this close (mm, from its centre) is what a point is "next to". */
const NEAR = 110;

/** The side of a grid square, in mm: a card is 60 by 40, so a square holds about one. */
export const GRID = 100;

type Point = [number, number];

/**
 * The grid over a table area: whole squares covering it, centred on it (so the grid lies inside
 * the picture's frame, which runs 60 mm beyond the area): where column A and row 1 start, and how
 * many columns and rows there are.
 */
export function gridOf(area: readonly Point[]): { x0: number; y0: number; columns: number; rows: number } {
  const xs = area.map((p) => p[0]);
  const ys = area.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const columns = Math.ceil((maxX - minX) / GRID);
  const rows = Math.ceil((maxY - minY) / GRID);
  return {
    x0: Math.round((minX + maxX - columns * GRID) / 2),
    y0: Math.round((minY + maxY - rows * GRID) / 2),
    columns,
    rows,
  };
}

/** Column letters: A to Z (no table needs more than 26 squares across). */
export function columnName(k: number): string {
  return String.fromCharCode(65 + Math.max(0, Math.min(25, k)));
}

/** The grid square a point lies in, "D4". */
export function squareOf(area: readonly Point[], x: number, y: number): string {
  const g = gridOf(area);
  return `${columnName(Math.floor((x - g.x0) / GRID))}${Math.floor((y - g.y0) / GRID) + 1}`;
}

/** The centre of a square named like "D4" (any case), or null if the table has no such square. */
export function squareCentre(area: readonly Point[], name: string): Point | null {
  const m = /^([A-Za-z])(\d{1,2})$/.exec(name.trim());
  if (!m) return null;
  const g = gridOf(area);
  const col = m[1]!.toUpperCase().charCodeAt(0) - 65;
  const row = Number(m[2]) - 1;
  if (col >= g.columns || row < 0 || row >= g.rows) return null;
  return [g.x0 + col * GRID + GRID / 2, g.y0 + row * GRID + GRID / 2];
}

/** The face-up station nearest a point, if one is NEAR: its name is drawn on the picture there. */
export function stationNear(s: PCState, x: number, y: number): string | null {
  let best: { name: string; d: number } | null = null;
  for (const st of s.stations) {
    if (st.faceDown) continue; // its name is not on the picture
    const d = Math.hypot(st.x - x, st.y - y);
    if (d <= NEAR && (!best || d < best.d)) best = { name: stationInfo(st).name, d };
  }
  return best?.name ?? null;
}

/** "at D4, next to York", or "at D4". */
export function placeWords(s: PCState, x: number, y: number): string {
  const near = stationNear(s, x, y);
  return `at ${squareOf(s.area, x, y)}${near ? `, next to ${near}` : ''}`;
}
