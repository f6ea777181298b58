// The two rule sets of 1830, one option of the game: `seed` (the rule text as written) and
// `18xx.games` (that site's behaviour wherever it differs). Every difference between them is
// one named reading below (the code branches on `rules(state).<reading>`) and one line of the
// rule-set table in rules/1830/README.md.
//
// Games recorded before the option existed have no `rule_set`: they keep the behaviour they
// were played under (`recorded`), which mixed the two, so that their logs replay unchanged.
// Where a reading only accepts more than the old engine did (the president's money), an old
// log replays the same either way, and `recorded` takes the 18xx.games value.
import type { Options } from '../types.ts';
import { versionOf } from '../version.ts';
import type { Game1830State } from './state.ts';

export type RuleSetName = 'seed' | '18xx.games' | 'recorded';

export interface RuleSet {
  /** The price at which SV, passed by everybody, must be taken by the next player ($5 seed C.3.b, $0 18xx.games). */
  svForcedAt: 5 | 0;
  /** A bankrupt player's shares are sold to the pool (18xx.games) rather than counted unsold (seed H). */
  bankruptSharesSold: boolean;
  /** The Erie may lay its green #59 on its home hex before green tiles are available (seed E.a.1). */
  erieGreenHomeEarly: boolean;
  /** A corporation buys at most one train of a type new to the game per turn (seed E.e). */
  oneNewTrainPerTurn: boolean;
  /**
   * A president may add money towards another corporation's train whenever his corporation must buy
   * one (18xx.games), not only when it cannot pay the cheapest bank train itself (seed G.1.d).
   */
  presidentAddsWheneverMustBuy: boolean;
  /**
   * Buying another player's private is the turn's one purchase (18xx.games: afterwards only more brown
   * shares, and no second private); the seed lets a player "also" buy one, besides his share (C).
   */
  privateIsTheTurnsPurchase: boolean;
  /** After buying a private, brown-zone shares may still be bought several at a time (false only in recorded games). */
  brownSharesAfterPrivate: boolean;
  /**
   * A player may sell his private to another player on his own (the seller's) stock-round turn, the
   * buyer accepting (seed G.1.a: "during the buyer's or the seller's turn"); 18xx.games has only the buyer's.
   */
  privateSoldOnSellersTurn: boolean;
  /**
   * A president raising money for a train may sell a private of his own to another player who accepts
   * (seed G.1.d.3: "if he finds a buyer"); 18xx.games has no such sale.
   */
  emergencyPrivateSale: boolean;
}

export const RULE_SETS: Record<RuleSetName, RuleSet> = {
  seed: {
    svForcedAt: 5,
    bankruptSharesSold: false,
    erieGreenHomeEarly: true,
    oneNewTrainPerTurn: true,
    presidentAddsWheneverMustBuy: false,
    privateIsTheTurnsPurchase: false,
    brownSharesAfterPrivate: true,
    privateSoldOnSellersTurn: true,
    emergencyPrivateSale: true,
  },
  '18xx.games': {
    svForcedAt: 0,
    bankruptSharesSold: true,
    erieGreenHomeEarly: false,
    oneNewTrainPerTurn: false,
    presidentAddsWheneverMustBuy: true,
    privateIsTheTurnsPurchase: true,
    brownSharesAfterPrivate: true,
    privateSoldOnSellersTurn: false,
    emergencyPrivateSale: false,
  },
  recorded: {
    svForcedAt: 5,
    bankruptSharesSold: true,
    erieGreenHomeEarly: true,
    oneNewTrainPerTurn: false,
    presidentAddsWheneverMustBuy: true,
    privateIsTheTurnsPurchase: true,
    brownSharesAfterPrivate: false,
    privateSoldOnSellersTurn: false,
    emergencyPrivateSale: false,
  },
};

export const RULE_SET_OPTION = 'rule_set';

/** The choices a new game offers (a recorded game is never created). */
export const RULE_SET_CHOICES: { value: RuleSetName; label: string }[] = [
  { value: '18xx.games', label: '18xx.games (its behaviour where it differs from the rule text)' },
  { value: 'seed', label: 'The rule text as written' },
];

/**
 * The rules version of 1830 (rules/version.ts): version 1 is the engine before rule sets, whose
 * games replay under `recorded`; version 2 has the two rule sets; from version 3 the network walk
 * never turns back at a town or city, a two-city upgrade keeps its cities apart, and discarded
 * trains are sold in the order they were discarded (board.version; track/graph.ts, track/lay.ts,
 * operating/common.ts), as on 18xx.games; from version 4 the network is walked as chains that use each
 * piece of track and each hex side once (track/chains.ts), as 18xx.games walks it.
 */
export const RULES_VERSION = 4;

/** The rule set named by a game's options; rules version 1, or none named: a game recorded before rule sets. */
export function ruleSetOf(options: Options): RuleSetName {
  if (versionOf(options, RULES_VERSION) === 1) return 'recorded';
  const v = options[RULE_SET_OPTION];
  if (v === undefined) return 'recorded';
  if (v === 'seed' || v === '18xx.games') return v;
  throw new Error(`1830 has no rule set "${String(v)}" (seed or 18xx.games)`);
}

export function rules(state: Game1830State): RuleSet {
  return RULE_SETS[state.options.ruleSet];
}
