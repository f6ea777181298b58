// Replaying a game's log to a rules state, checked against what was recorded:
// the rules version of the game and of each entry, and the state hashes the
// entries carry (state-hash.ts). Starts from a snapshot when one is given and
// holds up (snapshots are a cache), else from the seed; hands back snapshots
// worth keeping along the way. Pure: no I/O, no clock (the service does the
// storing).
import type { AnyRules, Opaque } from '../rules/types.ts';
import { firstUnderOtherVersion, lastStateEntry, movesSince, startEntry } from './log-index.ts';
import { hashState } from './state-hash.ts';
import type { GameDoc, LogEntry, Snapshot } from './store/types.ts';

/** Snapshots are kept every this many entries, so a replay applies at most this many. */
export const SNAPSHOT_EVERY = 50;

export interface Replayed {
  /** The state after entry `upto` (null before the start, or when the replay failed). */
  state: Opaque | null;
  /** What is wrong, in words for the game's admin; null when the replay matches the record. */
  problem: string | null;
  /** Seq of the snapshot the replay started from (0: the seed). */
  from: number;
  /** Snapshots made on the way (every SNAPSHOT_EVERY entries), for the store. */
  snapshots: Snapshot[];
}

/** Why this engine cannot replay a game of `version` exactly; null if it can. */
export function versionProblem(rules: AnyRules, version: number, what = 'This game'): string | null {
  const oldest = rules.oldestVersion ?? 1;
  if (version > rules.version)
    return `${what} was played under version ${version} of the rules of ${rules.title}; this server has only version ${rules.version}. It needs the newer server to go on.`;
  if (version < oldest)
    return `${what} was played under version ${version} of the rules of ${rules.title}; this server replays versions ${oldest} to ${rules.version} only, so the game cannot go on here as it was played.`;
  return null;
}

/**
 * The snapshot's state if it holds up: tied to this log's entry at its seq, of the game's
 * version, its state matching its hash and the hash the entry recorded; null otherwise.
 */
export function snapshotState(doc: GameDoc, snap: Snapshot): Opaque | null {
  const e = doc.log[snap.seq - 1];
  if (!e || e.seq !== snap.seq || e.hash !== snap.entryHash) return null;
  if (snap.rulesVersion !== (doc.rulesVersion ?? 1)) return null;
  if (e.stateHash !== undefined && e.stateHash !== snap.stateHash) return null;
  try {
    const state = JSON.parse(snap.state);
    return hashState(doc.seed, state).hash === snap.stateHash ? state : null;
  } catch {
    return null;
  }
}

export function replayTo(
  doc: GameDoc,
  rules: AnyRules,
  upto: number,
  opts: {
    base?: Snapshot | null;
    snapshotEvery?: number;
    /**
     * A state this process holds in memory after entry `seq` (a move still in force, or the
     * start): catching up with entries another process appended applies only the moves after it.
     * The state is changed in place: pass a copy.
     */
    live?: { seq: number; state: Opaque } | null;
  } = {},
): Replayed {
  const version = doc.rulesVersion ?? 1;
  const out: Replayed = { state: null, problem: null, from: 0, snapshots: [] };
  const log = doc.log;
  const start = startEntry(log);
  if (!start || start.seq > upto) return out;
  const other = firstUnderOtherVersion(log, version, upto);
  out.problem =
    versionProblem(rules, version) ??
    (other ? (versionProblem(rules, other.rulesVersion!, `Entry ${other.seq}`) ?? mixed(other, version)) : null);
  if (out.problem) return out;
  // Only the entries after the position replayed from are read: a long game's step page or
  // cold open costs the entries since its snapshot, not the whole log.
  const live = opts.live;
  const base = opts.base;
  let moves = live ? movesFrom(log, start, live.seq, upto) : null;
  let state: Opaque;
  if (moves) {
    state = live!.state;
    out.from = live!.seq;
  } else {
    moves = base ? movesFrom(log, start, base.seq, upto) : null;
    const restored = moves ? snapshotState(doc, base!) : null;
    if (restored !== null && moves) {
      state = restored;
      out.from = base!.seq;
    } else {
      moves = movesSince(log, 0, upto) ?? [];
      const seats = (start.data?.order as number[] | undefined)?.length ?? doc.seats.length;
      state = rules.setup(seats, doc.seed, doc.options, version);
      if (start.stateHash !== undefined && hashState(doc.seed, state).hash !== start.stateHash) {
        out.problem = `The game's set-up is no longer what it was when the game started (${rules.title} changed without a new rules version).`;
        return out;
      }
    }
  }
  const every = opts.snapshotEvery ?? 0;
  let lastSnap = out.from || start.seq;
  for (const m of moves) {
    try {
      rules.apply(state, m.seat!, structuredClone(m.action));
    } catch (err) {
      out.problem = `Move ${m.seq} (${m.text ?? 'a move'}) no longer applies under this server's rules: ${(err as Error).message}`;
      return { ...out, state: null };
    }
    if (every > 0 && m.seq - lastSnap >= every) {
      const { hash } = hashState(doc.seed, state);
      if (m.stateHash !== undefined && m.stateHash !== hash) {
        out.problem = differs(m, rules);
        return { ...out, state: null };
      }
      out.snapshots.push(snapshotOf(doc, m, state, hash));
      lastSnap = m.seq;
    }
  }
  // The position reached must be the one recorded by the last entry that changed it (one
  // before the position replayed from was checked when that position was reached).
  const last = lastStateEntry(log, upto);
  if (
    last &&
    last.seq > out.from &&
    last.stateHash !== undefined &&
    hashState(doc.seed, state).hash !== last.stateHash
  ) {
    out.problem = differs(last, rules);
    return { ...out, state: null };
  }
  out.state = state;
  return out;
}

/**
 * Whether a replay to `upto` may start from the position after entry `seq` (a snapshot's or
 * one held in memory): the start, or a move that no undo up to `upto` has taken back.
 */
export function replaysFrom(log: LogEntry[], seq: number, upto: number): boolean {
  const start = startEntry(log);
  return !!start && movesFrom(log, start, seq, upto) !== null;
}

/** The moves to apply after entry `seq` to reach `upto`; null when `seq` is not a position to start from. */
function movesFrom(log: LogEntry[], start: LogEntry, seq: number, upto: number): LogEntry[] | null {
  if (seq > upto || seq < start.seq) return null;
  if (seq !== start.seq && log[seq - 1]?.kind !== 'move') return null;
  return movesSince(log, seq, upto);
}

/**
 * A snapshot of `state` after entry `e`. The state is kept as JSON.stringify writes it (keys in
 * the order the rules made them, which an engine may iterate); its hash is of the canonical form.
 */
export function snapshotOf(doc: GameDoc, e: LogEntry, state: unknown, stateHash: string): Snapshot {
  return {
    seq: e.seq,
    entryHash: e.hash,
    rulesVersion: doc.rulesVersion ?? 1,
    stateHash,
    state: JSON.stringify(state),
  };
}

function differs(e: LogEntry, rules: AnyRules): string {
  return `After entry ${e.seq} (${e.text ?? e.kind}) the game replays to a different position than the players saw: the rules of ${rules.title} on this server changed without a new rules version.`;
}

function mixed(e: LogEntry, version: number): string {
  return `Entry ${e.seq} was applied under rules version ${e.rulesVersion}, the game under version ${version}; the server does not replay a game of mixed versions.`;
}
