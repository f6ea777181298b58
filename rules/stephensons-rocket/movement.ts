// Where a locomotive may go, and whether a line can still reach anything.
import { board } from './board';
import type { Occupancy, SRState } from './state';

/** Distinct other running lines whose track or locomotive lies next to hex h. */
export function linesNextTo(h: number, line: number, occ: Occupancy): number[] {
  const out: number[] = [];
  for (const n of board.neighbour[h]!) {
    if (n < 0) continue;
    const t = occ.track[n]!;
    if (t >= 0 && t !== line && !out.includes(t)) out.push(t);
    const l = occ.loco[n]!;
    if (l >= 0 && l !== line && !out.includes(l)) out.push(l);
  }
  return out;
}

/** Why a locomotive may not enter hex h (null when it may), ignoring direction. */
export function blockedReason(h: number, line: number, occ: Occupancy): string | null {
  if (h < 0) return 'That is off the map.';
  const p = board.placeAt[h]!;
  if (p >= 0) return `A locomotive may not move into ${board.places[p]!.name}: towns and cities are never entered.`;
  if (occ.track[h]! >= 0) return `${board.hexIds[h]} already has track on it.`;
  if (occ.loco[h]! >= 0) return `Another locomotive stands on ${board.hexIds[h]}.`;
  if (linesNextTo(h, line, occ).length > 1) return `${board.hexIds[h]} lies next to two other lines: a locomotive may not move next to two lines.`;
  return null;
}

/** Directions the locomotive may set out in: all six from its start town, else straight, left, right. */
export function headings(s: SRState, line: number): number[] {
  const l = s.lines[line]!;
  if (l.atStart) return [0, 1, 2, 3, 4, 5];
  return [(l.facing + 5) % 6, l.facing, (l.facing + 1) % 6];
}

/** The hexes the line's locomotive may move into now. */
export function locoTargets(s: SRState, line: number, occ: Occupancy): number[] {
  const l = s.lines[line]!;
  if (l.absorbedInto >= 0) return [];
  const out: number[] = [];
  for (const d of headings(s, line)) {
    const h = board.neighbour[l.loco]![d]!;
    if (blockedReason(h, line, occ) === null) out.push(h);
  }
  return out;
}

/**
 * Whether the locomotive could still, by some path over the present board,
 * reach a hex that connects a town or city new to the line or merges it into
 * another line. Its own future track is ignored, so a line is only declared
 * isolated when it truly is.
 */
export function canStillReach(s: SRState, line: number, occ: Occupancy): boolean {
  const l = s.lines[line]!;
  const n = board.hexIds.length;
  const seen = new Uint8Array(n * 6);
  const stack: number[] = []; // pairs: hex, facing
  const connected = l.connected;
  const push = (from: number, dirs: number[]) => {
    for (const d of dirs) {
      const h = board.neighbour[from]![d]!;
      if (h < 0 || seen[h * 6 + d]) continue;
      seen[h * 6 + d] = 1;
      stack.push(h, d);
    }
  };
  push(l.loco, headings(s, line));
  while (stack.length) {
    const d = stack.pop()!;
    const h = stack.pop()!;
    if (board.placeAt[h]! >= 0 || occ.track[h]! >= 0 || occ.loco[h]! >= 0) continue;
    const others = linesNextTo(h, line, occ);
    if (others.length === 1) return true;
    if (others.length > 1) continue;
    for (const p of board.placesNear[h]!) if (!connected.includes(p)) return true;
    push(h, [(d + 5) % 6, d, (d + 1) % 6]);
  }
  return false;
}
