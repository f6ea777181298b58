// A baseline: random playouts of the small test game, to see the harness cost.
import type { Emit } from '../index';
import { highCard } from '../../support/high-card';
import { timedPlayouts } from '../playouts';

export function run(emit: Emit): void {
  const { games, games_per_s } = timedPlayouts(highCard, 4, 0, 2000);
  emit({ name: 'high_card_playout', games, games_per_s });
}
