// The game log's pure rules: sealing entries, which moves are in force after
// undos, replaying a game from its seed, the simultaneous-move rule, the
// seat order drawn from the seed, and the plain-words lines of the history.
// No I/O: the game service (service.ts) and the verifier (verify.ts) use it.
import type { AnyRules, Opaque, Options, Seat } from '../rules/types.ts';
import { seedRandom, shuffle } from '../rules/random.ts';
import { ServiceError } from './errors.ts';
import { sealEntry } from './store/chain.ts';
import type { GameDoc, LogEntry, ReminderPolicy } from './store/types.ts';
import type { HistoryLine } from './service.ts';
import { escapeMarkup } from '../rules/escape.ts';

export const STATE_KINDS = new Set(['start', 'move', 'undo']);

/** Play order drawn from the seed: element i is the index (in join order) of the player in seat i. */
export function seatOrder(seed: string, players: number): number[] {
  return shuffle(
    seedRandom(`seat-order:${seed}`),
    Array.from({ length: players }, (_, i) => i),
  );
}

export function append(doc: GameDoc, entry: Omit<LogEntry, 'seq' | 'prev' | 'hash'>): LogEntry {
  return pushEntry(doc.log, entry);
}

/**
 * Seals an entry onto the log. It records the rules version that applies it:
 * as given (the create entry gives the game's), else the version of the entry
 * before it (a game keeps its version; entries stored before versions existed
 * count as version 1).
 */
export function pushEntry(log: LogEntry[], entry: Omit<LogEntry, 'seq' | 'prev' | 'hash'>): LogEntry {
  const clean = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as Omit<
    LogEntry,
    'seq' | 'prev' | 'hash'
  >;
  clean.rulesVersion ??= log[log.length - 1]?.rulesVersion ?? 1;
  const sealed = sealEntry(log, clean);
  log.push(sealed);
  return sealed;
}

export function lastStateSeq(log: LogEntry[]): number {
  for (let i = log.length - 1; i >= 0; i--) if (STATE_KINDS.has(log[i]!.kind)) return log[i]!.seq;
  return 0;
}

/** The move entries still in force after entry `upto` (undo entries remove the latest). */
export function effectiveMoves(log: LogEntry[], upto = Infinity): LogEntry[] {
  const stack: LogEntry[] = [];
  for (const e of log) {
    if (e.seq > upto) break;
    if (e.kind === 'move') stack.push(e);
    else if (e.kind === 'undo') {
      const top = stack[stack.length - 1];
      if (top && top.seq === e.data?.undoes) stack.pop();
    }
  }
  return stack;
}

/**
 * The last move still in force (of `seat`, if given), looked for from the end of the log, so
 * that a long game costs the entries since that move. Each undo met on the way names the move
 * it took back; a log where they do not nest as effectiveMoves takes them (never written here)
 * is read from the start instead, so the answer is always effectiveMoves'.
 */
export function lastEffectiveMove(log: LogEntry[], seat?: Seat): LogEntry | undefined {
  const undone: unknown[] = [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!;
    if (e.kind === 'undo') undone.push(e.data?.undoes);
    else if (e.kind !== 'move') continue;
    else if (undone.length === 0) {
      if (seat === undefined || e.seat === seat) return e;
    } else if (undone[undone.length - 1] === e.seq) undone.pop();
    else return lastFromStart(log, seat);
  }
  return undone.length === 0 ? undefined : lastFromStart(log, seat);
}

function lastFromStart(log: LogEntry[], seat?: Seat): LogEntry | undefined {
  return effectiveMoves(log)
    .filter((e) => seat === undefined || e.seat === seat)
    .pop();
}

/** Replays setup and the moves in force up to entry `upto`; null if the game had not started by then. */
export function replayState(doc: GameDoc, rules: AnyRules, upto: number): Opaque | null {
  const start = doc.log.find((e) => e.kind === 'start');
  if (!start || start.seq > upto) return null;
  const seats = (start.data?.order as number[] | undefined)?.length ?? doc.seats.length;
  const state = rules.setup(seats, doc.seed, doc.options, doc.rulesVersion ?? 1);
  for (const e of effectiveMoves(doc.log, upto)) {
    try {
      rules.apply(state, e.seat!, structuredClone(e.action));
    } catch (err) {
      throw new Error(`entry ${e.seq} does not apply: ${(err as Error).message}`);
    }
  }
  return state;
}

/**
 * The simultaneous-move rule: a move made against an older seq is taken when
 * every state change since was another seat's move, the seat was asked to act
 * at that seq and still must act. Two clicks on one link never make two moves:
 * the seat's own move since makes the older seq stale.
 */
export function acceptsOlderSeq(log: LogEntry[], seq: number, current: number, seat: Seat, toAct: Seat[]): boolean {
  if (!Number.isInteger(seq) || seq <= 0 || seq >= current) return false;
  const at = log[seq - 1];
  if (!at || !STATE_KINDS.has(at.kind)) return false;
  const askedThen = (at.data?.toAct as Seat[] | undefined) ?? [];
  if (!askedThen.includes(seat) || askedThen.length < 2 || !toAct.includes(seat)) return false;
  for (let i = seq; i < log.length; i++) {
    const e = log[i]!;
    if (!STATE_KINDS.has(e.kind)) continue;
    if (e.kind !== 'move' || e.seat === seat) return false;
  }
  return true;
}

export function nextWait(
  doc: GameDoc,
  old: GameDoc['wait'],
  toAct: Seat[],
  stateSeq: number,
  now: string,
): GameDoc['wait'] {
  if (doc.status !== 'active') return null;
  const keep = old && toAct.length > 0 && toAct.every((s) => old.toAct.includes(s));
  if (keep) return { ...old, toAct, stateSeq };
  return { toAct, since: now, stateSeq, reminders: 0, escalated: false };
}

/**
 * Rules do not know players' names: a describe() line names another seat as
 * `{seat:N}` (0-based play order) and the server writes the name in here, at
 * the time the line is shown, so a reopened seat shows its new player. A
 * picture with fixed room for a name writes `{seat:N:W}`: the name cut to at
 * most W characters, an ellipsis ending one that was cut.
 */
export function nameSeats(text: string, doc: GameDoc): string {
  return text.replace(SEAT, (_, n: string, room?: string) => seatName(doc, Number(n), room));
}

/** `{seat:N}` in a picture's markup as the players' names (escaped for markup), as nameSeats does for words. */
export function nameSeatsInMarkup(markup: string, doc: GameDoc): string {
  return markup.includes('{seat:')
    ? markup.replace(SEAT, (_, n: string, room?: string) => escapeMarkup(seatName(doc, Number(n), room)))
    : markup;
}

const SEAT = /\{seat:(\d+)(?::(\d+))?\}/g;

function seatName(doc: GameDoc, n: number, room: string | undefined): string {
  const name = doc.seats[n]?.name ?? `Seat ${n + 1}`;
  const max = room === undefined ? Infinity : Math.max(2, Number(room));
  // Cut by code points, so a name never ends in half an emoji.
  const chars = [...name];
  return chars.length <= max
    ? name
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

export function lineOf(doc: GameDoc, e: LogEntry): HistoryLine {
  let text = nameSeats(e.text ?? e.kind, doc);
  if ((e.kind === 'move' || e.kind === 'undo') && e.seat !== undefined) {
    const by = (e.data?.by as string | undefined) ?? doc.seats[e.seat]?.name ?? `Seat ${e.seat + 1}`;
    text = `${by} ${text}${e.data?.auto ? ' (played by the server after the time ran out)' : ''}`;
  }
  return { seq: e.seq, at: e.at, kind: e.kind, seat: e.seat ?? null, text };
}

export function describePolicy(p: ReminderPolicy): string {
  if (!(p.remindAfterHours > 0)) return 'Reminders are off';
  const then = p.onTimeout === 'autoMove' ? 'then the server plays for the seat' : 'then everyone is told';
  return `Reminders after ${p.remindAfterHours} h, every ${p.repeatHours} h, at most ${p.maxReminders}, ${then}`;
}

export function checkOptions(rules: AnyRules, given: Record<string, unknown>): Options {
  const out: Options = {};
  const specs = rules.options ?? [];
  for (const key of Object.keys(given)) {
    if (!specs.some((s) => s.id === key)) throw new ServiceError(400, `${rules.title} has no option "${key}".`);
  }
  for (const spec of specs) {
    const v = given[spec.id];
    if (spec.kind === 'boolean') {
      if (v === undefined) out[spec.id] = spec.default;
      else if (typeof v === 'boolean') out[spec.id] = v;
      else if (v === 'true' || v === 'on' || v === '1') out[spec.id] = true;
      else if (v === 'false' || v === 'off' || v === '0' || v === '') out[spec.id] = false;
      else throw new ServiceError(400, `Option "${spec.label}" is yes or no.`);
    } else {
      if (v === undefined) out[spec.id] = spec.default;
      else if (typeof v === 'string' && spec.choices.some((c) => c.value === v)) out[spec.id] = v;
      else
        throw new ServiceError(
          400,
          `Option "${spec.label}" must be one of: ${spec.choices.map((c) => c.label).join(', ')}.`,
        );
    }
  }
  return out;
}
