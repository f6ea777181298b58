// A baseline: random playouts of the small test game, to see the harness cost.
import type { Emit } from '../index.ts';
import { highCard } from '../../support/high-card.ts';
import { timedPlayouts } from '../playouts.ts';

export function run(emit: Emit): void {
  const { games, games_per_s } = timedPlayouts(highCard, 4, 0, 2000);
  emit({ name: 'high_card_playout', games, games_per_s });
}
