// Seeded random games for 2, 3 and 4 players, invariants after every move.
import { describe, expect, it } from 'vitest';
import { randomPlayout } from '../../support/playout';
import { R } from './helpers';
import { applyAction } from '../../../rules/stephensons-rocket/actions';
import type { SRState } from '../../../rules/stephensons-rocket/index';

describe.each([2, 3, 4])('random games, %i players', (seats) => {
  it('play to the end with tiles, shares, tokens, stations and money conserved', () => {
    let mergers = 0;
    let votes = 0;
    for (let g = 0; g < 40; g++) {
      const seed = `sr-${seats}-${g}`;
      const { state, actions } = randomPlayout(R, seats, seed, {
        afterMove: (s, seat) => {
          const problems = R.check!(s);
          if (problems.length) throw new Error(`${seed}: ${problems.join('; ')}`);
          for (const t of R.toAct(s)) expect(R.moves(s, t).length, seed).toBeGreaterThan(0);
          void seat;
        },
      });
      const outcome = R.outcome(state)!;
      expect(outcome.scores).toEqual(state.money);
      expect(Math.min(...outcome.ranks)).toBe(1);
      mergers += (state as SRState).lines.filter((l) => l.absorbedInto >= 0).length;
      votes += actions.filter((a) => (a.action as { type: string }).type === 'bid').length;
    }
    expect(mergers).toBeGreaterThan(0);
    expect(votes).toBeGreaterThan(0);
  });
});

describe('history lines', () => {
  it('never show amounts of money before the game is over', () => {
    for (let g = 0; g < 6; g++) {
      const seed = `hist-${g}`;
      const { actions } = randomPlayout(R, 3, seed);
      const s = R.setup(3, seed, {});
      const narrated = R.setup(3, seed, {}); // the same game applied with history text on
      for (const { seat, action } of actions) {
        const line = R.describe(action as never, s, seat);
        R.apply(s, seat, structuredClone(action));
        applyAction(narrated, seat, structuredClone(action), []);
        expect(JSON.stringify(narrated)).toBe(JSON.stringify(s));
        if (!s.finished) expect(line, seed).not.toMatch(/[£$]|\d,\d{3}/);
      }
      expect(s.finished).toBe(true);
    }
  });
});
