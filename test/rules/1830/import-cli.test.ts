// The import-18xx command prints one JSON line with the replay report.
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../../../server/cli/import-18xx.ts';

const DIR = fileURLToPath(new URL('../../fixtures/18xx.games/1830/', import.meta.url));

describe('npm run cli -- import-18xx', () => {
  it('prints the report of a whole game compared with its checkpoints', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      out.push(String(chunk));
      return true;
    });
    try {
      const code = await run([`${DIR}29133.json`, '--checkpoints', `${DIR}checkpoints/29133.jsonl`]);
      expect(code).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const lines = out.join('').trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!);
    expect(Object.keys(report)).toEqual([
      'title',
      'actions',
      'applied',
      'finished',
      'endReason',
      'result',
      'stoppedAt',
      'firstDivergence',
    ]);
    expect(report).toMatchObject({
      title: '1830',
      actions: 450,
      finished: true,
      endReason: 'bankrupt',
      stoppedAt: null,
      firstDivergence: null,
    });
    expect(report.result).toEqual({ 4631: 1477, 4639: 951, 4836: 887, 1668: 416 });
  });
});

import { readFileSync } from 'node:fs';
import { import18xx } from '../../../rules/1830/import/index.ts';
import { game1830 } from '../../../rules/1830/index.ts';
import { RuleError } from '../../../rules/types.ts';

describe('import18xx for the server', () => {
  it('gives seats, options and our actions, which replay to the same end', () => {
    const text = readFileSync(`${DIR}29133.json`, 'utf8');
    const imp = import18xx(text);
    expect(imp.seats.map((s) => s.id)).toEqual(['4836', '4631', '4639', '1668']);
    expect(imp.report.stoppedAt).toBeNull();
    const state = game1830.setup(imp.seats.length, 'any seed', imp.options);
    for (const { seat, action } of imp.actions) game1830.apply(state, seat, JSON.parse(JSON.stringify(action)));
    expect(state.finished).toBe(true);
  });
  it('refuses what is not an export', () => {
    expect(() => import18xx('not json')).toThrow(RuleError);
    expect(() => import18xx({ players: [] })).toThrow(/not an 18xx.games export/);
    expect(() =>
      import18xx({
        title: '1889',
        players: [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
        actions: [],
      }),
    ).toThrow(/not 1830/);
  });
});
