// Invariants the playouts check after every move.
import { board, GOODS } from './board.ts';
import {
  LOOSE,
  PASSENGERS,
  SHARES_PER_LINE,
  STATIONS_PER_PLAYER,
  SUPPLEMENTARY_SHARES,
  TRACK_TILES,
  type SRState,
} from './state.ts';

export function checkState(s: SRState): string[] {
  const problems: string[] = [];
  if (s.tiles.length > TRACK_TILES) problems.push(`${s.tiles.length} track tiles laid, only ${TRACK_TILES} exist`);
  const tileHexes = new Set(s.tiles.map((t) => t.hex));
  if (tileHexes.size !== s.tiles.length) problems.push('two track tiles on one hex');
  for (const t of s.tiles) {
    if (board.placeAt[t.hex]! >= 0) problems.push(`track on ${board.places[board.placeAt[t.hex]!]!.name}`);
    if (t.line === LOOSE) continue;
    if (s.lines[t.line]!.absorbedInto >= 0) problems.push(`track of absorbed line ${board.lines[t.line]!.id}`);
  }
  let supplementary = s.supplementary;
  s.lines.forEach((l, i) => {
    const id = board.lines[i]!.id;
    supplementary += l.supplementary;
    const total = l.supply + l.held.reduce((a, b) => a + b, 0) + l.retired;
    if (total !== SHARES_PER_LINE + l.supplementary) problems.push(`${id} shares not conserved (${total})`);
    if (l.supply < 0 || l.held.some((n) => n < 0)) problems.push(`${id} negative shares`);
    if (l.absorbedInto >= 0 && (l.supply !== 0 || l.held.some((n) => n !== 0)))
      problems.push(`${id} absorbed but shares remain`);
    if (l.absorbedInto < 0) {
      if (tileHexes.has(l.loco)) problems.push(`${id} locomotive stands on track`);
      if (!l.atStart && board.placeAt[l.loco]! >= 0) problems.push(`${id} locomotive in a town`);
    }
  });
  if (supplementary !== SUPPLEMENTARY_SHARES) problems.push('supplementary shares not conserved');
  const locos = s.lines.filter((l) => l.absorbedInto < 0).map((l) => l.loco);
  if (new Set(locos).size !== locos.length) problems.push('two locomotives on one hex');

  for (const g of GOODS) {
    const n = s.cityGoods.flat().filter((x) => x === g).length + s.tokens.flat().filter((t) => t.good === g).length;
    if (n !== 9) problems.push(`${g} tokens not conserved (${n})`);
  }
  if (s.passengerSupply + s.passengers.reduce((a, b) => a + b, 0) !== PASSENGERS || s.passengerSupply < 0)
    problems.push('passengers not conserved');

  const stationHexes = s.stations.flat().filter((h) => h >= 0);
  if (new Set(stationHexes).size !== stationHexes.length) problems.push('two stations on one hex');
  if (s.stations.some((st) => st.length !== STATIONS_PER_PLAYER)) problems.push('stations not conserved');
  if (stationHexes.some((h) => board.placeAt[h]! >= 0)) problems.push('a station in a town');

  s.money.forEach((m, seat) => {
    const paid = s.ledger.filter((p) => p.seat === seat).reduce((a, p) => a + p.amount, 0);
    if (paid !== m) problems.push(`seat ${seat + 1} holds ${m} but was paid ${paid}`);
    if (m % 1000 !== 0) problems.push(`seat ${seat + 1} holds an odd amount ${m}`);
  });
  return problems;
}
