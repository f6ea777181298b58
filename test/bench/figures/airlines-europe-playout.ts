// Random 4-player Airlines Europe games to the end, through the rules contract.
// games_per_s is wall-clock; cpu_games_per_s divides by this process's CPU time,
// which is what one core does when the machine is busy with other work.
import type { Emit } from '../index';
import { airlinesEurope } from '../../../rules/airlines-europe/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  for (let i = 0; i < 30; i++) randomPlayout(airlinesEurope, 4, `warm-${i}`);
  const games = 600;
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(airlinesEurope, 4, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  emit({ name: 'airlines_europe_playout', games, games_per_s: Math.round(games / s), cpu_games_per_s: Math.round(games / cpuS) });
}
