// Random 4-player Airlines Europe games to the end, through the rules contract.
import type { Emit } from '../index.ts';
import { airlinesEurope } from '../../../rules/airlines-europe/index.ts';
import { timedPlayouts } from '../playouts.ts';

export function run(emit: Emit): void {
  const { moves_per_game: _, ...figure } = timedPlayouts(airlinesEurope, 4, 30, 600);
  emit({ name: 'airlines_europe_playout', ...figure });
}
