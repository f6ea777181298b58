// Airlines Europe (Alan R. Moon, 2011) for 2 to 5 players, to the rules
// contract. The engine is split by phase and action; see the files imported here.
import type { Rules } from '../types.ts';
import { RuleError } from '../types.ts';
import type { AEAction } from './actions.ts';
import { applyAction, parseAction, toAct } from './apply.ts';
import { bankWouldBreak } from './bank.ts';
import { board } from './board.ts';
import { checkState } from './check.ts';
import { describeAction } from './describe.ts';
import { labelAction, rankAction } from './label.ts';
import { legalMoves } from './moves.ts';
import { finalOutcome } from './outcome.ts';
import { parseCommand } from './parse.ts';
import { setupGame } from './setup.ts';
import { versionOf } from '../version.ts';
import { RULES_VERSION, type AEState } from './state.ts';
import { renderSvg } from './svg.ts';
import { holdingsAE } from './holdings.ts';
import { buildView } from './view.ts';

export type { AEState } from './state.ts';
export type { AEAction } from './actions.ts';

export const airlinesEurope: Rules<AEState, AEAction> = {
  id: 'airlines-europe',
  title: 'Airlines Europe',
  version: RULES_VERSION,
  players: { min: 2, max: 5 },
  options: [],

  setup: (seats, seed, options, version) => setupGame(seats, seed, versionOf(options, RULES_VERSION, version)),
  toAct,
  apply: applyAction,
  moves: legalMoves,
  view: buildView,
  outcome: finalOutcome,

  describe(action, before, seat) {
    try {
      return describeAction(parseAction(action), before, seat);
    } catch (err) {
      if (err instanceof RuleError) return 'made a move that is not an Airlines Europe move';
      throw err;
    }
  },

  label(action, state, seat) {
    try {
      return labelAction(parseAction(action), state, seat);
    } catch (err) {
      if (err instanceof RuleError) return 'A move that is not an Airlines Europe move';
      throw err;
    }
  },

  rank(action) {
    return rankAction(action);
  },

  /** A move cannot be taken back once it turned up a card from the pile or revealed the opening. */
  undoable(action, before) {
    switch (action.type) {
      case 'open':
      case 'buy':
      case 'take':
        return false;
      case 'play':
        return !bankWouldBreak(before, action.shares.reduce((t, p) => t + p.count, 0) * board.setup.dividend);
      case 'money':
        return !bankWouldBreak(before, board.setup.takeMoney);
      default:
        return true;
    }
  },

  /** A seat that sits on its turn: the first opening pair, take 8 M, or the first share in the clear-out. */
  autoMove(s, seat) {
    if (!toAct(s).includes(seat)) return null;
    if (s.phase === 'play') return { type: 'money' };
    return legalMoves(s, seat)[0] ?? null;
  },

  commandExamples: [
    'open red blue: the opening choice of two shares',

    'buy orange athens-sofia take blue: a licence, then a share',

    'play red 3: play shares from your hand',

    'trade red blue p:green: trade shares for Air Abacus',

    'money: take 8 M',

    'take blue / take deck: after a scoring card',
  ],

  parse: (text) => parseCommand(text),
  svg: renderSvg,
  holdings: holdingsAE,
  check: checkState,
};
