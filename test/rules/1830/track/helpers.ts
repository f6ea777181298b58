// Shared by the map module's hand-set tests: a lay context, the refusal check
// (a RuleError in words, the board unchanged), the B&O's home board and a seeded generator.
import { expect } from 'vitest';
import { item } from '../../../../rules/item.ts';
import { RuleError } from '../../../../rules/types.ts';
import {
  newBoard,
  placeHomeToken,
  type Board,
  type LayContext,
  type PhaseName,
} from '../../../../rules/1830/track/index.ts';

export const ctx = (corp: string, phase: PhaseName = '2', more: Partial<LayContext> = {}): LayContext => ({
  corp,
  phase,
  layUsed: false,
  playerPrivates: [],
  ...more,
});

/** Runs `f`, expects a RuleError whose message matches, and the board unchanged. */
export function refused(board: Board, f: () => unknown, message: RegExp): void {
  const before = JSON.stringify(board);
  let error: unknown = null;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RuleError);
  expect((error as Error).message).toMatch(message);
  expect(JSON.stringify(board)).toBe(before);
}

/** B&O at home in Baltimore (I15: track to J14 and I17). */
export function baltimore(): Board {
  const b = newBoard();
  placeHomeToken(b, 'B&O');
  return b;
}

/** A small seeded generator for the random tests: lcg(seed)(n) is in 0..n-1. */
export function lcg(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

/** One entry of a non-empty list, chosen by the generator (one draw, as list[rnd(list.length)]). */
export const pickFrom =
  (rnd: (n: number) => number) =>
  <T>(list: readonly T[]): T =>
    item(list, rnd(list.length));
