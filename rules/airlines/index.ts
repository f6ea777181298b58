// Airlines (Alan R. Moon, 1990), the quick rules: found airlines, extend their
// networks with route cards, lay out stock, and score by majorities when a
// scoring card turns up and when the stock runs out.
import { RuleError, type Outcome, type Rules } from '../types.ts';
import { readAction, type AirlinesAction } from './actions.ts';
import { checkState } from './check.ts';
import { describeAction, labelAction } from './describe.ts';
import { extendNetwork, skipRouteCard, startExtending } from './extend.ts';
import { foundAirline } from './found.ts';
import { automaticMove, legalMoves } from './moves.ts';
import { parseCommand } from './parse.ts';
import { setupGame } from './setup.ts';
import { RULES_VERSION } from './state.ts';
import { versionOf } from '../version.ts';
import type { AirlinesState } from './state.ts';
import { playStock } from './stock.ts';
import { renderSvg } from './svg.ts';
import { holdingsAirlines } from './holdings.ts';
import { viewFor } from './view.ts';

export type { AirlinesState } from './state.ts';
export type { AirlinesAction } from './actions.ts';

export const airlines: Rules<AirlinesState, AirlinesAction> = {
  id: 'airlines',
  title: 'Airlines',
  version: RULES_VERSION,
  players: { min: 2, max: 6 },
  options: [],

  setup(seats, seed, options, version) {
    if (!Number.isInteger(seats) || seats < 2 || seats > 6) throw new RuleError('Airlines is for 2 to 6 players.');
    return setupGame(seats, seed, versionOf(options, RULES_VERSION, version));
  },

  toAct(s) {
    return s.over ? [] : [s.turn];
  },

  apply(s, seat, raw) {
    const a = readAction(raw);
    if (s.over) throw new RuleError('The game is over.');
    if (seat !== s.turn) throw new RuleError('It is not your turn.');
    switch (a.type) {
      case 'drawRoute':
        return startExtending(s, seat);
      case 'found':
        return foundAirline(s, seat, a);
      case 'extend':
        return extendNetwork(s, seat, a);
      case 'skip':
        return skipRouteCard(s, seat, a);
      case 'stock':
        return playStock(s, seat, a);
    }
  },

  moves: legalMoves,

  view(s, seat) {
    return viewFor(s, seat, this.toAct(s));
  },

  outcome(s): Outcome | null {
    if (!s.over) return null;
    const scores = [...s.points];
    const ranks = scores.map((x) => 1 + scores.filter((y) => y > x).length);
    const reason =
      s.pile.length === 0
        ? 'the last stock card was taken; final scoring'
        : 'no player could move any more (every route card held); final scoring';
    return { scores, ranks, reason };
  },

  describe: describeAction,
  label: labelAction,

  undoable(a) {
    return a.type === 'stock';
  },

  autoMove: automaticMove,

  commandExamples: [
    'route: draw a route card to extend',

    'extend GLA dotted4 ORD-MSP/2 take pile',

    'found GLA 2 dotted4 ORD-MSP/1 take pile',

    'skip solid2 take pile: when no route card fits, discard one',

    'stock GLA 2: lay out stock',

    'stock GLA 1 sabotage LSA DEN-DFW/3',
  ],

  parse: parseCommand,

  svg: renderSvg,
  holdings: holdingsAirlines,

  check: checkState,
};
