// Random playouts of Paperclip Railways (4 players, Metropolis) through the rules contract.
// Ten games first warm the JIT up (the first few dozen games run at a third of
// the speed); `cpu_games_per_s` counts this process's CPU time, which is the
// fairer figure on a shared, busy machine.
import type { Emit } from '../index';
import { paperclipRailways } from '../../../rules/paperclip-railways/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  for (let i = 0; i < 10; i++) randomPlayout(paperclipRailways, 4, `warm-${i}`);
  const games = 40;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(paperclipRailways, 4, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  emit({
    name: 'paperclip_playout',
    games,
    games_per_s: Math.round((games / s) * 10) / 10,
    cpu_games_per_s: Math.round((games / cpuS) * 10) / 10,
  });
}
