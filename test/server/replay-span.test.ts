// A replay reads only the entries after the position it starts from (a snapshot, a state held in
// memory, or the seed): the moves in force since then, the versions the entries were applied
// under, the last recorded hash. Hand-set logs of a tiny counting game, checked against the
// reading from the start (effectiveMoves) on every log and position.
import { describe, expect, it } from 'vitest';
import { randomInt, seedRandom } from '../../rules/random.ts';
import type { AnyRules } from '../../rules/types.ts';
import { effectiveMoves } from '../../server/game-log.ts';
import { lastStateEntry, movesSince } from '../../server/log-index.ts';
import { historyLines, recentLines } from '../../server/game-reading.ts';
import { replayTo, snapshotOf } from '../../server/replay.ts';
import { hashState } from '../../server/state-hash.ts';
import type { LoadedGame } from '../../server/service.ts';
import type { GameDoc, LogEntry, Snapshot } from '../../server/store/types.ts';

interface Tally {
  added: number[];
}

/** Each move adds its number to the tally; a negative number no longer applies. */
const tally = {
  id: 'tally',
  title: 'Tally',
  version: 2,
  players: { min: 1, max: 4 },
  setup: (): Tally => ({ added: [] }),
  toAct: () => [0],
  apply(state: Tally, _seat: number, action: { n: number }) {
    if (action.n < 0) throw new Error('no negative numbers');
    state.added.push(action.n);
  },
  moves: () => [],
  view: (state: Tally) => state,
  outcome: () => null,
  describe: () => '',
} as unknown as AnyRules;

const SEED = 'tally-seed';

function entry(seq: number, kind: LogEntry['kind'], more: Partial<LogEntry> = {}): LogEntry {
  return { seq, at: '', kind, text: kind, prev: '', hash: `h${seq}`, rulesVersion: 1, ...more } as LogEntry;
}

function docOf(log: LogEntry[], rulesVersion = 1): GameDoc {
  return { id: 'g', rules: 'tally', rulesVersion, seed: SEED, options: {}, seats: [{}], log } as unknown as GameDoc;
}

/** The state after `upto` as the whole log says it: every move in force, from the start. */
function fromStart(log: LogEntry[], upto: number): Tally {
  const state: Tally = { added: [] };
  for (const m of effectiveMoves(log, upto)) state.added.push((m.action as { n: number }).n);
  return state;
}

const hashOf = (state: Tally) => hashState(SEED, state).hash;

function snapshotAt(doc: GameDoc, seq: number): Snapshot {
  const state = fromStart(doc.log, seq);
  return snapshotOf(doc, doc.log[seq - 1]!, state, hashOf(state));
}

/**
 * A log as the service writes it: created, started, then moves, take-backs of the latest move in
 * force (sometimes several in a row), and notes; each state entry records the state's hash.
 */
function playedLog(rng: ReturnType<typeof seedRandom>, length: number, oddUndos = false): LogEntry[] {
  const log = [entry(1, 'create'), entry(2, 'start', { data: { order: [0] } })];
  for (let seq = 3; seq <= length; seq++) {
    const r = randomInt(rng, 10);
    const last = effectiveMoves(log).at(-1);
    if (r < 3 && last) log.push(entry(seq, 'undo', { seat: 0, data: { undoes: last.seq } }));
    else if (r < 4 && oddUndos) log.push(entry(seq, 'undo', { seat: 0, data: { undoes: randomInt(rng, seq) } }));
    else if (r < 6) log.push(entry(seq, 'notice'));
    else log.push(entry(seq, 'move', { seat: 0, action: { n: seq } }));
  }
  for (const e of log) if (e.kind !== 'notice' && e.kind !== 'create') e.stateHash = hashOf(fromStart(log, e.seq));
  return log;
}

describe('movesSince', () => {
  it('answers as effectiveMoves after any move, and null exactly when that move was taken back', () => {
    const rng = seedRandom('moves-since');
    for (let n = 0; n < 200; n++) {
      const log = playedLog(rng, 3 + randomInt(rng, 60), n % 2 === 1);
      const upto = 1 + randomInt(rng, log.length + 2);
      const inForce = effectiveMoves(log, upto);
      for (const from of [0, 2, ...log.filter((e) => e.kind === 'move' && e.seq <= upto).map((e) => e.seq)]) {
        const since = movesSince(log, from, upto);
        const lost = log[from - 1]?.kind === 'move' && !inForce.some((m) => m.seq === from);
        if (lost) expect(since, `from ${from} to ${upto}`).toBeNull();
        else expect(since?.map((m) => m.seq)).toEqual(inForce.filter((m) => m.seq > from).map((m) => m.seq));
      }
    }
  });
});

describe('the log index', () => {
  it('answers on a log array as it grows, and on one cut short and grown again, as a fresh reading does', () => {
    const rng = seedRandom('log-index');
    const whole = playedLog(rng, 120);
    const log: LogEntry[] = [];
    const check = () => {
      const upto = 1 + randomInt(rng, log.length);
      const from = [0, ...log.filter((e) => e.kind === 'move' && e.seq <= upto).map((e) => e.seq)];
      const at = from[randomInt(rng, from.length)]!;
      expect(movesSince(log, at, upto)).toEqual(movesSince([...log], at, upto));
      expect(lastStateEntry(log, upto)).toBe(
        log.findLast((e) => e.seq <= upto && e.kind !== 'notice' && e.kind !== 'create'),
      );
    };
    for (const e of whole) {
      log.push(e);
      check();
    }
    // Cut back to 60 entries, then grown with other ones: notes where the moves were.
    log.length = 60;
    check();
    for (let seq = 61; seq <= 90; seq++) {
      log.push(entry(seq, 'notice'));
      check();
    }
  });
});

describe('replayTo from a snapshot or a state held', () => {
  it('reaches the state the whole log gives, from any snapshot and any state held, and says where it started', () => {
    const rng = seedRandom('replay-span');
    for (let n = 0; n < 150; n++) {
      const doc = docOf(playedLog(rng, 3 + randomInt(rng, 80)));
      const log = doc.log;
      const upto = 2 + randomInt(rng, log.length - 1);
      const want = JSON.stringify(fromStart(log, upto));
      const inForce = new Set(effectiveMoves(log, upto).map((m) => m.seq));
      const starts = [2, ...log.filter((e) => e.kind === 'move').map((e) => e.seq)];
      const seq = starts[randomInt(rng, starts.length)]!;
      const usable = seq === 2 || (seq <= upto && inForce.has(seq));
      const fromSnapshot = replayTo(doc, tally, upto, { base: snapshotAt(doc, seq) });
      expect(fromSnapshot.problem).toBeNull();
      expect(JSON.stringify(fromSnapshot.state)).toBe(want);
      expect(fromSnapshot.from).toBe(usable ? seq : 0);
      const held = replayTo(doc, tally, upto, { live: { seq, state: fromStart(log, seq) } });
      expect(held.problem).toBeNull();
      expect(JSON.stringify(held.state)).toBe(want);
      expect(held.from).toBe(usable ? seq : 0);
    }
  });

  it('passes over a snapshot whose move was taken back after it, and keeps one when only later moves were', () => {
    // Moves at 3 to 10, a snapshot after 8.
    const log = [entry(1, 'create'), entry(2, 'start', { data: { order: [0] } })];
    for (let seq = 3; seq <= 10; seq++) log.push(entry(seq, 'move', { seat: 0, action: { n: seq } }));
    const doc = docOf(log);
    const snap = snapshotAt(doc, 8);
    const undo = (undoes: number) => log.push(entry(log.length + 1, 'undo', { seat: 0, data: { undoes } }));
    // 10 and 9 taken back: the snapshot after 8 still holds.
    undo(10);
    undo(9);
    let r = replayTo(doc, tally, log.length, { base: snap });
    expect(r.from).toBe(8);
    expect(r.state).toEqual({ added: [3, 4, 5, 6, 7, 8] });
    // 8 taken back as well, then 14 played: from the seed, without 8.
    undo(8);
    log.push(entry(14, 'move', { seat: 0, action: { n: 14 } }));
    r = replayTo(doc, tally, log.length, { base: snap });
    expect(r.from).toBe(0);
    expect(r.state).toEqual({ added: [3, 4, 5, 6, 7, 14] });
    // A step before the take-back still starts from it.
    r = replayTo(doc, tally, 12, { base: snap });
    expect(r.from).toBe(8);
    expect(r.state).toEqual({ added: [3, 4, 5, 6, 7, 8] });
    // An undo that names another move than the latest in force takes nothing back (as effectiveMoves reads it).
    log.push(entry(15, 'undo', { seat: 0, data: { undoes: 8 } }));
    r = replayTo(doc, tally, log.length, { base: snapshotAt(doc, 14) });
    expect(r.from).toBe(14);
    expect(r.state).toEqual({ added: [3, 4, 5, 6, 7, 14] });
  });

  it('still finds a position that differs from the recorded hash after the state held', () => {
    const log = playedLog(seedRandom('differs'), 40);
    const last = log.findLast((e) => e.kind === 'move')!;
    last.stateHash = 'not-what-was-played';
    const doc = docOf(log);
    const r = replayTo(doc, tally, log.length, { live: { seq: 2, state: { added: [] } } });
    expect(r.state).toBeNull();
    expect(r.problem).toMatch(/replays to a different position/);
  });
});

describe('replayTo and rules versions', () => {
  /** Twenty entries of version 1, the twelfth (a note) of `other`. */
  function mixedLog(other: number): GameDoc {
    const log = [entry(1, 'create'), entry(2, 'start', { data: { order: [0] } })];
    for (let seq = 3; seq <= 20; seq++)
      log.push(
        seq === 12
          ? entry(seq, 'notice', { rulesVersion: other })
          : entry(seq, 'move', { seat: 0, action: { n: seq } }),
      );
    return docOf(log);
  }

  it('refuses a game whose entries carry two versions from the first entry of the other on, from any start', () => {
    const doc = mixedLog(2);
    expect(replayTo(doc, tally, 11).problem).toBeNull();
    const mixed =
      'Entry 12 was applied under rules version 2, the game under version 1; the server does not replay a game of mixed versions.';
    for (const upto of [12, 15, 20]) {
      expect(replayTo(doc, tally, upto).problem).toBe(mixed);
      // A snapshot or a state held after the entry does not hide it.
      expect(replayTo(doc, tally, upto, { base: snapshotAt(doc, upto) }).problem).toBe(mixed);
      expect(replayTo(doc, tally, upto, { live: { seq: upto, state: fromStart(doc.log, upto) } }).problem).toBe(mixed);
    }
    // A version this server lacks is named as such.
    expect(replayTo(mixedLog(3), tally, 20).problem).toBe(
      'Entry 12 was played under version 3 of the rules of Tally; this server has only version 2. It needs the newer server to go on.',
    );
  });

  it('sees an entry of another version appended to a log it has read before', () => {
    const doc = mixedLog(1);
    expect(replayTo(doc, tally, 20).problem).toBeNull();
    doc.log.push(entry(21, 'notice'), entry(22, 'move', { seat: 0, action: { n: 22 }, rulesVersion: 2 }));
    expect(replayTo(doc, tally, 21).problem).toBeNull();
    expect(replayTo(doc, tally, 22, { base: snapshotAt(doc, 20) }).problem).toMatch(
      /^Entry 22 was applied under rules version 2/,
    );
    // The game's own version counts: a game of version 2 with entries of 1 is refused at its first entry.
    expect(replayTo({ ...doc, rulesVersion: 2 }, tally, 22).problem).toMatch(
      /^Entry 1 was applied under rules version 1/,
    );
  });
});

describe('recentLines', () => {
  it('ends as historyLines up to any entry (mail settings left out), reading back from it', () => {
    const log = playedLog(seedRandom('recent-lines'), 60);
    for (const e of log) if (e.seq % 7 === 0) e.kind = 'prefs';
    const game = { doc: { ...docOf(log), seats: [{ name: 'Ada' }] } } as unknown as LoadedGame;
    for (const upto of [1, 2, 7, 8, 30, 60, 99, Infinity])
      for (const count of [1, 8, 100])
        expect(recentLines(game, upto, count)).toEqual(historyLines(game, upto).slice(-count));
  });
});
