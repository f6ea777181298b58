// What a replay asks of a game's log (which moves are in force since a position, the last entry
// that changed the state, the first entry of another rules version), answered without reading
// the whole log: a step page or an older position of a long game costs the state entries since
// its snapshot, not the length of the game (issue 14).
//
// The answers come from an index kept per log array and extended as the array grows: a log array
// only grows (shared-log.ts), and an entry never changes (it is under the hash chain). A fresh
// array (a game read from the store, a copy) is indexed once, in one pass over its entries.
import { STATE_KINDS } from './game-log.ts';
import type { LogEntry } from './store/types.ts';

interface LogIndex {
  /** How many of the array's entries are indexed. */
  length: number;
  /** The last entry indexed (an array cut short and grown again is indexed afresh). */
  last: LogEntry | undefined;
  /** Where the entries that change the rules state (start, move, undo) are in the array. */
  states: number[];
  /** The first entry of each rules version met, in log order. */
  firsts: LogEntry[];
}

const indexes = new WeakMap<LogEntry[], LogIndex>();

function indexOf(log: LogEntry[]): LogIndex {
  let ix = indexes.get(log);
  if (!ix || ix.length > log.length || (ix.length > 0 && log[ix.length - 1] !== ix.last)) {
    ix = { length: 0, last: undefined, states: [], firsts: [] };
    indexes.set(log, ix);
  }
  for (; ix.length < log.length; ix.length++) {
    const e = log[ix.length]!;
    if (STATE_KINDS.has(e.kind)) ix.states.push(ix.length);
    if (e.rulesVersion !== undefined && !ix.firsts.some((f) => f.rulesVersion === e.rulesVersion)) ix.firsts.push(e);
  }
  ix.last = log[log.length - 1];
  return ix;
}

/** The place in `states` of the first state entry after entry `seq` (entries are in seq order). */
function stateAfter(log: LogEntry[], states: number[], seq: number): number {
  let lo = 0;
  let hi = states.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (log[states[mid]!]!.seq > seq) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The start entry (the first entry that changes the state, unless a hand-made log says otherwise). */
export function startEntry(log: LogEntry[]): LogEntry | undefined {
  for (const i of indexOf(log).states) if (log[i]!.kind === 'start') return log[i];
  return undefined;
}

/** The last entry up to `upto` that changed the rules state (start, move, undo). */
export function lastStateEntry(log: LogEntry[], upto: number): LogEntry | undefined {
  const { states } = indexOf(log);
  const k = stateAfter(log, states, upto) - 1;
  return k >= 0 ? log[states[k]!] : undefined;
}

/**
 * The moves after entry `from` still in force after entry `upto`: what effectiveMoves(log, upto)
 * holds after `from`, reading only the state entries between. An undo takes back the latest move
 * in force, so the moves made since `from` form a stack of their own on top of those in force at
 * `from`; an undo that meets that stack empty reaches below it. Null when such an undo takes back
 * the move at `from` itself (`from` a move): the position after `from` is no longer the one the
 * moves since build on. (Below a move nothing else can be reached first; `from` 0 or the start
 * has no move of its own to lose.)
 */
export function movesSince(log: LogEntry[], from: number, upto: number): LogEntry[] | null {
  const { states } = indexOf(log);
  // Entry seq n is log[n - 1] in every stored log; a hand-made one is searched.
  const base = from > 0 ? (log[from - 1]?.seq === from ? log[from - 1] : log.find((e) => e.seq === from)) : undefined;
  const losable = base?.kind === 'move';
  const stack: LogEntry[] = [];
  for (let k = stateAfter(log, states, from); k < states.length; k++) {
    const e = log[states[k]!]!;
    if (e.seq > upto) break;
    if (e.kind === 'move') stack.push(e);
    else if (e.kind === 'undo') {
      const top = stack[stack.length - 1];
      if (top) {
        if (top.seq === e.data?.undoes) stack.pop();
      } else if (losable && e.data?.undoes === from) return null;
    }
  }
  return stack;
}

/** The first entry up to `upto` applied under a rules version other than `version` (unrecorded counts as the game's). */
export function firstUnderOtherVersion(log: LogEntry[], version: number, upto: number): LogEntry | undefined {
  const first = indexOf(log).firsts.find((f) => f.rulesVersion !== version);
  return first && first.seq <= upto ? first : undefined;
}
