// Hand-set states for the Airlines suites: every card starts in a pile and is
// moved where a test needs it, so cards stay conserved and `check` holds.
import { expect } from 'vitest';
import { airlines } from '../../../rules/airlines/index.ts';
import { board, circleByLabel, companyByCode } from '../../../rules/airlines/board.ts';
import { setupGame } from '../../../rules/airlines/setup.ts';
import { SCORING, type AirlinesState } from '../../../rules/airlines/state.ts';
import { RuleError } from '../../../rules/types.ts';

export { airlines, board, SCORING };
export type { AirlinesState };

export function co(code: string): number {
  const c = companyByCode(code);
  if (c === undefined) throw new Error(`no company ${code}`);
  return c;
}

export function circle(label: string): number {
  const ci = circleByLabel(label);
  if (ci === undefined) throw new Error(`no circle ${label}`);
  return ci;
}

/** Seat 0 to act, nothing dealt: all stock in the pile (scoring cards at its bottom), all route cards in their pile. */
export function handSet(seats = 3): AirlinesState {
  const s = setupGame(seats, 'hand-set');
  const n = board.companies.length;
  s.pile = [];
  for (const c of board.companies) for (let k = 0; k < c.stock; k++) s.pile.push(c.index);
  for (let k = 0; k < board.scoringCards; k++) s.pile.push(SCORING);
  s.open = [];
  s.stock = Array.from({ length: seats }, () => Array<number>(n).fill(0));
  s.played = Array.from({ length: seats }, () => Array<number>(n).fill(0));
  s.routes = Array.from({ length: seats }, () => []);
  s.routePile = board.routeCards.map((c) => c.id);
  s.routeDiscard = [];
  s.turn = 0;
  s.bonus = Array.from({ length: seats }, (_, i) => i);
  s.points = [...s.bonus];
  setOpen(s, ['PNA', 'GGA', 'SWX', 'RMA', 'LSA']);
  return s;
}

function takeFromPile(s: AirlinesState, card: number): void {
  const i = s.pile.indexOf(card);
  if (i < 0) throw new Error(`no ${card} left in the pile`);
  s.pile.splice(i, 1);
}

export function giveStock(s: AirlinesState, seat: number, code: string, n: number): void {
  for (let k = 0; k < n; k++) takeFromPile(s, co(code));
  s.stock[seat]![co(code)]! += n;
}

export function layStock(s: AirlinesState, seat: number, code: string, n: number): void {
  for (let k = 0; k < n; k++) takeFromPile(s, co(code));
  s.played[seat]![co(code)]! += n;
}

export function setOpen(s: AirlinesState, codes: string[]): void {
  s.pile.unshift(...s.open);
  s.open = [];
  for (const code of codes) {
    takeFromPile(s, co(code));
    s.open.push(co(code));
  }
}

/** Puts these cards on top of the stock pile, in this order ('SCORING' for a scoring card). */
export function stackPile(s: AirlinesState, codes: string[]): void {
  const cards = codes.map((c) => (c === 'SCORING' ? SCORING : co(c)));
  for (const card of cards) takeFromPile(s, card);
  s.pile.unshift(...cards);
}

/** Leaves only these cards in the pile; the rest go to the last seat's hand (out of the way: hands never score). */
export function onlyInPile(s: AirlinesState, codes: string[]): void {
  const keep = codes.map((c) => (c === 'SCORING' ? SCORING : co(c)));
  const rest = [...s.pile];
  for (const card of keep) rest.splice(rest.indexOf(card), 1);
  const scoringGone = rest.filter((c) => c === SCORING).length;
  if (scoringGone) throw new Error('keep every scoring card in the pile in onlyInPile');
  const last = s.points.length - 1;
  for (const card of rest) s.stock[last]![card]!++;
  s.pile = keep;
}

export function giveRoute(s: AirlinesState, seat: number, pattern: string, value: number): number {
  const id = s.routePile.find((c) => {
    const card = board.cardById.get(c)!;
    return card.pattern === pattern && card.value === value;
  });
  if (id === undefined) throw new Error(`no ${pattern} ${value} in the route pile`);
  s.routePile.splice(s.routePile.indexOf(id), 1);
  s.routes[seat]!.push(id);
  return id;
}

/** Puts a route card on top of the route pile; returns its id. */
export function topRoute(s: AirlinesState, pattern: string, value: number): number {
  const id = s.routePile.find((c) => {
    const card = board.cardById.get(c)!;
    return card.pattern === pattern && card.value === value;
  })!;
  s.routePile.splice(s.routePile.indexOf(id), 1);
  s.routePile.unshift(id);
  return id;
}

export function found(s: AirlinesState, code: string): void {
  s.founded[co(code)] = true;
}

export function mark(s: AirlinesState, label: string, code: string, sabotage = false): void {
  s.circles[circle(label)] = sabotage ? { c: co(code), sab: true } : { c: co(code) };
}

export function markerAt(s: AirlinesState, label: string): { code: string; sabotage: boolean } | null {
  const m = s.circles[circle(label)];
  return m ? { code: board.companies[m.c]!.code, sabotage: !!m.sab } : null;
}

/** Applies a move that must be refused: a RuleError matching `message`, the state untouched. */
export function refused(s: AirlinesState, seat: number, action: unknown, message: RegExp): void {
  const before = JSON.stringify(s);
  let error: unknown;
  try {
    airlines.apply(s, seat, action);
  } catch (e) {
    error = e;
  }
  expect(error, 'the move should have been refused').toBeInstanceOf(RuleError);
  expect((error as Error).message).toMatch(message);
  expect(JSON.stringify(s)).toBe(before);
}

export function checked(s: AirlinesState): void {
  expect(airlines.check!(s)).toEqual([]);
}

/**
 * Two games alike in everything public, different in seat 1's hand and in
 * both piles' order (seat 0 to act, GLA founded): whatever another seat sees
 * must come out the same from both.
 */
export function twoWorlds() {
  const a = handSet(3);
  const b = handSet(3);
  for (const s of [a, b]) {
    found(s, 'GLA');
    mark(s, 'MSP-ORD/1', 'GLA');
    giveStock(s, 0, 'GLA', 2);
    giveRoute(s, 0, 'dotted', 4);
  }
  giveStock(a, 1, 'EMP', 3);
  giveRoute(a, 1, 'double', 7);
  giveStock(b, 1, 'PTA', 3);
  giveRoute(b, 1, 'solid', 2);
  stackPile(a, ['SCORING', 'MPL']);
  stackPile(b, ['RMA', 'PNA']);
  topRoute(a, 'dashed', 8);
  topRoute(b, 'solid', 1);
  return { a, b };
}
