// Checks a downloaded history: the hash chain, then (once the seed is
// published) a full replay through the rules under the game's rules version,
// each state reached checked against the state hash its entry recorded.
import { findRules, games } from '../rules/index.ts';
import type { AnyRules, Opaque } from '../rules/types.ts';
import { canonicalJson, checkChain, sha256 } from './store/chain.ts';
import type { GameDoc, LogEntry } from './store/types.ts';
import { nameSeats, seatOrder } from './game-log.ts';
import { hashState } from './state-hash.ts';

export type VerifyResult =
  | { ok: true; entries: number; stateHash: string; replayed: boolean; note?: string }
  | { ok: false; seq: number; why: string };

interface HistoryDoc {
  rules?: unknown;
  options?: unknown;
  seedHash?: unknown;
  seed?: unknown;
  log?: unknown;
  seats?: unknown;
}

export function verifyHistory(input: unknown, registry: AnyRules[] = games): VerifyResult {
  const h = (input ?? {}) as HistoryDoc;
  if (!Array.isArray(h.log) || h.log.length === 0) return { ok: false, seq: 0, why: 'no log in this file' };
  const log = h.log as LogEntry[];
  const broken = checkChain(log);
  if (broken) return { ok: false, ...broken };
  // `text` with names written in must say what the sealed text says, with the file's names
  const named = { seats: Array.isArray(h.seats) ? h.seats : [] } as unknown as GameDoc;
  for (const e of log) {
    if (e.sealedText !== undefined && e.text !== nameSeats(e.sealedText, named))
      return { ok: false, seq: e.seq, why: "the text is not the sealed text with the players' names" };
  }
  const create = log[0]!;
  if (create.kind !== 'create') return { ok: false, seq: 1, why: 'the first entry is not the creation' };
  const rulesId = String(create.data?.rules ?? h.rules ?? '');
  const seedHash = String(create.data?.seedHash ?? '');
  if (typeof h.seedHash === 'string' && h.seedHash !== seedHash)
    return { ok: false, seq: 1, why: 'seedHash differs from the one logged at creation' };
  const start = log.find((e) => e.kind === 'start');
  if (typeof h.seed !== 'string' || !start) {
    const note = !start
      ? 'the game never started: chain checked'
      : 'seed not published yet (game running): chain checked, replay skipped';
    return { ok: true, entries: log.length, stateHash: log[log.length - 1]!.hash, replayed: false, note };
  }
  if (sha256(h.seed) !== seedHash) return { ok: false, seq: 1, why: 'the published seed does not match the seed hash' };
  const rules = findRules(rulesId, registry);
  if (!rules) return { ok: false, seq: 1, why: `unknown game "${rulesId}"` };
  const options = (create.data?.options ?? h.options ?? {}) as Record<string, boolean | number | string>;
  const order = (start.data?.order as number[] | undefined) ?? [];
  const orderProblem = checkSeatOrder(log, start.seq, h.seed, order);
  if (orderProblem) return { ok: false, seq: start.seq, why: orderProblem };
  const version = create.rulesVersion ?? 1;
  if (version > rules.version)
    return { ok: false, seq: 1, why: `played under rules version ${version}; this checker has ${rules.version}` };
  const seed = h.seed;
  const recorded = (e: LogEntry) =>
    e.stateHash === undefined || hashState(seed, state).hash === e.stateHash
      ? null
      : { ok: false as const, seq: e.seq, why: 'the replay reaches another state than the one recorded' };
  let state: Opaque;
  try {
    state = rules.setup(order.length, h.seed, options, version);
  } catch (err) {
    return { ok: false, seq: start.seq, why: `setup failed: ${(err as Error).message}` };
  }
  const atStart = recorded(start);
  if (atStart) return atStart;
  const stack: { seq: number; before: string }[] = [];
  for (const e of log) {
    if (e.seq <= start.seq) continue;
    if (e.kind === 'move') {
      if (e.action === undefined) return { ok: false, seq: e.seq, why: 'the action of this move is withheld' };
      const before = JSON.stringify(state);
      try {
        rules.apply(state, e.seat!, structuredClone(e.action));
      } catch (err) {
        return { ok: false, seq: e.seq, why: `illegal move: ${(err as Error).message}` };
      }
      stack.push({ seq: e.seq, before });
      const differs = recorded(e);
      if (differs) return differs;
    } else if (e.kind === 'undo') {
      const top = stack.pop();
      if (!top || top.seq !== e.data?.undoes)
        return { ok: false, seq: e.seq, why: 'undo of a move that is not the last one in force' };
      state = JSON.parse(top.before);
      const differs = recorded(e);
      if (differs) return differs;
    }
  }
  const over = rules.outcome(state);
  const finished = log.some((e) => e.kind === 'finish');
  if (finished && !over)
    return { ok: false, seq: log.length, why: 'the log says the game is over but the replay does not end' };
  return { ok: true, entries: log.length, stateHash: sha256(canonicalJson(state)), replayed: true };
}

/** The seat order must be the one the seed draws from the players seated before the start. */
function checkSeatOrder(log: LogEntry[], startSeq: number, seed: string, order: number[]): string | null {
  const slots: number[] = [];
  for (const e of log) {
    if (e.seq >= startSeq) break;
    if (e.kind === 'join') {
      if (typeof e.data?.slot !== 'number') return null; // an older log without slots: not checkable
      slots.push(e.data.slot);
    } else if (e.kind === 'reopen' && e.seat !== undefined) slots.splice(e.seat, 1);
  }
  const drawn = seatOrder(seed, slots.length).map((i) => slots[i]);
  return JSON.stringify(drawn) === JSON.stringify(order) ? null : 'the seat order is not the one the seed draws';
}

export function formatVerify(r: VerifyResult): string {
  return r.ok ? `ok ${r.entries} ${r.stateHash}` : `broken at ${r.seq}: ${r.why}`;
}
