// The game state: plain JSON, everything public and secret alike. Only
// view.ts decides what leaves it.
import type { RandomState } from '../random.ts';
import type { Seat } from '../types.ts';

/** A card in the draw pile: an airline id, or a scoring card. */
export const SCORING_CARD = 'scoring';

export type Phase = 'opening' | 'play' | 'clearout' | 'over';

/** One seat's victory points from one scoring, by airline id (Air Abacus included). */
export type ScoringLine = Record<string, number>;

export interface ScoringRecord {
  /** 1, 2 or 3; the final scoring after every airline was blocked counts as 3. */
  number: number;
  /** Per seat: points by airline. */
  points: ScoringLine[];
  /** Airlines in the order they were scored (furthest on the value track first). */
  order: string[];
}

export interface AEState {
  random: RandomState;
  seats: number;
  /** Airlines with planes used in this game, board order (Air Abacus not included). */
  airlines: string[];
  phase: Phase;
  /** Whose turn it is in the play phase. */
  turn: Seat;
  /** The draw pile, top first; SCORING_CARD marks a scoring card. Secret. */
  deck: string[];
  /** The face-up share market. */
  market: string[];
  /** Shares in hand per seat (airline ids, Air Abacus included). Secret to others. */
  hands: string[][];
  /** Played shares per seat, by airline id. Public. */
  portfolios: Record<string, number>[];
  /** The opening choice of each seat while seats are still choosing. Secret until all have chosen. */
  opening: (string[] | null)[];
  money: number[];
  bank: number;
  /** Victory points, face down until the end. */
  vp: number[];
  /** Value track position per airline. */
  track: Record<string, number>;
  /** Planes left in the supply per airline. */
  planes: Record<string, number>;
  /** Per board route (same index): the airlines holding its licences, cheapest first. */
  licences: string[][];
  /** Cities each airline reaches, its home first. */
  networks: Record<string, string[]>;
  /** Connection bonus markers still on the board (airline ids). */
  bonusesLeft: string[];
  /** Air Abacus shares not yet traded for. */
  abacusSupply: number;
  /** Two players: shares removed from play lie face down here (count for the third scoring). */
  discard: string[];
  /** Shares out of the game, by airline id. */
  removed: Record<string, number>;
  scoringsDone: number;
  /** Seats in front of whom a scoring card lies, waiting for their scoring, oldest first. */
  scoringQueue: Seat[];
  /** During the market clear-out: who takes next and how many still take. */
  clearout: { seat: Seat; left: number } | null;
  lastScoring: ScoringRecord | null;
  /** Why it ended, once over. */
  endReason: string | null;
  /** True when the game ended because no airline could buy another licence. */
  allBlocked: boolean;
  /** Times the bank went broke. */
  bankBroke: number;
  moveCount: number;
  /**
   * The rules version the game was set up under (RULES_VERSION when new). Version 1
   * games keep the draw pile built with its first two scoring cards at fixed places.
   */
  version: number;
}

/** 2: the first two scoring cards lie at places drawn within "roughly a quarter" and "the middle". */
export const RULES_VERSION = 2;
