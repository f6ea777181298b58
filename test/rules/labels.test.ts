// Quick-link and button words (the rules' `label`, rules/types.ts) for every game, over seeded
// positions at the smallest and largest table: imperative (a capital first, no history tense),
// never JSON, never two alike among one seat's moves, and the server's list (firstMoves: what a
// page and a mail show) the same.
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import type { AnyRules, Seat } from '../../rules/types.ts';
import { firstMoves } from '../../server/game-reading.ts';
import type { LoadedGame } from '../../server/service.ts';

/** Positions along one seeded game: the state after every `every`-th move, up to `steps`. */
function* positions(r: AnyRules, seats: number, steps: number, every: number) {
  const options = Object.fromEntries((r.options ?? []).map((o) => [o.id, o.default]));
  const s = r.setup(seats, `labels-${seats}`, options);
  for (let step = 0; step < steps && r.toAct(s).length > 0; step++) {
    if (step % every === 0) yield s;
    const seat = r.toAct(s)[0]!;
    const ms = r.moves(s, seat);
    r.apply(s, seat, ms[(step * 7919) % ms.length]);
  }
}

/**
 * A loaded game around a copy of a state, as the server holds it (for firstMoves, which keeps
 * what it lists per state object: the positions above are one object, changed move by move).
 */
function loaded(r: AnyRules, position: unknown, seats: number): LoadedGame {
  const state = structuredClone(position);
  const doc = {
    id: 'labels',
    status: 'active',
    seats: Array.from({ length: seats }, (_, i) => ({ name: `P${i + 1}` })),
    log: [],
  } as unknown as LoadedGame['doc'];
  return { doc, rules: r, state, stateSeq: 1, attention: null, base: null };
}

const JSONISH = /[{["]/;
const PAST =
  /^(bought|built|chose|drew|extended|founded|laid|moved|passed|placed|played|took|traded|sold|discarded|buys|bids|passes|pars|sells|lays|runs)\b/i;

describe('quick-link labels', () => {
  for (const r of games) {
    it(`${r.id}: imperative, no JSON, no two alike`, () => {
      expect(typeof r.label).toBe('function');
      let checked = 0;
      for (const seats of new Set([r.players.min, r.players.max])) {
        for (const s of positions(r, seats, 120, 6)) {
          for (const seat of r.toAct(s) as Seat[]) {
            const labels = r.moves(s, seat).map((m: unknown) => r.label!(m, s, seat));
            for (const l of labels) {
              expect(l, l).not.toMatch(JSONISH);
              expect(l, l).not.toMatch(PAST);
              expect(l.charAt(0), l).toBe(l.charAt(0).toUpperCase());
              expect(l.length, l).toBeLessThanOrEqual(140);
            }
            // What a page (every move) and a mail (the dozen most useful) show: never two alike.
            const game = loaded(r, s, seats);
            for (const limit of [12, Infinity]) {
              const shown = firstMoves(game, seat, limit).moves.map((m) => m.label);
              expect(new Set(shown).size, shown.join(' | ')).toBe(shown.length);
              for (const l of shown) expect(l).not.toMatch(JSONISH);
            }
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(5);
    });
  }

  it('airlines-europe: buying licences comes first among the quick links', () => {
    const r = games.find((g) => g.id === 'airlines-europe')!;
    for (const s of positions(r, 3, 60, 1)) {
      const seat = r.toAct(s)[0] as Seat;
      const ms = r.moves(s, seat) as { type: string }[];
      if (!ms.some((m) => m.type === 'buy')) continue;
      const quick = firstMoves(loaded(r, s, 3), seat, 12).moves;
      const labels = quick.map((m) => m.label);
      expect(labels.filter((l) => /^Buy /.test(l)).length, labels.join(' | ')).toBeGreaterThanOrEqual(6);
      expect(labels).toContain('Take 8 M');
      return;
    }
    throw new Error('no position with licences to buy');
  });
});
