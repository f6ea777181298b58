// Paying majorities: the in-game scorings (city, railway town, merger) and
// the tie rules every scoring uses.
import { board } from './board.ts';
import { lineHexes, type SRState } from './state.ts';

/** Amounts are rounded down to whole thousands (the smallest banknote). */
export function roundDown(amount: number): number {
  return Math.floor(amount / 1000) * 1000;
}

/**
 * What each seat receives for a majority worth `first` and `second`, given
 * each seat's count. Only seats with at least one count. Several first
 * places share first + second equally; one first and several seconds share
 * the second amount; a lone holder (monopoly) gets only the first amount.
 */
export function majorityPayout(counts: number[], first: number, second: number): number[] {
  const out = counts.map(() => 0);
  const top = Math.max(0, ...counts);
  if (top <= 0) return out;
  const firsts = counts.flatMap((c, i) => (c === top ? [i] : []));
  if (firsts.length > 1) {
    const each = roundDown((first + second) / firsts.length);
    for (const i of firsts) out[i] = each;
    return out;
  }
  out[firsts[0]!] = first;
  const rest = counts.filter((c) => c > 0 && c < top);
  if (rest.length === 0) return out;
  const runnerUp = Math.max(...rest);
  const seconds = counts.flatMap((c, i) => (c === runnerUp ? [i] : []));
  const each = roundDown(second / seconds.length);
  for (const i of seconds) out[i] = each;
  return out;
}

export function pay(s: SRState, seat: number, amount: number, reason: string): void {
  if (amount <= 0) return;
  s.money[seat]! += amount;
  s.ledger.push({ seat, amount, reason });
}

/** $12,000 (the rules write amounts with a dollar sign; the server's money helper writes the same). */
export function formatMoney(amount: number): string {
  return `$${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/**
 * Who was paid what, for the public history: "{seat:1} $2,000, {seat:2} $1,000"
 * (the server writes each player's name for {seat:N}), highest amount first, a
 * tie in seat order; '' when nobody was paid. The bank pays each scoring openly;
 * only the running totals are secret.
 */
export function payeeList(amounts: number[]): string {
  return amounts
    .map((amount, seat) => ({ seat, amount }))
    .filter((p) => p.amount > 0)
    .sort((a, b) => b.amount - a.amount || a.seat - b.seat)
    .map((p) => `{seat:${p.seat}} ${formatMoney(p.amount)}`)
    .join(', ');
}

/** Pays every seat its amount; returns the history's list of payees ('' if none). */
function payAll(s: SRState, amounts: number[], reason: string): string {
  amounts.forEach((a, seat) => {
    pay(s, seat, a, reason);
  });
  return payeeList(amounts);
}

/** Stations of each seat standing on the line (so connected to it). */
export function stationCounts(s: SRState, line: number): number[] {
  const hexes = new Set(lineHexes(s, line));
  return s.stations.map((st) => st.filter((h) => h >= 0 && hexes.has(h)).length);
}

/** Tokens each seat took from one city. */
export function cityTokenCounts(s: SRState, city: number): number[] {
  return s.tokens.map((ts) => ts.filter((t) => t.city === city).length);
}

/** A city newly joined to a line: its goods-token majority earns 2,000 and 1,000. */
export function scoreCity(s: SRState, line: number, city: number, events: string[] | undefined): void {
  const name = board.places[city]!.name;
  const lineId = board.lines[line]!.id;
  const who = payAll(
    s,
    majorityPayout(cityTokenCounts(s, city), 2000, 1000),
    `city scoring: ${name} joined the ${lineId}`,
  );
  events?.push(
    who ? `city scoring for ${name} (goods-token majority): ${who}` : `${name} scores nothing: nobody holds its goods`,
  );
}

/** A railway town newly joined: the station majority on the line earns 1,000 per town and city on it. */
export function scoreTown(s: SRState, line: number, town: number, events: string[] | undefined): void {
  const name = board.places[town]!.name;
  const lineId = board.lines[line]!.id;
  const value = 1000 * s.lines[line]!.connected.length;
  const who = payAll(
    s,
    majorityPayout(stationCounts(s, line), value, roundDown(value / 2)),
    `railway-town scoring: ${name} joined the ${lineId}`,
  );
  events?.push(
    who
      ? `railway-town scoring for ${name} (station majority on the ${lineId}, ${s.lines[line]!.connected.length} towns and cities): ${who}`
      : `${name} scores nothing: no station is on the ${lineId}`,
  );
}

/** The absorbed line's share majority earns 1,000 per town and city on it. */
export function scoreMerger(s: SRState, absorbed: number, survivor: number, events: string[] | undefined): void {
  const a = board.lines[absorbed]!.id;
  const value = 1000 * s.lines[absorbed]!.connected.length;
  const who = payAll(
    s,
    majorityPayout(s.lines[absorbed]!.held, value, roundDown(value / 2)),
    `merger: the ${a} was absorbed by the ${board.lines[survivor]!.id}`,
  );
  events?.push(
    who
      ? `merger scoring for the ${a} (share majority, ${s.lines[absorbed]!.connected.length} towns and cities): ${who}`
      : `the ${a} merger pays nobody: no one holds its shares`,
  );
}
