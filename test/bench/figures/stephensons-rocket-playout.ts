// Random 3-player games of Stephenson's Rocket to the end. games_per_s is wall
// time; cpu_games_per_s (this process's CPU time) shows the same on a busy machine.
import type { Emit } from '../index';
import { stephensonsRocket } from '../../../rules/stephensons-rocket/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  const games = 400;
  for (let i = 0; i < 20; i++) randomPlayout(stephensonsRocket, 3, `warm-${i}`);
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(stephensonsRocket, 3, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  emit({ name: 'stephensons_rocket_playout', games, games_per_s: Math.round(games / s), cpu_games_per_s: Math.round(games / ((used.user + used.system) / 1e6)) });
}
