// Legal moves for a seat: complete actions, a sensible subset where the
// space is large (stations go where a locomotive may soon arrive).
import { board } from './board.ts';
import { movableStations, stationProblem, stationSpots, type SRAction } from './actions.ts';
import { locoTargets } from './movement.ts';
import { minimumBid, voteSeat } from './vote.ts';
import { occupancy, type Occupancy, type SRState } from './state.ts';

const STATION_CHOICES = 8;

/** Hexes a locomotive could reach in two moves, where a station may stand. */
function stationCandidates(s: SRState, occ: Occupancy, from: number, targets: number[][]): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.lines.length && out.length < STATION_CHOICES; i++) {
    const l = s.lines[i]!;
    if (l.absorbedInto >= 0) continue;
    for (const t of targets[i]!) {
      const d = board.neighbour[l.loco]!.indexOf(t);
      for (let k = 5; k <= 7; k++) {
        const h = board.neighbour[t]![(d + k) % 6]!;
        if (h >= 0 && occ.station[h]! < 0 && !out.includes(h) && stationProblem(h, from, occ) === null) out.push(h);
      }
    }
  }
  if (out.length === 0) {
    for (let h = 0; h < board.hexIds.length && out.length < STATION_CHOICES; h += 7) {
      if (stationProblem(h, from, occ) === null) out.push(h);
    }
  }
  return out.slice(0, STATION_CHOICES);
}

export function legalMoves(s: SRState, seat: number): SRAction[] {
  if (s.finished) return [];
  if (s.vote) {
    const v = s.vote;
    if (voteSeat(v) !== seat) return [];
    const out: SRAction[] = [{ type: 'bid', amount: 0 }];
    const held = s.lines[v.line]!.held[seat]!;
    const min = minimumBid(v, seat);
    const amounts = [...new Set([min, min + 1, held])].filter((a) => a >= min && a <= held).sort((a, b) => a - b);
    for (const amount of amounts) for (const h of v.options) out.push({ type: 'bid', amount, to: board.hexIds[h]! });
    return out;
  }
  if (seat !== s.turn) return [];
  const occ = occupancy(s);
  const out: SRAction[] = [];
  const targets = s.lines.map((_, i) => locoTargets(s, i, occ));
  s.lines.forEach((l, i) => {
    if (l.absorbedInto >= 0 || s.extended.includes(i)) return;
    for (const h of targets[i]!) out.push({ type: 'extend', line: board.lines[i]!.id, to: board.hexIds[h]! });
  });
  for (let city = 0; city < s.cityGoods.length; city++) {
    const goods = s.cityGoods[city]!;
    for (let k = 0; k < goods.length; k++) {
      if (goods.indexOf(goods[k]!) === k) out.push({ type: 'token', city: board.places[city]!.id, good: goods[k]! });
    }
  }
  if (s.stations[seat]!.includes(-1)) {
    for (const h of stationCandidates(s, occ, -1, targets)) out.push({ type: 'station', hex: board.hexIds[h]! });
  } else {
    for (const from of movableStations(s, seat, occ).slice(0, 2)) {
      for (const h of stationCandidates(s, occ, from, targets).slice(0, 4))
        out.push({ type: 'station', hex: board.hexIds[h]!, from: board.hexIds[from]! });
    }
  }
  if (out.length === 0) {
    // The suggestions above missed every station spot, or there is none: the whole board decides.
    for (const { hex, from } of stationSpots(s, seat, occ, 1))
      out.push(
        from < 0
          ? { type: 'station', hex: board.hexIds[hex]! }
          : { type: 'station', hex: board.hexIds[hex]!, from: board.hexIds[from]! },
      );
  }
  if (out.length === 0 || s.version < 2) out.push({ type: 'pass' });
  return out;
}
