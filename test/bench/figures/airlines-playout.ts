// Random 4-player games of Airlines through the rules contract (target: 200 per second or more).
import type { Emit } from '../index';
import { airlines } from '../../../rules/airlines/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  for (let i = 0; i < 20; i++) randomPlayout(airlines, 4, `warm-${i}`);
  const games = 600;
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(airlines, 4, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  emit({ name: 'airlines_playout', games, games_per_s: Math.round(games / s) });
}
