// A greedy player beside the uniform one (playout.ts): at each decision it
// tries a seeded sample of the listed moves on copies of the state and keeps
// the one after which the game's `worth` of the mover is highest, ties broken
// at random. It reaches positions uniform picks seldom do: an Airlines Europe
// airline bought out of planes, Stephenson's Rocket lines pushed into each
// other, Paperclip links built for points rather than at random.
import type { AnyRules, Seat } from '../../rules/types.ts';
import { randomInt } from '../../rules/random.ts';
import { type PlayoutOptions, type PlayoutResult, playout } from './playout.ts';

/** How much a position is worth to a seat, in the game's own terms (money, points, holdings). */
export type Worth = (state: any, seat: Seat) => number;

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** One greedy measure per game: what it pays out, plus what it will likely pay out. */
export const WORTH: Record<string, Worth> = {
  // money, and the shares, goods tokens and passengers that score at the end
  'stephensons-rocket': (s, seat) =>
    s.money[seat] +
    500 * sum(s.lines.map((l: { held: number[] }) => l.held[seat]!)) +
    300 * s.tokens[seat].length +
    800 * s.passengers[seat],
  // points, then shares played times how far their airline's value has climbed, then money
  'airlines-europe': (s, seat) =>
    1000 * s.vp[seat] +
    10 *
      sum(Object.entries(s.portfolios[seat] as Record<string, number>).map(([a, n]) => n * (1 + (s.track[a] ?? 0)))) +
    s.money[seat],
  // points, then laid-out stock times its airline's markers on the board
  airlines: (s, seat) => {
    const markers = (c: number) => s.circles.filter((m: { c: number } | null) => m?.c === c).length;
    return 100 * s.points[seat] + sum(s.played[seat].map((n: number, c: number) => (n ? n * markers(c) : 0)));
  },
  'paperclip-railways': (s, seat) => s.scores[seat],
};

/** Plays one game to the end, every seat greedy by `worth` over at most `width` sampled moves. */
export function greedyPlayout(
  rules: AnyRules,
  seats: number,
  seed: string,
  opts: PlayoutOptions & { worth?: Worth; width?: number } = {},
): PlayoutResult {
  const worth = opts.worth ?? WORTH[rules.id];
  if (!worth) throw new Error(`no greedy measure for ${rules.id}`);
  const width = opts.width ?? 8;
  return playout(rules, seats, seed, {
    ...opts,
    pickerSeed: `greedy:${seed}`,
    choose: (state, seat, moves, picker) => {
      // A seeded sample of distinct moves (all of them when few).
      const order = moves.map((_, i) => i);
      for (let i = 0; i < Math.min(width, order.length); i++) {
        const j = i + randomInt(picker, order.length - i);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      let best = moves[order[0]!];
      let bestWorth = -Infinity;
      if (moves.length > 1) {
        for (const i of order.slice(0, width)) {
          const trial = structuredClone(state);
          rules.apply(trial, seat, structuredClone(moves[i]));
          const w = worth(trial, seat);
          if (w > bestWorth) {
            best = moves[i];
            bestWorth = w;
          }
        }
      }
      return best;
    },
  });
}
