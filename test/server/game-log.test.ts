// lastEffectiveMove looks from the end of the log (a long game costs the entries since the
// move); it must answer as effectiveMoves, which reads from the start, on any log.
import { describe, expect, it } from 'vitest';
import { seedRandom, randomInt } from '../../rules/random.ts';
import { effectiveMoves, lastEffectiveMove } from '../../server/game-log.ts';
import type { LogEntry } from '../../server/store/types.ts';

const entry = (seq: number, kind: LogEntry['kind'], seat?: number, data?: Record<string, unknown>) =>
  ({ seq, at: '', kind, seat, data, text: '', prev: '', hash: '', rulesVersion: 1 }) as LogEntry;

/** A log as the service writes it (every undo takes back the last move in force), with notes between. */
function playedLog(rng: ReturnType<typeof seedRandom>, length: number): LogEntry[] {
  const log: LogEntry[] = [];
  for (let seq = 1; seq <= length; seq++) {
    const r = randomInt(rng, 10);
    const last = effectiveMoves(log).at(-1);
    if (r < 3 && last) log.push(entry(seq, 'undo', last.seat, { undoes: last.seq }));
    else if (r < 5) log.push(entry(seq, 'notice'));
    else log.push(entry(seq, 'move', randomInt(rng, 3)));
  }
  return log;
}

describe('lastEffectiveMove', () => {
  it('answers as effectiveMoves on played logs, for the log and for each seat', () => {
    const rng = seedRandom('last-effective');
    for (let n = 0; n < 300; n++) {
      const log = playedLog(rng, 1 + randomInt(rng, 40));
      const moves = effectiveMoves(log);
      expect(lastEffectiveMove(log)?.seq).toBe(moves.at(-1)?.seq);
      for (const seat of [0, 1, 2])
        expect(lastEffectiveMove(log, seat)?.seq).toBe(moves.filter((m) => m.seat === seat).at(-1)?.seq);
    }
  });

  it('answers as effectiveMoves on logs whose undos do not name the last move (hand-made data)', () => {
    const rng = seedRandom('last-effective-odd');
    for (let n = 0; n < 300; n++) {
      const log = playedLog(rng, 1 + randomInt(rng, 30));
      // Undos naming any earlier entry, or none.
      for (const e of log)
        if (e.kind === 'undo' && randomInt(rng, 3) === 0) e.data = { undoes: randomInt(rng, e.seq + 1) || undefined };
      const moves = effectiveMoves(log);
      expect(lastEffectiveMove(log)?.seq).toBe(moves.at(-1)?.seq);
      expect(lastEffectiveMove(log, 1)?.seq).toBe(moves.filter((m) => m.seat === 1).at(-1)?.seq);
    }
  });
});
