// Where a locomotive may go, and whether a line can still reach anything.
import { board } from './board.ts';
import { hasTrack, type Occupancy, type SRState } from './state.ts';

/**
 * The one other line next to hex h: its index, -1 for none, -2 for two or more.
 * Loose track (joined to no locomotive) is no line: nothing merges into it.
 */
export function otherLineNear(h: number, line: number, occ: Occupancy): number {
  let found = -1;
  const ns = board.neighbour[h]!;
  for (let k = 0; k < 6; k++) {
    const n = ns[k]!;
    if (n < 0) continue;
    const t = occ.track[n]!;
    if (t >= 0 && t !== line) {
      if (found >= 0 && found !== t) return -2;
      found = t;
    }
    const l = occ.loco[n]!;
    if (l >= 0 && l !== line) {
      if (found >= 0 && found !== l) return -2;
      found = l;
    }
  }
  return found;
}

/** Why a locomotive may not enter hex h (null when it may), ignoring direction. */
export function blockedReason(h: number, line: number, occ: Occupancy): string | null {
  if (h < 0) return 'That is off the map.';
  const p = board.placeAt[h]!;
  if (p >= 0) return `A locomotive may not move into ${board.places[p]!.name}: towns and cities are never entered.`;
  if (hasTrack(occ, h)) return `${board.hexIds[h]} already has track on it.`;
  if (occ.loco[h]! >= 0) return `Another locomotive stands on ${board.hexIds[h]}.`;
  if (otherLineNear(h, line, occ) === -2)
    return `${board.hexIds[h]} lies next to two other lines: a locomotive may not move next to two lines.`;
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

// Scratch space for the search, reused across calls (it runs after every
// extension for every line): seen[hex * 6 + heading] === stamp marks a visited state.
let seen = new Uint32Array(0);
let stamp = 0;
const stack: number[] = [];

/**
 * Whether the locomotive could still, by some path over the present board,
 * reach a hex that connects a town or city new to the line or merges it into
 * another line. Its own future track is ignored, and a hex next to two other
 * lines counts as a possible merger, so a line is only declared isolated when
 * it truly is.
 */
export function canStillReach(s: SRState, line: number, occ: Occupancy): boolean {
  const l = s.lines[line]!;
  const n = board.hexIds.length;
  if (seen.length !== n * 6) {
    seen = new Uint32Array(n * 6);
    stamp = 0;
  }
  stamp++;
  const connected = l.connected;
  stack.length = 0;
  const start = board.neighbour[l.loco]!;
  for (const d of headings(s, line)) {
    const h = start[d]!;
    if (h >= 0 && seen[h * 6 + d] !== stamp) {
      seen[h * 6 + d] = stamp;
      stack.push(h, d);
    }
  }
  while (stack.length) {
    const d = stack.pop()!;
    const h = stack.pop()!;
    if (board.placeAt[h]! >= 0 || hasTrack(occ, h) || occ.loco[h]! >= 0) continue;
    // Next to one other line: the locomotive merges there. Next to two: closed
    // for now, but those two may merge with each other later and open it.
    if (otherLineNear(h, line, occ) !== -1) return true;
    const near = board.placesNear[h]!;
    for (let k = 0; k < near.length; k++) if (!connected.includes(near[k]!)) return true;
    const ns = board.neighbour[h]!;
    for (let k = 5; k <= 7; k++) {
      const dd = (d + k) % 6;
      const nh = ns[dd]!;
      if (nh >= 0 && seen[nh * 6 + dd] !== stamp) {
        seen[nh * 6 + dd] = stamp;
        stack.push(nh, dd);
      }
    }
  }
  return false;
}
