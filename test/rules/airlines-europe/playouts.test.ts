// Hundreds of seeded random games for 2 to 5 players, to the end, with the
// invariants after every move: shares, planes and money conserved, value track
// positions only rising, and exactly three scorings unless every airline was blocked.
import { describe, expect, it } from 'vitest';
import { randomPlayout } from '../../support/playout.ts';
import { rules } from './helpers.ts';

const GAMES = 100;

describe.each([2, 3, 4, 5])('Airlines Europe random playouts, %i players', (seats) => {
  it(`${GAMES} games end with their invariants kept`, () => {
    let blockedEnds = 0;
    for (let g = 0; g < GAMES; g++) {
      const seed = `ae-playout-${seats}-${g}`;
      let track: Record<string, number> | null = null;
      const { state } = randomPlayout(rules, seats, seed, {
        afterMove: (s) => {
          const problems = rules.check!(s);
          if (problems.length) throw new Error(`${seed}: ${problems.join('; ')}`);
          if (track)
            for (const a of s.airlines)
              if (s.track[a] < track[a]!) throw new Error(`${seed}: ${a} went back on the track`);
          track = { ...s.track };
        },
      });
      const outcome = rules.outcome(state)!;
      expect(outcome, seed).not.toBeNull();
      if (state.allBlocked) blockedEnds++;
      else expect(state.scoringsDone, seed).toBe(3);
      expect(state.lastScoring.number, seed).toBe(3);
      expect(outcome.scores).toEqual(state.vp);
    }
    // Not a rule, just the random games' shape: every game ends, most by the third scoring.
    expect(blockedEnds).toBeLessThan(GAMES);
  });
});
