// The recorded games replay exactly (test/corpus/corpus.ts). A failure here means a change
// alters what existing games replay to: bump that engine's version and keep the old
// behaviour for the old one (see `version` in rules/types.ts), or the running games of that
// kind will need attention on every server.
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import type { AnyRules } from '../../rules/types.ts';
import { loadCorpus, replayRecorded } from './corpus.ts';

const corpus = loadCorpus();

describe('the corpus of recorded games', () => {
  it('holds random playouts of every game and the real 1830 games', () => {
    for (const rules of games) {
      const mine = corpus.filter((c) => c.game.rules === rules.id && c.game.source === 'random playout');
      expect(new Set(mine.map((c) => c.game.seats)).size, rules.id).toBeGreaterThanOrEqual(2);
    }
    expect(corpus.filter((c) => c.game.source.startsWith('18xx.games')).length).toBeGreaterThanOrEqual(3);
  });

  it.each(corpus.map((c) => [c.file, c.game] as const))('%s replays exactly', (_file, game) => {
    const rules = games.find((r) => r.id === game.rules);
    expect(rules, `no engine for ${game.rules}`).toBeDefined();
    expect(replayRecorded(rules!, game)).toBeNull();
  });
});

describe('the corpus guards rule changes', () => {
  // The rule change: laying out stock in Airlines turns the order of the player's stock cards around. Any change of
  // what apply does will do; this one alters every game that lays out stock.
  const airlines = games.find((r) => r.id === 'airlines')!;
  const recorded = corpus.filter((c) => c.game.rules === 'airlines').map((c) => c.game);

  it('fails when a rule changes without a version bump', () => {
    const unbumped: AnyRules = {
      ...airlines,
      apply(state, seat, action) {
        airlines.apply(state, seat, action);
        if ((action as { type?: string }).type === 'stock') (state as { stock: unknown[][] }).stock[seat]!.reverse();
      },
    };
    const problems = recorded.map((g) => replayRecorded(unbumped, g));
    expect(problems.some((p) => typeof p === 'string' && /after action \d+ .* the state differs/.test(p))).toBe(true);
  });

  it('passes when the same change comes with a bump that keeps the old rule for old games', () => {
    const next = airlines.version + 1;
    const bumped: AnyRules = {
      ...airlines,
      version: next,
      setup: (seats, seed, options, v = next) => {
        const s = airlines.setup(seats, seed, options, Math.min(v, airlines.version)) as Record<string, unknown>;
        if (v >= next) s.reversedStock = true;
        return s;
      },
      apply(state, seat, action) {
        airlines.apply(state, seat, action);
        const s = state as { reversedStock?: boolean; stock: unknown[][] };
        if (s.reversedStock && (action as { type?: string }).type === 'stock') s.stock[seat]!.reverse();
      },
    };
    for (const g of recorded) expect(replayRecorded(bumped, g)).toBeNull();
    // and a game of the new version follows the new rule (its set-up says so)
    expect(bumped.setup(2, 'x', {}, next)).toMatchObject({ reversedStock: true });
  });
});
