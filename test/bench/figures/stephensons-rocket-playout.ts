// Random 3-player games of Stephenson's Rocket to the end.
import type { Emit } from '../index';
import { stephensonsRocket } from '../../../rules/stephensons-rocket/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  const games = 400;
  for (let i = 0; i < 20; i++) randomPlayout(stephensonsRocket, 3, `warm-${i}`);
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(stephensonsRocket, 3, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  emit({ name: 'stephensons_rocket_playout', games, games_per_s: Math.round(games / s) });
}
