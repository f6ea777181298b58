// Random playouts to the end as a bench figure: a few games first warm the
// JIT up (the first few dozen run at a fraction of the speed), then `games`
// are timed. games_per_s is wall-clock; cpu_games_per_s divides by this
// process's CPU time, the fairer figure on a shared, busy machine.
import type { AnyRules } from '../../rules/types.ts';
import { randomPlayout } from '../support/playout.ts';

export function timedPlayouts(rules: AnyRules, seats: number, warm: number, games: number, digits = 0) {
  for (let i = 0; i < warm; i++) randomPlayout(rules, seats, `warm-${i}`);
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let moves = 0;
  for (let i = 0; i < games; i++) moves += randomPlayout(rules, seats, `bench-${i}`).steps;
  const s = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const round = (x: number) => Math.round(x * 10 ** digits) / 10 ** digits;
  return {
    games,
    games_per_s: round(games / s),
    cpu_games_per_s: round(games / ((cpu.user + cpu.system) / 1e6)),
    moves_per_game: Math.round(moves / games),
  };
}
