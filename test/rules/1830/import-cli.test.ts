// The import-18xx command prints one JSON line with the replay report.
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../../server/cli/import-18xx';

const DIR = fileURLToPath(new URL('../../../../shared/fixtures/18xx.games/1830/', import.meta.url));

describe('npm run cli -- import-18xx', () => {
  it('prints the report of a whole game compared with its checkpoints', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => { out.push(String(chunk)); return true; });
    try {
      const code = await run([`${DIR}29133.json`, '--checkpoints', `${DIR}checkpoints/29133.jsonl`]);
      expect(code).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const lines = out.join('').trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!);
    expect(Object.keys(report)).toEqual(['title', 'actions', 'applied', 'finished', 'endReason', 'result', 'stoppedAt', 'firstDivergence']);
    expect(report).toMatchObject({ title: '1830', actions: 450, finished: true, endReason: 'bankrupt', stoppedAt: null, firstDivergence: null });
    expect(report.result).toEqual({ 4631: 1477, 4639: 951, 4836: 887, 1668: 416 });
  });
});
