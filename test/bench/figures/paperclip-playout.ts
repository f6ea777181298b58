// Random playouts of Paperclip Railways (4 players, Metropolis) through the rules contract.
import type { Emit } from '../index.ts';
import { paperclipRailways } from '../../../rules/paperclip-railways/index.ts';
import { timedPlayouts } from '../playouts.ts';

export function run(emit: Emit): void {
  const { moves_per_game: _, ...figure } = timedPlayouts(paperclipRailways, 4, 10, 40, 1);
  emit({ name: 'paperclip_playout', ...figure });
}
