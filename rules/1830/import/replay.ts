// Imports an 18xx.games export of 1830: converts its actions, replays them through our
// engine, and (optionally) compares the state after every action with a checkpoint file and
// with the oracle's fuller state dump (compare-dump.ts).
import { RuleError, type Options } from '../../types.ts';
import { RULE_SET_OPTION } from '../rule-set.ts';
import { game1830 } from '../index.ts';
import { DATA } from '../data.ts';
import { sharePrice } from '../market.ts';
import { playerValue } from '../shares.ts';
import type { Game1830State } from '../state.ts';
import type { Action1830 } from '../actions.ts';
import { convertAction, newConvertContext } from './convert.ts';
import { effectiveActions, type Raw18xxAction } from './resolve.ts';
import { compareCheckpoint, type Checkpoint } from './compare.ts';
import { compareStateDump, type StateDump } from './compare-dump.ts';

export interface Export18xx {
  id?: number;
  title?: string;
  players: { id: number | string; name: string }[];
  settings?: { optional_rules?: string[]; seed?: unknown };
  actions: Raw18xxAction[];
  result?: Record<string, number>;
  game_end_reason?: string;
}

export interface ImportReport {
  title: string;
  actions: number;
  applied: number;
  finished: boolean;
  endReason: string | null;
  result: Record<string, number>;
  stoppedAt: null | { id: number; error: string };
  firstDivergence: null | { id: number; field: string; ours: unknown; theirs: unknown };
}

export interface ImportedGame {
  seats: { id: string; name: string }[];
  options: Options;
  log: { seat: number; action: Action1830; sourceId: number }[];
  state: Game1830State;
  report: ImportReport;
}

/** The export's optional rules; an imported game continues under the 18xx.games rule set. */
export function optionsOf(exp: Export18xx): Options {
  const rules = exp.settings?.optional_rules ?? [];
  const out: Options = { [RULE_SET_OPTION]: '18xx.games' };
  for (const o of DATA.options) out[o.id] = rules.includes(o.id);
  return out;
}

export function resultOf(state: Game1830State, ids: string[]): Record<string, number> {
  const pairs = ids.map((id, seat) => [id, playerValue(state, seat)] as [string, number]);
  pairs.sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(pairs);
}

export function importExport(exp: Export18xx, checkpoints?: Checkpoint[], dumps?: StateDump[]): ImportedGame {
  if (!exp || !Array.isArray(exp.players) || !Array.isArray(exp.actions))
    throw new RuleError('this is not an 18xx.games export (players and actions are missing)');
  if (exp.title !== undefined && exp.title !== '1830') throw new RuleError(`this export is of ${exp.title}, not 1830`);
  const ids = exp.players.map((p) => String(p.id));
  const options = optionsOf(exp);
  const state = game1830.setup(ids.length, String(exp.settings?.seed ?? exp.id ?? 'import'), options);
  const ctx = newConvertContext(ids);
  const effective = effectiveActions(exp.actions);
  const byId = new Map<number, Checkpoint>();
  for (const c of checkpoints ?? []) byId.set(c.after_action, c);
  const dumpById = new Map<number, StateDump>();
  for (const d of dumps ?? []) dumpById.set(d.after_action, d);
  const log: ImportedGame['log'] = [];
  let applied = 0;
  let stoppedAt: ImportReport['stoppedAt'] = null;
  let firstDivergence: ImportReport['firstDivergence'] = null;
  for (let i = 0; i < effective.length; i++) {
    const { id, action: raw } = effective[i]!;
    try {
      if (state.finished) throw new RuleError('the game is already over');
      const { seat, action } = convertAction(raw, state, ctx);
      game1830.apply(state, seat, action);
      log.push({ seat, action, sourceId: id });
      // 18xx.games has no owner's consent for a private bought from another player: it is given here
      const offer = state.offer;
      if (offer) {
        const accept: Action1830 = { type: 'buyCompany', company: offer.company, price: offer.price };
        game1830.apply(state, offer.seller, accept);
        log.push({ seat: offer.seller, action: accept, sourceId: id });
      }
      applied++;
    } catch (err) {
      stoppedAt = { id, error: (err as Error).message };
      break;
    }
    const lastOfId = i + 1 >= effective.length || effective[i + 1]!.id !== id;
    const checkpoint = lastOfId && !firstDivergence ? byId.get(id) : undefined;
    if (checkpoint) {
      const d = compareCheckpoint(state, ids, checkpoint);
      if (d) firstDivergence = { id, ...d };
    }
    const dump = lastOfId && !firstDivergence ? dumpById.get(id) : undefined;
    if (dump) {
      const d = compareStateDump(state, ids, game1830.toAct(state), dump);
      if (d) firstDivergence = { id, ...d };
    }
  }
  const report: ImportReport = {
    title: '1830',
    actions: exp.actions.length,
    applied,
    finished: state.finished,
    endReason: state.finished ? state.endCode : null,
    result: resultOf(state, ids),
    stoppedAt,
    firstDivergence,
  };
  return { seats: exp.players.map((p) => ({ id: String(p.id), name: p.name })), options, log, state, report };
}

export { sharePrice };
