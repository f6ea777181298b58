// Seeded random games to the end for 2 to 6 players, with cards and markers
// conserved after every move, every listed move legal, and timed-out seats
// played by autoMove.
import { describe, expect, it } from 'vitest';
import { randomPlayout } from '../../support/playout.ts';
import { airlines, board } from './hand-set.ts';

describe('airlines: playouts', () => {
  for (const seats of [2, 3, 4, 5, 6]) {
    it(`plays 12 seeded ${seats}-player games to the end, conserving cards and markers`, () => {
      for (let g = 0; g < 12; g++) {
        const seed = `airlines-${seats}-${g}`;
        const { state } = randomPlayout(airlines, seats, seed, {
          afterMove: (s) => {
            const problems = airlines.check!(s);
            if (problems.length) throw new Error(`${seed}: ${problems.join('; ')}`);
          },
        });
        expect(state.over).toBe(true);
        expect(state.pile).toHaveLength(0);
        expect(state.scorings.filter((r: any) => !r.final)).toHaveLength(board.scoringCards);
        expect(state.scorings.at(-1).final).toBe(true);
        const outcome = airlines.outcome(state)!;
        expect(outcome.scores).toEqual(state.points);
      }
    });
  }

  it('plays games where every seat times out, by autoMove, to the end', () => {
    for (let g = 0; g < 5; g++) {
      const s = airlines.setup(4, `auto-${g}`, {});
      let steps = 0;
      while (airlines.toAct(s).length > 0) {
        const seat = airlines.toAct(s)[0]!;
        const move = airlines.autoMove!(s, seat);
        expect(move).not.toBeNull();
        airlines.apply(s, seat, move);
        expect(airlines.check!(s)).toEqual([]);
        if (++steps > 2000) throw new Error('autoMove game does not end');
      }
      expect(airlines.outcome(s)).not.toBeNull();
    }
  });

  it('every listed move is legal, and describes in words', () => {
    const s = airlines.setup(4, 'all-moves', {});
    for (let step = 0; step < 60 && airlines.toAct(s).length; step++) {
      const seat = airlines.toAct(s)[0]!;
      const moves = airlines.moves(s, seat);
      expect(moves.length).toBeGreaterThan(0);
      for (const m of moves) {
        const copy = structuredClone(s);
        airlines.apply(copy, seat, structuredClone(m));
        expect(airlines.check!(copy)).toEqual([]);
        expect(airlines.describe(m, s, seat).length).toBeGreaterThan(5);
      }
      for (const other of [0, 1, 2, 3].filter((x) => x !== seat)) expect(airlines.moves(s, other)).toEqual([]);
      airlines.apply(s, seat, moves[(step * 7) % moves.length]);
    }
  });
});
