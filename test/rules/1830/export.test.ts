// export-18xx: our 1830 games written as 18xx.games exports. The three real games round-trip:
// imported, exported, and the action list is the one 18xx.games wrote, field for field, where
// we hold the same information. A game played here exports and imports back to the same state.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { game1830 as g } from '../../../rules/1830/index.ts';
import { export18xx } from '../../../rules/1830/import/export.ts';
import { importExport } from '../../../rules/1830/import/replay.ts';
import { effectiveActions, type Raw18xxAction } from '../../../rules/1830/import/resolve.ts';
import { exportHistory } from '../../../server/export-18xx.ts';
import { run } from '../../../server/cli/export-18xx.ts';
import { randomGame, run as runRandom } from '../../../server/cli/random-1830.ts';
import { realGame } from './positions.ts';

/** What 18xx.games writes that we do not keep: ids, users, times, and what it derives (a route's hexes and revenue). */
// (auto_actions: programmed moves; the moves they made are in the list as actions of their own, as we export them)
const NOT_HELD = new Set([
  'id',
  'user',
  'created_at',
  'skip',
  'auto_actions',
  'hexes',
  'revenue',
  'revenue_str',
  'subsidy',
]);

function held(a: Raw18xxAction, keep: Set<string>): string {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(a).sort()) {
    if (NOT_HELD.has(k) || !keep.has(k)) continue;
    out[k] =
      k === 'routes' ? (a.routes as Raw18xxAction[]).map((r) => JSON.parse(held(r, new Set(Object.keys(r))))) : a[k];
  }
  return JSON.stringify(out);
}

describe('export-18xx round-trips the real 18xx.games games', () => {
  for (const name of ['29133', '26855', '1830_game_end_bank']) {
    it(`${name}: the same actions, the same result, and it imports back to the same state`, () => {
      const exp = realGame(name);
      const imported = importExport(exp);
      const out = export18xx({ players: exp.players, options: imported.options, log: imported.log, id: exp.id });
      const theirs = effectiveActions(exp.actions).map((e) => e.action);
      expect(out.actions).toHaveLength(theirs.length);
      out.actions.forEach((ours, i) => {
        // older exports have no `tokener` and `extra_revenue` (newer ones write the corporation and 0); we always do
        const keys = new Set(Object.keys(theirs[i]!));
        expect(held(ours, keys), `action ${i + 1}`).toBe(held(theirs[i]!, keys));
        expect(
          Object.keys(ours).filter((k) => !keys.has(k) && !['tokener', 'extra_revenue', 'id'].includes(k)),
        ).toEqual([]);
      });
      expect(out.result).toEqual(exp.result);
      expect(out.game_end_reason).toBe(exp.game_end_reason);
      expect(importExport(out).state).toEqual(imported.state);
    });
  }
});

/** A history.json of a finished game of ours: a random playout from the corpus, as the server writes it. */
function history(extra: { options?: object } = {}) {
  const game = JSON.parse(readFileSync(new URL('../../corpus/1830/v3/random-2p.json', import.meta.url), 'utf8')) as {
    seats: number;
    options: object;
    actions: [number, unknown, string][];
  };
  const log: Record<string, unknown>[] = [
    { seq: 1, kind: 'create' },
    { seq: 2, kind: 'start', data: { order: [1, 0] } },
  ];
  for (const [seat, action] of game.actions) log.push({ seq: log.length + 1, kind: 'move', seat, action });
  return {
    format: 'share-games-history/1',
    rules: '1830',
    rulesVersion: 3,
    options: game.options,
    seats: [
      { seat: 0, name: 'Ada' },
      { seat: 1, name: 'Bo' },
    ],
    log,
    ...extra,
    game,
  };
}

describe('export-18xx of a game played here', () => {
  it('writes every move and imports back to the state our engine reached', () => {
    const doc = history();
    const out = exportHistory(doc);
    expect(out.players).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Bo' },
    ]);
    const ours = g.setup(2, 'x', doc.options as never, 3);
    for (const [seat, action] of doc.game.actions) g.apply(ours, seat, action);
    const back = importExport(out);
    expect(back.report.stoppedAt).toBeNull();
    // An import plays under the current rules version (its board says 4); the moves reach the same state.
    expect((back.state.map as { version?: number }).version).toBe(4);
    expect({ ...back.state, map: { ...(back.state.map as object), version: 3 } }).toEqual(ours);
    expect(out.game_end_reason).toBe('bank');
    // 18xx.games's engine replayed this export to the end with this result (recorded with the oracle harness)
    expect(out.result).toEqual({ 1: 296, 2: 1607 });
  });

  it('leaves out an undone move', () => {
    const doc = history();
    const log = doc.log;
    const at = log.findIndex((e) => e.kind === 'move') + 1;
    log.splice(at, 0, { seq: 0, kind: 'move', seat: 1, action: { type: 'pass' } }, { seq: 0, kind: 'undo', data: {} });
    log.forEach((e, i) => {
      e.seq = i + 1;
    });
    (log[at + 1]!.data as Record<string, unknown>).undoes = at + 1;
    expect(exportHistory(doc).actions).toEqual(exportHistory(history()).actions);
  });

  it('refuses a running game whose download withholds moves, and another game', () => {
    const doc = history();
    const { action, ...hidden } = doc.log[5]!;
    doc.log[5] = { ...hidden, actionHash: 'x' };
    expect(() => exportHistory(doc)).toThrow(/withheld/);
    expect(() => exportHistory({ ...history(), rules: 'airlines' })).toThrow(/not of 1830/);
  });

  it('the command writes the export to a file or stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-18xx-'));
    try {
      const file = join(dir, 'history.json');
      const { game: _game, ...doc } = history();
      (await import('node:fs')).writeFileSync(file, JSON.stringify(doc));
      expect(await run([file, '--out', join(dir, 'out.json')])).toBe(0);
      const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
      expect(out.title).toBe('1830');
      const chunks: string[] = [];
      const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c: unknown) => {
        chunks.push(String(c));
        return true;
      });
      const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        expect(await run([file])).toBe(0);
        expect(await run([join(dir, 'missing.json')]).catch(() => 'threw')).toBe('threw');
      } finally {
        spy.mockRestore();
        err.mockRestore();
      }
      expect(JSON.parse(chunks.join(''))).toEqual(out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('random-1830: random games of ours as exports, for 18xx.games to replay', () => {
  it('writes a finished game that imports back to the state our engine reached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'random-1830-'));
    const chunks: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c: unknown) => {
      chunks.push(String(c));
      return true;
    });
    try {
      expect(await runRandom(['1', dir, '--from', '5'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    try {
      const line = JSON.parse(chunks.join(''));
      expect(line).toMatchObject({ seats: 2, end: 'bank', phase: 'D' });
      const exp = JSON.parse(readFileSync(join(dir, 'random-1830-5.json'), 'utf8'));
      const { seats, options, log } = randomGame(5);
      const ours = g.setup(seats, 'x', options);
      for (const { seat, action } of log) g.apply(ours, seat, action);
      const back = importExport(exp);
      expect(back.report.stoppedAt).toBeNull();
      expect(back.state).toEqual(ours);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
