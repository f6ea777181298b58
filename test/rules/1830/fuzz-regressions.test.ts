// Randomly played games of 18xx.games's own engine that our engine once refused (one per
// divergence found; test/fixtures/18xx.games/1830/fuzz/, written by the 18xx-oracle harness),
// replayed against 18xx.games's state at every round boundary.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import type { Checkpoint } from '../../../rules/1830/import/compare.ts';

const DIR = new URL('../../fixtures/18xx.games/1830/fuzz/', import.meta.url);
const NAMES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

// what each game made our engine refuse before it was fixed
const FOUND: Record<string, string> = {
  'fuzz-s1-3': 'a private bought from another player ended the turn that 18xx.games keeps open',
  'fuzz-s14-6': 'brown-zone shares refused after a private',
  'fuzz-s19-6': 'a second discarded 4-train refused',
};

describe.each(NAMES)('fuzzed game %s', (name) => {
  it(`replays with no divergence (${FOUND[name] ?? 'regression'})`, () => {
    const exp = JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as Export18xx;
    const cps = readFileSync(new URL(`${name}.jsonl`, DIR), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Checkpoint);
    const { report } = importExport(exp, cps);
    expect(report.stoppedAt).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(report.applied).toBe(exp.actions.length);
    expect(report.result).toEqual(exp.result);
  });
});
