// The two real 18xx.games games replayed through our engine, compared with their checkpoints.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay';
import type { Checkpoint } from '../../../rules/1830/import/compare';

const DIR = new URL('../../../../shared/fixtures/18xx.games/1830/', import.meta.url);

function load(name: string): { exp: Export18xx; cps: Checkpoint[] } {
  const exp = JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as Export18xx;
  const cps = readFileSync(new URL(`checkpoints/${name}.jsonl`, DIR), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Checkpoint);
  return { exp, cps };
}

// The engine agrees with 18xx.games at least up to these action ids; raise them as it grows.
const REACHED: Record<string, number> = { '1830_game_end_bank': 27, '29133': 43 };

describe.each(Object.keys(REACHED))('replay of %s', (name) => {
  it('has no divergence from the checkpoints up to the reached point', () => {
    const { exp, cps } = load(name);
    const { report } = importExport(exp, cps);
    const reached = REACHED[name]!;
    if (report.firstDivergence) expect(report.firstDivergence.id, JSON.stringify(report.firstDivergence)).toBeGreaterThanOrEqual(reached);
    if (report.stoppedAt) expect(report.stoppedAt.id, JSON.stringify(report.stoppedAt)).toBeGreaterThan(reached);
    if (!report.stoppedAt && !report.firstDivergence) {
      expect(report.finished).toBe(true);
      expect(report.result).toEqual(exp.result);
    }
  });
});
