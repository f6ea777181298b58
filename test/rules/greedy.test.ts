// Greedy players (test/support/greedy.ts) play each of the four games to the
// end with the invariants checked after every move. They reach what uniform
// picks seldom do; each game asserts one such thing happened.
import { describe, expect, it } from 'vitest';
import { greedyPlayout } from '../support/greedy.ts';
import type { AnyRules } from '../../rules/types.ts';
import { airlines } from '../../rules/airlines/index.ts';
import { airlinesEurope } from '../../rules/airlines-europe/index.ts';
import { paperclipRailways } from '../../rules/paperclip-railways/index.ts';
import { stephensonsRocket } from '../../rules/stephensons-rocket/index.ts';

function play(rules: AnyRules, seats: number, seed: string) {
  const { state } = greedyPlayout(rules, seats, seed, {
    afterMove: (s) => {
      const problems = rules.check?.(s) ?? [];
      if (problems.length) throw new Error(`${seed}: ${problems.join('; ')}`);
      for (const seat of rules.toAct(s)) expect(rules.moves(s, seat).length, seed).toBeGreaterThan(0);
    },
  });
  expect(rules.outcome(state), seed).not.toBeNull();
  return state;
}

describe('greedy players', () => {
  it('Airlines Europe: buyers run an airline out of planes', () => {
    const s = play(airlinesEurope, 4, 'try-0');
    expect(Object.values(s.planes as Record<string, number>)).toContain(0);
  });

  it("Stephenson's Rocket: lines are driven into each other", () => {
    const s = play(stephensonsRocket, 3, 'greedy-0');
    expect(s.lines.filter((l: { absorbedInto: number }) => l.absorbedInto >= 0).length).toBeGreaterThanOrEqual(2);
  });

  it('Airlines: stock is laid out in airlines with markers on the board', () => {
    const s = play(airlines, 4, 'greedy-0');
    expect(s.played.flat().some((n: number) => n > 0)).toBe(true);
  });

  it('Paperclip Railways: links are built for points', () => {
    const s = play(paperclipRailways, 3, 'greedy-0');
    expect(s.links.length).toBeGreaterThan(3);
  });
});
