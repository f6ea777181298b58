// Seeded random playouts for 2 to 5 players, basic and advanced, with clips,
// cubes and cards conserved after every move and every returned move legal.
import { describe, expect, it } from 'vitest';
import { randomPlayout } from '../../support/playout.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import { R } from './table.ts';

describe('random playouts', () => {
  for (const seats of [2, 3, 4, 5]) {
    for (const advanced of [false, true]) {
      it(`${seats} players, ${advanced ? 'Gigantopolis' : 'Metropolis'}: plays to the end with everything conserved`, () => {
        for (let g = 0; g < 4; g++) {
          const seed = `pc-${seats}-${advanced}-${g}`;
          const { state } = randomPlayout(R, seats, seed, {
            options: { advanced, promos: g % 2 === 0 },
            afterMove: (s) => {
              const problems = R.check!(s);
              if (problems.length) throw new Error(`${seed}: ${problems.join('; ')}`);
            },
          });
          const out = R.outcome(state)!;
          expect(out.scores).toHaveLength(seats);
          expect(state.links.length).toBeGreaterThan(0);
          // Every link's score is in the scores; the final total is at least what the links scored minus nothing hidden.
          expect(out.reason).toMatch(/End of Line|last turn/);
        }
      });
    }
  }

  it('every move offered along a game applies cleanly with everything conserved', () => {
    for (const seats of [2, 5]) {
      const s = R.setup(seats, `all-legal-${seats}`, {});
      const picker = seedRandom(`all-legal-picker-${seats}`);
      for (let step = 0; R.toAct(s).length > 0 && step < 400; step++) {
        const seat = R.toAct(s)[0]!;
        const moves = R.moves(s, seat);
        expect(moves.length).toBeGreaterThan(0);
        if (step % 3 === 0) {
          for (const m of moves) {
            const copy = structuredClone(s);
            expect(() => R.apply(copy, seat, structuredClone(m)), JSON.stringify(m)).not.toThrow();
            expect(R.check!(copy)).toEqual([]);
          }
        }
        R.apply(s, seat, structuredClone(moves[randomInt(picker, moves.length)]));
      }
      expect(R.outcome(s)).not.toBeNull();
    }
  });
});
