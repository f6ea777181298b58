// Greedy games (test/support/greedy.ts: eight sampled moves tried on copies at
// every decision) of the four games beside the uniform ones, as one figure each.
import type { Emit } from '../index.ts';
import type { AnyRules } from '../../../rules/types.ts';
import { airlines } from '../../../rules/airlines/index.ts';
import { airlinesEurope } from '../../../rules/airlines-europe/index.ts';
import { paperclipRailways } from '../../../rules/paperclip-railways/index.ts';
import { stephensonsRocket } from '../../../rules/stephensons-rocket/index.ts';
import { greedyPlayout } from '../../support/greedy.ts';

function timed(rules: AnyRules, seats: number, games: number) {
  greedyPlayout(rules, seats, 'warm');
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let moves = 0;
  for (let i = 0; i < games; i++) moves += greedyPlayout(rules, seats, `bench-${i}`).steps;
  const s = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    games,
    games_per_s: round(games / s),
    cpu_games_per_s: round(games / ((cpu.user + cpu.system) / 1e6)),
    moves_per_game: Math.round(moves / games),
  };
}

const GAMES = [
  [airlinesEurope, 4],
  [stephensonsRocket, 3],
  [airlines, 4],
  [paperclipRailways, 3],
] as const;

/** The figures this file emits (BENCH_ONLY matches figure names). */
export const figures = GAMES.map(([rules]) => `${rules.id}_greedy_playout`);

export function run(emit: Emit): void {
  for (const [rules, seats] of GAMES) {
    emit({ name: `${rules.id}_greedy_playout`, seats, ...timed(rules as AnyRules, seats, 5) });
  }
}
