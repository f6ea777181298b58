// The state of a game of Airlines: plain JSON, hidden parts (hands, the order
// of both piles) only ever leave the rules through `view`.
import type { RandomState } from '../random.ts';
import type { Seat } from '../types.ts';
import { board } from './board.ts';

/** In the stock pile, a scoring card; every other entry is a company index. */
export const SCORING = -1;

/** A marker on a circle: the company whose marker it is, and whether it was set as a sabotage. */
export interface Marker {
  c: number;
  sab?: true;
}

export interface Award {
  company: number;
  value: number;
  points: number[];
}
export interface ScoringRecord {
  n: number;
  final: boolean;
  awards: Award[];
  totals: number[];
}

export interface AirlinesState {
  random: RandomState;
  /** Whose turn. */
  turn: Seat;
  /** 'action': choose found, extend or play stock; 'place': an extending seat has drawn its route card. */
  step: 'action' | 'place';
  /** The route card drawn at the start of this extension (its holder sees which). */
  drawn: number | null;
  /** Stock pile, top first: company indices, SCORING for a scoring card. Hidden. */
  pile: number[];
  /** The open stock row (company indices). */
  open: number[];
  /** Stock cards in hand: counts per company. Hidden. */
  stock: number[][];
  /** Route cards in hand (ids). Hidden. */
  routes: number[][];
  /** Stock laid out face up: counts per seat and company. */
  played: number[][];
  /** Route pile (top first, hidden) and the played route cards. */
  routePile: number[];
  routeDiscard: number[];
  /** One entry per circle of the board. */
  circles: (Marker | null)[];
  /** Airlines whose home marker is on the board. */
  founded: boolean[];
  /** Points including the starting bonus. */
  points: number[];
  bonus: number[];
  scorings: ScoringRecord[];
  over: boolean;
  moves: number;
  /**
   * The rules version the game was set up under (RULES_VERSION when new). Games of
   * version 1 keep the old reading of a turn whose route cards all fail: discard one,
   * still take a stock card.
   */
  version: number;
}

/** 2: when no route card fits, the turn ends with the drawn card kept and no stock taken. */
export const RULES_VERSION = 2;

/** Markers of a company on the board: scoring ones, plus sabotage ones separately. */
export function markersOnBoard(s: AirlinesState, c: number): { scoring: number; sabotage: number } {
  let scoring = s.founded[c] ? 1 : 0;
  let sabotage = 0;
  for (const m of s.circles) {
    if (m && m.c === c) {
      if (m.sab) sabotage++;
      else scoring++;
    }
  }
  return { scoring, sabotage };
}

/** Markers left in each airline's supply, all airlines in one pass. */
export function supplies(s: AirlinesState): number[] {
  const left = s.founded.map((f) => board.markersPerCompany - (f ? 1 : 0));
  for (const m of s.circles) if (m) left[m.c]!--;
  return left;
}

export function supply(s: AirlinesState, c: number): number {
  return supplies(s)[c]!;
}

/**
 * Whether the company's network (its home and both ends of every route it
 * flies) touches the route: one check, without building the network.
 * `extensions` in placement.ts builds every network at once instead; the
 * suites apply every listed move, which keeps the two in step.
 */
export function touches(s: AirlinesState, c: number, route: number): boolean {
  if (!s.founded[c]) return false;
  const r = board.routes[route]!;
  const home = board.companies[c]!.home;
  if (r.from === home || r.to === home) return true;
  for (let i = 0; i < s.circles.length; i++) {
    const m = s.circles[i];
    if (!m || m.c !== c || m.sab) continue;
    const o = board.routes[board.circles[i]!.route]!;
    if (o.from === r.from || o.from === r.to || o.to === r.from || o.to === r.to) return true;
  }
  return false;
}

/** Whether the company already has a (non-sabotage) marker on the route. */
export function fliesRoute(s: AirlinesState, c: number, route: number): boolean {
  return board.routes[route]!.circles.some((ci) => {
    const m = s.circles[ci];
    return !!m && m.c === c && !m.sab;
  });
}

export function routeSabotaged(s: AirlinesState, route: number): boolean {
  return board.routes[route]!.circles.some((ci) => !!s.circles[ci]?.sab);
}
