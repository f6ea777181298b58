// The stricter comparison: our state against one line of the 18xx-oracle's state dump
// (state-dump.rb): who acts, the priority deal and seat order, bankrupt players, every
// private's owner, every corporation with a par value (floated or not) with its train ids,
// discarded trains, the depot's train ids in order, and the operating order.
import { CORPS, TRAINS } from '../data.ts';
import { sharePrice } from '../market.ts';
import type { Game1830State } from '../state.ts';
import type { Board } from '../track/index.ts';
import type { Difference } from './compare.ts';

export interface StateDump {
  after_action: number;
  type?: string;
  /** Players who act (a corporation's president for a corporation). */
  actors: (number | string)[];
  priority: number | string | null;
  order: (number | string)[];
  bankrupt: (number | string)[];
  companies: { sym: string; owner: number | string | null; closed: boolean }[];
  corps: {
    name: string;
    floated: boolean;
    cash: number;
    price: number | null;
    market: [number, number] | null;
    ipo: number;
    pool: number;
    trains: string[];
    tokens_left: number;
    president: number | string | null;
  }[];
  discarded: string[];
  depot_ids: string[];
  or_order: string[] | null;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The first difference from the dump line, or null; `actors` are our seats that act now. */
export function compareStateDump(
  state: Game1830State,
  ids: string[],
  actors: number[],
  dump: StateDump,
): Difference | null {
  const id = (seat: number | null | undefined): string | null =>
    seat === null || seat === undefined ? null : (ids[seat] ?? null);
  const theirIds = (xs: (number | string)[]) => xs.map(String);
  if (!state.finished) {
    const ours = actors.map((s) => id(s));
    if (!same([...ours].sort(), theirIds(dump.actors).sort())) return { field: 'who acts', ours, theirs: dump.actors };
    // in a player round 18xx.games names whoever would start if everybody passed from now (we
    // settle it when the round ends); between player rounds both hold the seat order it gave
    if (state.round.kind === 'operating') {
      const order = state.order.map((s) => id(s));
      if (dump.priority !== null && order[0] !== String(dump.priority))
        return { field: 'priority deal', ours: order[0], theirs: dump.priority };
      if (!same(order, theirIds(dump.order))) return { field: 'seat order', ours: order, theirs: dump.order };
    }
  }
  const bankrupt = ids.filter((_, s) => state.bankrupt[s]);
  if (!same(bankrupt, theirIds(dump.bankrupt)))
    return { field: 'bankrupt players', ours: bankrupt, theirs: dump.bankrupt };
  for (const c of dump.companies) {
    const p = state.privates[c.sym];
    if (!p) return { field: `private ${c.sym}`, ours: null, theirs: c };
    if (p.closed !== c.closed) return { field: `${c.sym} closed`, ours: p.closed, theirs: c.closed };
    if (c.closed) continue;
    const owner = typeof p.owner === 'number' ? id(p.owner) : p.owner;
    if (String(owner) !== String(c.owner)) return { field: `${c.sym} owner`, ours: owner, theirs: c.owner };
  }
  const ipoed = Object.values(state.corps)
    .filter((c) => c.ipoed && !c.closed)
    .map((c) => c.sym)
    .sort();
  const theirIpoed = dump.corps.map((c) => c.name).sort();
  if (!same(ipoed, theirIpoed)) return { field: 'corporations with a par value', ours: ipoed, theirs: theirIpoed };
  for (const tc of dump.corps) {
    const c = state.corps[tc.name];
    if (!c) continue;
    const f = tc.name;
    if (c.floated !== tc.floated) return { field: `${f} floated`, ours: c.floated, theirs: tc.floated };
    if (c.cash !== tc.cash) return { field: `${f} cash`, ours: c.cash, theirs: tc.cash };
    if (tc.price !== null && sharePrice(c) !== tc.price)
      return { field: `${f} share price`, ours: sharePrice(c), theirs: tc.price };
    if (c.ipo !== tc.ipo) return { field: `${f} IPO percent`, ours: c.ipo, theirs: tc.ipo };
    if (c.pool !== tc.pool) return { field: `${f} pool percent`, ours: c.pool, theirs: tc.pool };
    const trains = [...c.trains].sort();
    if (!same(trains, [...tc.trains].sort())) return { field: `${f} train ids`, ours: trains, theirs: tc.trains };
    // a station lifted by a tile lay and not yet put back is off the board on 18xx.games: it counts as left
    const lifted = ((state.map as Board | null)?.pending ?? []).filter((p) => p.corp === f).length;
    const tokensLeft = (CORPS[f]?.tokens.length ?? 0) - c.tokensUsed + lifted;
    if (tc.floated && tokensLeft !== tc.tokens_left)
      return { field: `${f} stations left`, ours: tokensLeft, theirs: tc.tokens_left };
    if (String(id(c.president)) !== String(tc.president))
      return { field: `${f} president`, ours: id(c.president), theirs: tc.president };
  }
  const discarded = state.trains
    .filter((t) => t.owner === 'pool')
    .map((t) => t.name)
    .sort();
  if (!same(discarded, [...dump.discarded].sort()))
    return { field: 'discarded trains', ours: discarded, theirs: dump.discarded };
  // trains of an unlimited kind (D) are made one at a time here; 18xx.games lists a fixed stock
  const limited = (name: string | undefined) => name !== undefined && TRAINS[name]?.count !== 'unlimited';
  const depot = state.trains.filter((t) => t.owner === 'depot' && limited(t.name)).map((t) => t.id);
  const theirDepot = dump.depot_ids.filter((t) => limited(t.split('-')[0]));
  if (!same(depot, theirDepot)) return { field: 'depot order', ours: depot, theirs: theirDepot };
  if (dump.or_order && state.round.kind === 'operating' && !state.finished && !same(state.round.order, dump.or_order))
    return { field: 'operating order', ours: state.round.order, theirs: dump.or_order };
  return null;
}
