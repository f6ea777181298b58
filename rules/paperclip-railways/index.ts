// Paperclip Railways (Tony Boydell, 2011) on a virtual table.
//
// The table is a plane in millimetres (x right, y down, the Metropolis at
// 0,0). Stations are card-sized rectangles placed by their centre; a link is
// a polyline from the edge of one station to the edge of another, costing one
// clip per 30 mm (rounded up). See README.md in this folder for the rules as
// implemented and the readings taken where the seed is unclear.
import { RuleError, type Outcome, type Rules } from '../types.ts';
import { actionSchema, explainBadAction, type PCAction } from './actions.ts';
import { planBuild } from './build.ts';
import { checkState } from './check.ts';
import { CARD_BY_ID } from './data.ts';
import { describeAction, labelAction } from './describe.ts';
import { legalMoves } from './moves.ts';
import { parseCommand } from './parse.ts';
import { setupGame } from './setup.ts';
import { RULES_VERSION, type PCState } from './state.ts';
import { renderSvg } from './svg.ts';
import { holdingsPaperclip } from './holdings.ts';
import { prepare, toAct } from './turn.ts';
import { buildView } from './view.ts';

export type { PCState, PCAction };

function parseAction(raw: unknown): PCAction {
  const parsed = actionSchema.safeParse(raw);
  if (!parsed.success) throw new RuleError(explainBadAction(raw, parsed.error));
  return parsed.data;
}

export const paperclipRailways: Rules<PCState, PCAction> = {
  id: 'paperclip-railways',
  title: 'Paperclip Railways',
  version: RULES_VERSION,
  players: { min: 2, max: 5 },
  options: [
    {
      id: 'advanced',
      label: 'Advanced game (Gigantopolis: four stations on the central board)',
      kind: 'boolean',
      default: false,
    },
    { id: 'promos', label: 'Shuffle the three blank promo stations into the pile', kind: 'boolean', default: true },
  ],

  setup: (seats, seed, options, version) =>
    setupGame(seats, seed, version === undefined ? options : { ...options, rulesVersion: version }),
  toAct: (s) => toAct(s),

  apply(s, seat, raw) {
    const action = parseAction(raw);
    const commit = prepare(s, seat, action);
    commit();
  },

  moves: (s, seat) => legalMoves(s, seat),
  view: (s, seat) => buildView(s, seat, toAct(s)),

  outcome(s): Outcome | null {
    if (s.phase !== 'over') return null;
    const scores = [...s.scores];
    const ranks = scores.map(
      (x, i) => 1 + scores.filter((y, j) => y > x || (y === x && s.clips[j]! > s.clips[i]!)).length,
    );
    return { scores, ranks, reason: s.endReason ?? 'game over' };
  },

  describe: (action, before, seat) => describeAction(action, before, seat),
  label: (action, state, seat) => labelAction(action, state, seat),

  /** Drawing first, then the links that score most, passing last (a mail shows the first dozen). */
  rank(action, state, seat) {
    if (action.type === 'pass') return 1e6;
    if (action.type !== 'build') return 0;
    try {
      return 1e3 - planBuild(state, seat, action).total;
    } catch {
      return 1e5;
    }
  },

  undoable(action, before) {
    // Drawing shows cards; laying the river turns the stations face up and deals the hands.
    if (action.type === 'draw' || action.type === 'river') return false;
    if (action.type === 'build') {
      // A build that draws cards (a station's effect) reveals the pile.
      try {
        const p = planBuild(before, before.turn, action);
        return ![p.from, p.to].some((st) => {
          const e = st.kind === 'card' ? CARD_BY_ID[st.card!]!.effect : undefined;
          return e?.kind === 'draw' && !st.noBuildEffect;
        });
      } catch {
        return false;
      }
    }
    return true;
  },

  autoMove(s, seat) {
    if (!toAct(s).includes(seat)) return null;
    const moves = legalMoves(s, seat);
    return (
      moves.find((m) => m.type === 'draw') ??
      moves.find((m) => m.type === 'discard') ??
      moves.find((m) => m.type === 'pass') ??
      moves[0] ??
      null
    );
  },

  commandExamples: [
    'draw / pass',

    'discard <card> <card>',

    'build S1 york via 120,-40 pay <card>',

    "build S1 new <card> at E7 (a square of the picture's grid, or x,y in mm)",

    'obstacle <id> D4 [degrees] / river B3 F3 (setup)',
  ],

  parse: (text, s) => parseCommand(text, s),
  svg: (view, target) => renderSvg(view, target),
  holdings: holdingsPaperclip,
  check: (s) => checkState(s),
};
