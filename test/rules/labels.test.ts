// Quick-link and button words (the rules' `label`, rules/types.ts) for every game, over the
// positions of seeded random playouts at the smallest and largest table: imperative (a capital
// first, no history tense), at most LABEL_MAX long, never JSON, never two alike among one seat's
// moves, and the server's list (firstMoves: what a page and a mail show) the same.
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { LABEL_MAX } from '../../rules/label.ts';
import { randomInt, seedRandom } from '../../rules/random.ts';
import type { AnyRules, Seat } from '../../rules/types.ts';
import { firstMoves } from '../../server/game-reading.ts';
import type { LoadedGame } from '../../server/service.ts';

/**
 * Positions along a seeded random playout (the seat to act and its move drawn by a seeded picker):
 * the state after every `every`-th move, up to `steps`. One object, changed move by move.
 */
function* positions(r: AnyRules, seats: number, steps: number, every: number, seed = `labels-${seats}`) {
  const options = Object.fromEntries((r.options ?? []).map((o) => [o.id, o.default]));
  const s = r.setup(seats, seed, options);
  const picker = seedRandom(`${seed}-picker`);
  for (let step = 0; step < steps && r.toAct(s).length > 0; step++) {
    if (step % every === 0) yield s;
    const toAct = r.toAct(s);
    const seat = toAct[randomInt(picker, toAct.length)]!;
    const ms = r.moves(s, seat);
    r.apply(s, seat, ms[randomInt(picker, ms.length)]);
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

/** Playout length and spacing of the positions checked, per game (Paperclip's moves cost most). */
const PLAYOUT: Record<string, { steps: number; every: number; seeds: number }> = {
  'paperclip-railways': { steps: 300, every: 2, seeds: 3 },
  '1830': { steps: 500, every: 7, seeds: 2 },
};

describe('quick-link labels', () => {
  for (const r of games) {
    it(`${r.id}: imperative, at most ${LABEL_MAX} characters, no JSON, no two alike`, () => {
      expect(typeof r.label).toBe('function');
      const { steps, every, seeds } = PLAYOUT[r.id] ?? { steps: 400, every: 4, seeds: 3 };
      let checked = 0;
      for (const seats of new Set([r.players.min, r.players.max])) {
        for (let k = 0; k < seeds; k++) {
          for (const s of positions(r, seats, steps, every, `labels-${seats}-${k}`)) {
            for (const seat of r.toAct(s) as Seat[]) {
              const labels = r.moves(s, seat).map((m: unknown) => r.label!(m, s, seat));
              for (const l of labels) {
                expect(l, l).not.toMatch(JSONISH);
                expect(l, l).not.toMatch(PAST);
                expect(l.charAt(0), l).toBe(l.charAt(0).toUpperCase());
                expect(l.length, l).toBeLessThanOrEqual(LABEL_MAX);
              }
              // The rules' own words tell every move on offer apart.
              expect(new Set(labels).size, labels.join(' | ')).toBe(labels.length);
              // What a page (every move) and a mail (the dozen most useful) show: never two alike.
              if (checked % 3 === 0) {
                const game = loaded(r, s, seats);
                for (const limit of [12, Infinity]) {
                  const shown = firstMoves(game, seat, limit).moves.map((m) => m.label);
                  expect(new Set(shown).size, shown.join(' | ')).toBe(shown.length);
                  for (const l of shown) expect(l.length, l).toBeLessThanOrEqual(LABEL_MAX);
                }
              }
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(40);
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

  it('paperclip-railways: places are squares of the grid drawn on the picture, never millimetres', () => {
    const r = games.find((g) => g.id === 'paperclip-railways')!;
    const kinds = new Set<string>();
    let squares = 0;
    for (const seats of [r.players.min, r.players.max]) {
      for (const s of positions(r, seats, 200, 3, `squares-${seats}`)) {
        const seat = r.toAct(s)[0] as Seat;
        const view = r.view(s, seat);
        // The grid's captions on both pictures: the column letters and row numbers.
        const captions = (svg: string) =>
          new Set([...svg.matchAll(/fill="#8a8064">([A-Z]|\d+)<\/text>/g)].map((m) => m[1]!));
        const pictures = [captions(r.svg!(view, 'page')), captions(r.svg!(view, 'mail'))];
        for (const m of r.moves(s, seat) as { type: string }[]) {
          const label = r.label!(m, s, seat);
          const line = r.describe(m, s, seat);
          for (const words of [label, line]) expect(words, words).not.toMatch(/-?\d+\s*,\s*-?\d+/);
          for (const [, col, row] of label.matchAll(/\b([A-Z])(\d{1,2})\b/g)) {
            for (const drawn of pictures) {
              expect(drawn.has(col!), `${label}: column ${col}`).toBe(true);
              expect(drawn.has(row!), `${label}: row ${row}`).toBe(true);
            }
            squares++;
            kinds.add(m.type);
          }
        }
      }
    }
    // Obstacles, the river and new stations were all placed by square.
    expect([...kinds].sort()).toEqual(['build', 'obstacle', 'river']);
    expect(squares).toBeGreaterThan(30);
  });

  it("paperclip-railways: drawing first, then the links that score most, in a mail's quick links", () => {
    const r = games.find((g) => g.id === 'paperclip-railways')!;
    let compared = 0;
    for (const s of positions(r, 3, 200, 2, 'ranked-3')) {
      const seat = r.toAct(s)[0] as Seat;
      const quick = firstMoves(loaded(r, s, 3), seat, 12).moves;
      const builds = quick.filter((m) => (m.action as { type: string }).type === 'build');
      if (builds.length < 2) continue;
      if (quick.some((m) => (m.action as { type: string }).type === 'draw'))
        expect((quick[0]!.action as { type: string }).type).toBe('draw');
      const points = builds.map((m) => Number(/: ([+-]\d+) points/.exec(m.label)?.[1] ?? Number.NaN));
      const known = points.filter((p) => !Number.isNaN(p));
      expect(known, builds.map((m) => m.label).join(' | ')).toEqual([...known].sort((a, b) => b - a));
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
  });
});
