// Random 4-player games of Airlines through the rules contract (target: 200 per second or more).
import type { Emit } from '../index.ts';
import { airlines } from '../../../rules/airlines/index.ts';
import { timedPlayouts } from '../playouts.ts';

export function run(emit: Emit): void {
  emit({ name: 'airlines_playout', ...timedPlayouts(airlines, 4, 20, 600) });
}
