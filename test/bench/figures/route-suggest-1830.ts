// The 1830 route suggestion over every run_routes of both real games: the
// board each corporation ran on, with the trains it owned then.
import type { Emit } from '../index.ts';
import { item } from '../../../rules/item.ts';
import { suggestRoutes, type Board, type PhaseName, type TrainInput } from '../../../rules/1830/track/index.ts';
import { GAMES, loadGame, replayBoard } from '../../rules/1830/track/real-games.ts';

export function run(emit: Emit): void {
  const cases: { board: Board; corp: string; phase: PhaseName; trains: TrainInput[] }[] = [];
  for (const name of GAMES) {
    replayBoard(loadGame(name), (s) => {
      if (s.action.type !== 'run_routes') return;
      const corp = s.action.entity as string;
      const owned = s.before!.corporations.find((c: any) => c.name === corp).trains as string[];
      cases.push({
        board: structuredClone(s.board),
        corp,
        phase: s.phase,
        trains: owned.map((n, k) => ({ id: `${n}-${k}`, distance: n === 'D' ? 999 : Number(n) })),
      });
    });
  }
  for (const c of cases) suggestRoutes(c.board, c.corp, c.phase, c.trains); // warm-up
  // each call timed 5 times and its median kept, so one scheduler hiccup on a
  // busy machine does not pose as the slowest suggestion
  const repeats = 5;
  const times: number[] = [];
  for (const c of cases) {
    const one: number[] = [];
    for (let r = 0; r < repeats; r++) {
      const t0 = performance.now();
      suggestRoutes(c.board, c.corp, c.phase, c.trains);
      one.push(performance.now() - t0);
    }
    one.sort((a, b) => a - b);
    times.push(item(one, Math.floor(repeats / 2)));
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => item(times, Math.min(times.length - 1, Math.ceil(q * times.length) - 1));
  emit({
    name: 'route_suggest_1830',
    calls: times.length,
    median_ms: Number(at(0.5).toFixed(3)),
    p99_ms: Number(at(0.99).toFixed(3)),
    max_ms: Number(at(1).toFixed(3)),
    repeats,
  });
}
