// A baseline: random playouts of the small test game, to see the harness cost.
import type { Emit } from '../index';
import { highCard } from '../../support/high-card';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  const games = 2000;
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(highCard, 4, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  emit({ name: 'high_card_playout', games, games_per_s: Math.round(games / s) });
}
