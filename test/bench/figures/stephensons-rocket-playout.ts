// Random 3-player games of Stephenson's Rocket to the end, through the rules contract.
import type { Emit } from '../index.ts';
import { stephensonsRocket } from '../../../rules/stephensons-rocket/index.ts';
import { timedPlayouts } from '../playouts.ts';

export function run(emit: Emit): void {
  const { moves_per_game: _, ...figure } = timedPlayouts(stephensonsRocket, 3, 20, 400);
  emit({ name: 'stephensons_rocket_playout', ...figure });
}
