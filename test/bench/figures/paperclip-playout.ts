// Random playouts of Paperclip Railways (4 players, Metropolis) through the rules contract.
import type { Emit } from '../index';
import { paperclipRailways } from '../../../rules/paperclip-railways/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  const games = 40;
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(paperclipRailways, 4, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  emit({ name: 'paperclip_playout', games, games_per_s: Math.round((games / s) * 10) / 10 });
}
