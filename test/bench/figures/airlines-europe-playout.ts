// Random 4-player Airlines Europe games to the end, through the rules contract.
import type { Emit } from '../index';
import { airlinesEurope } from '../../../rules/airlines-europe/index';
import { randomPlayout } from '../../support/playout';

export function run(emit: Emit): void {
  for (let i = 0; i < 30; i++) randomPlayout(airlinesEurope, 4, `warm-${i}`);
  const games = 600;
  const start = performance.now();
  for (let i = 0; i < games; i++) randomPlayout(airlinesEurope, 4, `bench-${i}`);
  const s = (performance.now() - start) / 1000;
  emit({ name: 'airlines_europe_playout', games, games_per_s: Math.round(games / s) });
}
