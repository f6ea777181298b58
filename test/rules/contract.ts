// The rules contract, checked for every registered game (and the small test game): the suite
// itself. contract.test.ts runs it; its seeded playouts, the slow part, are spread over
// contract.test.ts and contract-playouts-{1,2}.test.ts by each game's place in the registry, so
// that the test runner's workers share them. A new game is covered by adding it to rules/index.ts.
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { RuleError, type AnyRules } from '../../rules/types.ts';
import { highCard } from '../support/high-card.ts';
import { defaultOptions, randomPlayout } from '../support/playout.ts';

/** Playouts per player count; heavy games run fewer here and more in their own suites. */
const PLAYOUTS: Record<string, number> = { '1830': 4 };
const DEFAULT_PLAYOUTS = 25;

export const all: AnyRules[] = [highCard, ...games];

/** The files the playouts are spread over (contract.test.ts is part 0). */
export const PLAYOUT_PARTS = 3;

/** The games whose playouts run in part `part`. */
export const playoutGames = (part: number): AnyRules[] => all.filter((_, i) => i % PLAYOUT_PARTS === part);

function seatCounts(rules: AnyRules): number[] {
  const out: number[] = [];
  for (let n = rules.players.min; n <= rules.players.max; n++) out.push(n);
  return out;
}

const garbage: unknown[] = [
  null,
  42,
  'pass',
  [],
  {},
  { type: 'no-such-move' },
  { type: 7 },
  { __proto__: { type: 'pass' } },
];

/** Set-up, replay, refusals, views and words of every game. */
export function contractSuite(): void {
  describe.each(all.map((r) => [r.id, r] as const))('rules contract: %s', (_id, rules) => {
    it('sets up deterministically from the seed', () => {
      const opts = defaultOptions(rules);
      const a = rules.setup(rules.players.min, 'seed-1', opts);
      const b = rules.setup(rules.players.min, 'seed-1', opts);
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      expect(JSON.parse(JSON.stringify(a))).toEqual(a); // plain JSON
    });

    it('replays the same seed and actions to the same state, byte for byte', () => {
      const seats = rules.players.max;
      const played = randomPlayout(rules, seats, 'replay-seed');
      const again = rules.setup(seats, 'replay-seed', defaultOptions(rules));
      for (const { seat, action } of played.actions) rules.apply(again, seat, structuredClone(action));
      expect(JSON.stringify(again)).toBe(JSON.stringify(played.state));
      expect(rules.outcome(again)).not.toBeNull();
    });

    it('refuses malformed and out-of-turn actions with a RuleError and leaves the state untouched', () => {
      const seats = rules.players.min;
      const state = rules.setup(seats, 'bad-input', defaultOptions(rules));
      const toAct = rules.toAct(state);
      const before = JSON.stringify(state);
      for (let seat = 0; seat < seats; seat++) {
        for (const action of garbage) {
          expect(() => rules.apply(state, seat, action)).toThrow(RuleError);
          expect(JSON.stringify(state)).toBe(before);
        }
        if (!toAct.includes(seat)) {
          const someone = toAct[0]!;
          for (const action of rules.moves(state, someone).slice(0, 5)) {
            expect(() => rules.apply(state, seat, structuredClone(action))).toThrow(RuleError);
            expect(JSON.stringify(state)).toBe(before);
          }
        }
      }
    });

    it('gives every seat and a spectator a JSON view, and describes every move in words', () => {
      const seats = rules.players.min;
      const state = rules.setup(seats, 'views', defaultOptions(rules));
      for (const seat of [null, ...Array.from({ length: seats }, (_, i) => i)]) {
        const view = rules.view(state, seat);
        expect(view.seat).toBe(seat);
        expect(view.toAct).toEqual(rules.toAct(state));
        expect(typeof view.status).toBe('string');
        expect(JSON.parse(JSON.stringify(view))).toEqual(view);
        if (rules.svg) expect(rules.svg(view)).toMatch(/^<svg[\s>]/);
      }
      const seat = rules.toAct(state)[0]!;
      for (const move of rules.moves(state, seat).slice(0, 20)) {
        const line = rules.describe(move, state, seat);
        expect(typeof line).toBe('string');
        expect(line.length).toBeGreaterThan(0);
      }
    });
  });
}

/** The seeded random playouts of the games in part `part`, every seat that must act having moves, invariants kept. */
export function playoutSuite(part: number): void {
  describe.each(playoutGames(part).map((r) => [r.id, r] as const))('rules contract playouts: %s', (_id, rules) => {
    it('plays seeded random games to the end, every seat that must act having moves, invariants kept', () => {
      const count = PLAYOUTS[rules.id] ?? DEFAULT_PLAYOUTS;
      for (const seats of seatCounts(rules)) {
        for (let g = 0; g < count; g++) {
          const seed = `playout-${seats}-${g}`;
          const { state } = randomPlayout(rules, seats, seed, {
            afterMove: rules.check
              ? (s) => {
                  const problems = rules.check!(s);
                  if (problems.length) throw new Error(`${seed}: ${problems.join('; ')}`);
                }
              : undefined,
          });
          const outcome = rules.outcome(state);
          expect(outcome, seed).not.toBeNull();
          expect(outcome!.scores).toHaveLength(seats);
          expect(outcome!.ranks).toHaveLength(seats);
          expect(Math.min(...outcome!.ranks)).toBe(1);
          expect(rules.toAct(state)).toEqual([]);
        }
      }
    });
  });
}
