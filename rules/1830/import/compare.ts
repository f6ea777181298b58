// Compares our state with one 18xx.games checkpoint line; returns the first difference.
import { DATA } from '../data.ts';
import { sharePrice } from '../market.ts';
import { playerValue } from '../shares.ts';
import type { Game1830State } from '../state.ts';
import { trackPort } from '../track-port.ts';

export interface Checkpoint {
  after_action: number;
  type?: string;
  round: string;
  turn?: number;
  round_num?: number;
  phase: string;
  bank: number;
  players: { id: number | string; cash: number; value: number; shares: Record<string, number>; companies: string[] }[];
  corporations: {
    name: string;
    cash: number;
    president: number | string | null;
    share_price: number;
    market: [number, number];
    ipo_percent: number;
    pool_percent: number;
    trains: string[];
    tokens: string[];
    companies: string[];
  }[];
  depot: Record<string, number>;
  tiles: Record<string, string>;
}

export interface Difference {
  field: string;
  ours: unknown;
  theirs: unknown;
}

function roundName(state: Game1830State): string {
  return state.round.kind === 'auction'
    ? 'Auction Round'
    : state.round.kind === 'stock'
      ? 'Stock Round'
      : 'Operating Round';
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function compareCheckpoint(state: Game1830State, ids: string[], cp: Checkpoint): Difference | null {
  if (state.finished && cp.round !== roundName(state)) {
    // 18xx.games keeps the last round's name when the game ends
  } else if (cp.round !== roundName(state)) return { field: 'round', ours: roundName(state), theirs: cp.round };
  if (!state.finished) {
    const turn = state.turn;
    const roundNum = state.round.kind === 'operating' ? state.round.num : 1;
    if (cp.turn !== undefined && cp.turn !== turn) return { field: 'turn', ours: turn, theirs: cp.turn };
    if (cp.round_num !== undefined && cp.round_num !== roundNum)
      return { field: 'round number', ours: roundNum, theirs: cp.round_num };
  }
  const phase = DATA.phases[state.phase]!.name;
  if (cp.phase !== phase) return { field: 'phase', ours: phase, theirs: cp.phase };
  if (cp.bank !== state.bank) return { field: 'bank', ours: state.bank, theirs: cp.bank };
  for (const p of cp.players) {
    const seat = ids.indexOf(String(p.id));
    const name = `player ${p.id}`;
    if (state.cash[seat] !== p.cash) return { field: `${name} cash`, ours: state.cash[seat], theirs: p.cash };
    const shares: Record<string, number> = {};
    for (const sym in state.corps) {
      const c = state.corps[sym]!;
      if (!c.closed && c.held[seat]! > 0) shares[sym] = c.held[seat]!;
    }
    const theirShares = Object.fromEntries(Object.entries(p.shares).filter(([, v]) => v > 0));
    if (!same(sortObj(shares), sortObj(theirShares)))
      return { field: `${name} shares`, ours: shares, theirs: theirShares };
    const companies = Object.values(state.privates)
      .filter((x) => x.owner === seat && !x.closed)
      .map((x) => x.sym)
      .sort();
    if (!same(companies, [...p.companies].sort()))
      return { field: `${name} privates`, ours: companies, theirs: p.companies };
    const value = playerValue(state, seat);
    if (value !== p.value) return { field: `${name} value`, ours: value, theirs: p.value };
  }
  const ours = Object.values(state.corps)
    .filter((c) => c.floated && !c.closed)
    .map((c) => c.sym)
    .sort();
  const theirs = cp.corporations.map((c) => c.name).sort();
  if (!same(ours, theirs)) return { field: 'floated corporations', ours, theirs };
  for (const tc of cp.corporations) {
    const c = state.corps[tc.name]!;
    const f = `${tc.name}`;
    if (c.cash !== tc.cash) return { field: `${f} cash`, ours: c.cash, theirs: tc.cash };
    const pres = c.president === null ? null : ids[c.president];
    if (String(pres) !== String(tc.president)) return { field: `${f} president`, ours: pres, theirs: tc.president };
    if (sharePrice(c) !== tc.share_price)
      return { field: `${f} share price`, ours: sharePrice(c), theirs: tc.share_price };
    if (!same(c.cell, tc.market)) return { field: `${f} market position`, ours: c.cell, theirs: tc.market };
    if (c.ipo !== tc.ipo_percent) return { field: `${f} IPO percent`, ours: c.ipo, theirs: tc.ipo_percent };
    if (c.pool !== tc.pool_percent) return { field: `${f} pool percent`, ours: c.pool, theirs: tc.pool_percent };
    const trains = c.trains.map((t) => t.split('-')[0]);
    if (!same([...trains].sort(), [...tc.trains].sort()))
      return { field: `${f} trains`, ours: trains, theirs: tc.trains };
    const tokens = trackPort.tokenHexes(state.map, c.sym);
    if (!same([...tokens].sort(), [...tc.tokens].sort()))
      return { field: `${f} tokens`, ours: tokens, theirs: tc.tokens };
    if (!same([...c.companies].sort(), [...tc.companies].sort()))
      return { field: `${f} privates`, ours: c.companies, theirs: tc.companies };
  }
  const depot: Record<string, number> = {};
  for (const t of state.trains) if (t.owner === 'depot') depot[t.name] = (depot[t.name] ?? 0) + 1;
  if (!same(sortObj(depot), sortObj(cp.depot))) return { field: 'depot', ours: depot, theirs: cp.depot };
  const tiles = trackPort.tilesForCheckpoint(state.map);
  if (tiles && !same(sortObj(tiles), sortObj(cp.tiles))) return { field: 'tiles', ours: tiles, theirs: cp.tiles };
  return null;
}

function sortObj<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
