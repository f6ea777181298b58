// Seeded random games for 2, 3 and 4 players, invariants after every move.
import { describe, expect, it } from 'vitest';
import { randomPlayout } from '../../support/playout.ts';
import { R } from './helpers.ts';
import { applyAction } from '../../../rules/stephensons-rocket/actions.ts';
import type { SRState } from '../../../rules/stephensons-rocket/index.ts';

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
  it('name each payment of the move (payee and amount) and nothing else about money', () => {
    for (let g = 0; g < 6; g++) {
      const seed = `hist-${g}`;
      const { actions } = randomPlayout(R, 3, seed);
      const s = R.setup(3, seed, {});
      const narrated = R.setup(3, seed, {}); // the same game applied with history text on
      let scorings = 0;
      for (const { seat, action } of actions) {
        const line = R.describe(action as never, s, seat);
        const before = [...s.money];
        R.apply(s, seat, structuredClone(action));
        applyAction(narrated, seat, structuredClone(action), []);
        expect(JSON.stringify(narrated)).toBe(JSON.stringify(s));
        // every amount is a payment "{seat:N} $X" and they add up to what the move paid each seat
        const named = [...line.matchAll(/\{seat:(\d)\} \$(\d{1,3}(?:,\d{3})*)/g)];
        expect(line.match(/\$/g)?.length ?? 0, `${seed}: ${line}`).toBe(named.length);
        const paid = before.map(() => 0);
        for (const m of named) paid[Number(m[1])]! += Number(m[2]!.replace(/,/g, ''));
        expect(paid, `${seed}: ${line}`).toEqual(s.money.map((x, i) => x - before[i]!));
        if (!s.finished && named.length) scorings++;
      }
      expect(s.finished).toBe(true);
      expect(scorings, seed).toBeGreaterThan(0);
    }
  });
});
