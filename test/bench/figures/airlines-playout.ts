// Random 4-player games of Airlines through the rules contract (target: 200 per second or more).
// games_per_s is wall-clock; cpu_games_per_s divides by this process's CPU time,
// which is what one core does when the machine is busy with other work.
import type { Emit } from '../index';
import { airlines } from '../../../rules/airlines/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  for (let i = 0; i < 20; i++) randomPlayout(airlines, 4, `warm-${i}`);
  const games = 600;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let moves = 0;
  for (let i = 0; i < games; i++) moves += randomPlayout(airlines, 4, `bench-${i}`).steps;
  const s = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuS = (used.user + used.system) / 1e6;
  emit({
    name: 'airlines_playout',
    games,
    games_per_s: Math.round(games / s),
    cpu_games_per_s: Math.round(games / cpuS),
    moves_per_game: Math.round(moves / games),
  });
}
