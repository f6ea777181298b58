// Extending a line once its destination is settled: track, locomotive,
// passengers, connections and scorings (city, town, merger, in that order),
// isolation. The vote (vote.ts) decides the destination before this runs.
import { board, directionTo, opposite } from './board.ts';
import { canStillReach, locoTargets, otherLineNear } from './movement.ts';
import { scoreCity, scoreMerger, scoreTown } from './scoring.ts';
import { LOOSE, TRACK_TILES, type Occupancy, type SRState } from './state.ts';

/** The mover takes a share of the line if it offers any; the supply running dry exhausts it for good. */
export function takeShare(s: SRState, line: number, seat: number, events: string[] | undefined): void {
  const l = s.lines[line]!;
  const id = board.lines[line]!.id;
  if (l.absorbedInto >= 0) return;
  if (l.isolated) {
    events?.push(`no share: the ${id} is isolated`);
    return;
  }
  if (l.exhausted || l.supply === 0) {
    l.exhausted = true;
    events?.push(`no share: the ${id} shares have run out`);
    return;
  }
  l.supply--;
  l.held[seat]!++;
  if (l.supply === 0) l.exhausted = true;
  events?.push(`took a ${id} share`);
}

export interface Move {
  line: number;
  from: number;
  facing: number;
  fromStart: boolean;
  to: number;
  /** Who settled the destination: the mover, or another seat that won the vote. */
  decidedBy: number;
  /** The board before the move; updated as the move goes on. */
  occ: Occupancy;
}

export function completeExtension(s: SRState, m: Move, events: string[] | undefined): void {
  const mover = s.turn;
  const l = s.lines[m.line]!;
  const dir = directionTo(m.from, m.to);
  const occ = m.occ;
  if (!m.fromStart) {
    s.tiles.push({ hex: m.from, line: m.line, sides: [opposite(m.facing), dir] });
    occ.track[m.from] = m.line;
  }
  occ.loco[m.from] = -1;
  occ.loco[m.to] = m.line;
  l.loco = m.to;
  l.facing = dir;
  l.atStart = false;
  if (m.fromStart && s.version >= 2) loosenTrack(s, m.line, occ, events);

  const owner = occ.station[m.to]!;
  if (owner >= 0 && owner !== mover) {
    if (m.decidedBy !== mover) events?.push('no passenger: the vote was won by another player');
    else if (s.passengerSupply === 0) events?.push('no passenger: all nine are taken');
    else {
      s.passengerSupply--;
      s.passengers[mover]!++;
      events?.push(`picked up a passenger at another player's station`);
    }
  }

  const fresh = board.placesNear[m.to]!.filter((p) => !l.connected.includes(p));
  l.connected.push(...fresh);
  for (const p of fresh) if (board.places[p]!.kind === 'city') scoreCity(s, m.line, p, events);
  for (const p of fresh) if (board.places[p]!.kind !== 'city') scoreTown(s, m.line, p, events);

  const survivor = otherLineNear(m.to, m.line, occ);
  if (survivor >= 0) merge(s, m.line, survivor, mover, occ, events);

  isolateStuckLines(s, occ, events);
}

/**
 * A line is its locomotive's hex and the track joined to it. A line that absorbed
 * others while its locomotive stood in its start town holds their track only
 * through that town, which stops being part of the line once the locomotive
 * leaves it: that track then belongs to no line. Its stations count for nobody,
 * nothing merges into it, and its towns and cities are no longer connected to
 * the line (the start town, next to the locomotive, stays, and so do places next to
 * the locomotive's new hex).
 */
function loosenTrack(s: SRState, line: number, occ: Occupancy, events: string[] | undefined): void {
  const l = s.lines[line]!;
  const start = board.lines[line]!.start;
  let loosened = 0;
  for (const t of s.tiles) {
    if (t.line !== line) continue;
    t.line = LOOSE;
    occ.track[t.hex] = LOOSE;
    loosened++;
  }
  if (loosened === 0) return;
  // Places next to the locomotive's new hex stay connected without a break.
  const kept = (p: number) => p === start || board.placesNear[l.loco]!.includes(p);
  const dropped = l.connected.filter((p) => !kept(p));
  l.connected = l.connected.filter(kept);
  const id = board.lines[line]!.id;
  events?.push(
    `the ${id} left ${board.places[start]!.name}: the track it absorbed there is joined to no line now` +
      (dropped.length ? ` (${dropped.map((p) => board.places[p]!.name).join(', ')} no longer on the ${id})` : ''),
  );
}

function merge(
  s: SRState,
  absorbed: number,
  survivor: number,
  mover: number,
  occ: Occupancy,
  events: string[] | undefined,
): void {
  const a = s.lines[absorbed]!;
  const v = s.lines[survivor]!;
  const aId = board.lines[absorbed]!.id;
  const vId = board.lines[survivor]!.id;
  events?.push(`the ${aId} merges into the ${vId}`);
  scoreMerger(s, absorbed, survivor, events);

  const at = a.loco;
  const toward = board.neighbour[at]!.findIndex(
    (n) => n >= 0 && (occ.track[n] === survivor || occ.loco[n] === survivor),
  );
  for (const t of s.tiles) {
    if (t.line === absorbed) {
      t.line = survivor;
      occ.track[t.hex] = survivor;
    }
  }
  occ.loco[at] = -1;
  if (s.tiles.length < TRACK_TILES) {
    s.tiles.push({ hex: at, line: survivor, sides: [opposite(a.facing), toward] });
    occ.track[at] = survivor;
  }
  a.absorbedInto = survivor;
  a.loco = -1;
  for (const p of a.connected) if (!v.connected.includes(p)) v.connected.push(p);

  // Shares handed in two for one, from the mover round the table.
  a.retired += a.supply;
  a.supply = 0;
  for (let k = 0; k < s.seats; k++) {
    const seat = (mover + k) % s.seats;
    const n = a.held[seat]!;
    a.held[seat] = 0;
    a.retired += n;
    let due = Math.floor(n / 2);
    while (due > 0 && v.supply > 0) {
      v.supply--;
      v.held[seat]!++;
      due--;
      if (v.supply === 0) v.exhausted = true;
    }
    while (due > 0 && s.supplementary > 0) {
      s.supplementary--;
      v.supplementary++;
      v.held[seat]!++;
      due--;
    }
  }
  events?.push(`${aId} shares exchanged two for one for ${vId} shares`);
}

/**
 * Lines that can no longer connect a town or city nor merge lose their unissued
 * shares. When no locomotive can move at all the board never changes again, so
 * every line is isolated, whatever the search hoped for (a hex next to two lines
 * that would have to merge first); the game then ends as its rule says.
 */
export function isolateStuckLines(s: SRState, occ: Occupancy, events: string[] | undefined): void {
  const frozen = s.lines.every((_, i) => locoTargets(s, i, occ).length === 0);
  s.lines.forEach((l, i) => {
    if (l.absorbedInto >= 0 || l.isolated) return;
    if (!frozen && canStillReach(s, i, occ)) return;
    l.isolated = true;
    l.retired += l.supply;
    l.supply = 0;
    events?.push(`the ${board.lines[i]!.id} is isolated: its remaining shares are discarded`);
  });
}
