// The two real 18xx.games games replayed through our engine, compared with their checkpoints.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { game1830 } from '../../../rules/1830/index.ts';
import type { Checkpoint } from '../../../rules/1830/import/compare.ts';

// The real games are kept in the repository (test/fixtures/18xx.games, MIT data from 18xx.games).
const DIR = new URL('../../fixtures/18xx.games/1830/', import.meta.url);

function load(name: string): { exp: Export18xx; cps: Checkpoint[] } {
  const exp = JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as Export18xx;
  const cps = readFileSync(new URL(`checkpoints/${name}.jsonl`, DIR), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Checkpoint);
  return { exp, cps };
}

const REACHED: Record<string, { reason: string }> = {
  '1830_game_end_bank': { reason: 'bank' },
  '29133': { reason: 'bankrupt' },
};

describe.each(Object.keys(REACHED))('replay of %s', (name) => {
  it('replays to the end with no divergence, the recorded result and end reason', () => {
    const { exp, cps } = load(name);
    const { report } = importExport(exp, cps);
    expect(report.stoppedAt).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(report.finished).toBe(true);
    expect(report.endReason).toBe(REACHED[name]!.reason);
    expect(report.result).toEqual(exp.result);
    expect(report.actions).toBe(exp.actions.length);
  });
});

// A third real game from the same public fixtures (tobymao/18xx public/fixtures/1830/26855.json,
// MIT), with the multiple_brown_from_ipo option; no checkpoints, but its final values.
describe('replay of 26855 (multiple_brown_from_ipo)', () => {
  it('replays to the end with the recorded result and end reason', () => {
    const exp = JSON.parse(
      readFileSync(new URL('../../fixtures/18xx.games/1830/26855.json', import.meta.url), 'utf8'),
    ) as Export18xx;
    const { report } = importExport(exp);
    expect(report.stoppedAt).toBeNull();
    expect(report.finished).toBe(true);
    expect(report.endReason).toBe('bankrupt');
    expect(report.result).toEqual(exp.result);
  });
});

// A running game moved onto our server: any prefix of an export imports, and play goes on.
describe('importing a game in progress', () => {
  it('accepts exports cut at many points and leaves a seat to act', () => {
    const { exp } = load('29133');
    for (let n = 1; n < exp.actions.length; n += 29) {
      const { report, state } = importExport({ ...exp, actions: exp.actions.slice(0, n), result: {} });
      expect(report.stoppedAt, `cut at ${n}`).toBeNull();
      if (!state.finished) expect(game1830.toAct(state).length, `cut at ${n}`).toBe(1);
    }
  });
});
