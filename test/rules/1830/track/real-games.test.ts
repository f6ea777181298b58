// The oracle: both real games from 18xx.games replayed on the map module.
// After every action our tiles and stations equal the checkpoint's; every
// run_routes is valid here with the same revenue; our suggestion for the
// corporation's trains is at least that revenue.
import { describe, expect, it } from 'vitest';
import {
  runRoutes,
  routesFrom18xx,
  routesFromText,
  routesToText,
  suggestRoutes,
  type TrainInput,
} from '../../../../rules/1830/track/index.ts';
import { GAMES, boardSummary, checkpointSummary, loadGame, replayBoard } from './real-games.ts';

const distance = (name: string) => (name === 'D' ? 999 : Number(name));
/** The distance of a train id "4-1" (its name before the dash). */
const distanceOf = (id: string) => distance(id.replace(/-.*/, ''));
const sorted = (o: Record<string, unknown>) => JSON.stringify(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

describe('1830 map module against the real games', () => {
  for (const name of GAMES) {
    it(`${name}: tiles and stations match every checkpoint`, () => {
      const game = loadGame(name);
      const diffs: string[] = [];
      let lays = 0;
      let tokens = 0;
      replayBoard(game, (s) => {
        if (s.action.type === 'lay_tile') lays++;
        if (s.action.type === 'place_token') tokens++;
        const ours = boardSummary(s.board);
        const theirs = checkpointSummary(s.after);
        if (sorted(ours.tiles) !== sorted(theirs.tiles))
          diffs.push(`${s.action.id} tiles ${sorted(ours.tiles)} vs ${sorted(theirs.tiles)}`);
        if (sorted(ours.tokens) !== sorted(theirs.tokens))
          diffs.push(`${s.action.id} tokens ${sorted(ours.tokens)} vs ${sorted(theirs.tokens)}`);
      });
      expect(diffs.slice(0, 3)).toEqual([]);
      expect(lays).toBeGreaterThan(20);
      expect(tokens).toBeGreaterThan(5);
    });

    it(`${name}: every run_routes validates with the recorded revenue and the suggestion is at least as good`, () => {
      const game = loadGame(name);
      const problems: string[] = [];
      let runs = 0;
      replayBoard(game, (s) => {
        if (s.action.type !== 'run_routes') return;
        runs++;
        const corp = s.action.entity as string;
        const recorded = (s.action.routes as { revenue: number }[]).reduce((a, r) => a + r.revenue, 0);
        const routes = routesFrom18xx(s.action as any);
        const owned = (s.before!.corporations.find((c: any) => c.name === corp).trains as string[]).map((n, k) => ({
          id: `${n}-${k}`,
          distance: distance(n),
        }));
        const ran: TrainInput[] = routes.map((r) => ({ id: r.train, distance: distanceOf(r.train) }));
        try {
          const res = runRoutes(s.board, corp, s.phase, ran, routes);
          if (res.revenue !== recorded) problems.push(`${s.action.id}: ours ${res.revenue}, recorded ${recorded}`);
          const typed = runRoutes(s.board, corp, s.phase, ran, routesFromText(routesToText(routes)));
          if (typed.revenue !== recorded)
            problems.push(`${s.action.id}: as text ${routesToText(routes)} gives ${typed.revenue}`);
          (s.action.routes as { revenue: number }[]).forEach((r, i) => {
            if (res.routes[i]?.revenue !== r.revenue)
              problems.push(`${s.action.id}: route ${i} ours ${res.routes[i]?.revenue}, recorded ${r.revenue}`);
          });
        } catch (e) {
          problems.push(`${s.action.id}: refused: ${(e as Error).message}`);
        }
        const best = suggestRoutes(s.board, corp, s.phase, owned);
        if (best.revenue < recorded) problems.push(`${s.action.id}: suggestion ${best.revenue} < recorded ${recorded}`);
        const again = runRoutes(s.board, corp, s.phase, owned, best.routes);
        if (again.revenue !== best.revenue)
          problems.push(`${s.action.id}: suggestion does not validate to its own revenue`);
      });
      expect(problems).toEqual([]);
      expect(runs).toBeGreaterThan(20);
    });
  }
});

describe('1830 map module against a third real game (no checkpoints)', () => {
  it('26855: every lay and station is legal, every run pays as recorded, the suggestion is at least as good', async () => {
    const { readFileSync } = await import('node:fs');
    const { replayOpenGame } = await import('./real-games.ts');
    const exp = JSON.parse(
      readFileSync(new URL('../../../fixtures/18xx.games/1830/26855.json', import.meta.url), 'utf8'),
    );
    const problems: string[] = [];
    let runs = 0;
    const board = replayOpenGame(exp.actions, (s) => {
      if (s.action.type !== 'run_routes') return;
      runs++;
      const corp = s.action.entity as string;
      const recorded = (s.action.routes as { revenue: number }[]).reduce((a, r) => a + r.revenue, 0);
      const routes = routesFrom18xx(s.action as any);
      const ran = routes.map((r) => ({ id: r.train, distance: distanceOf(r.train) }));
      try {
        const res = runRoutes(s.board, corp, s.phase, ran, routes);
        if (res.revenue !== recorded) problems.push(`${s.action.id}: ours ${res.revenue}, recorded ${recorded}`);
      } catch (e) {
        problems.push(`${s.action.id}: refused: ${(e as Error).message}`);
      }
      const owned = (s.trains[corp] ?? []).map((id) => ({ id, distance: distanceOf(id) }));
      const best = suggestRoutes(s.board, corp, s.phase, owned.length ? owned : ran);
      if (best.revenue < recorded) problems.push(`${s.action.id}: suggestion ${best.revenue} < recorded ${recorded}`);
    });
    expect(problems).toEqual([]);
    expect(runs).toBeGreaterThan(40);
    expect(Object.keys(board.tiles).length).toBeGreaterThan(20);
  });
});
