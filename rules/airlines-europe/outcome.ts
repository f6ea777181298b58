// The end: most victory points wins; ties go to more Air Abacus shares held; still tied, they share.
import type { Outcome } from '../types.ts';
import { board } from './board.ts';
import type { AEState } from './state.ts';

export function finalOutcome(s: AEState): Outcome | null {
  if (s.phase !== 'over') return null;
  const scores = [...s.vp];
  const abacus = s.portfolios.map((p) => p[board.abacus.id] ?? 0);
  const better = (a: number, b: number) =>
    scores[b]! > scores[a]! || (scores[b] === scores[a] && abacus[b]! > abacus[a]!);
  const ranks = scores.map((_, a) => 1 + scores.filter((__, b) => better(a, b)).length);
  return { scores, ranks, reason: s.endReason ?? 'the game ended' };
}
