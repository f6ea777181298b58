// Stephenson's Rocket (Reiner Knizia, 1999) for 2-4 players, on a board of
// England and Wales (data/board.json). The rules contract in ../types.ts.
import { cloneState } from '../clone.ts';
import { RuleError, type Outcome, type Rules } from '../types.ts';
import { imperative, LABEL_MAX } from '../label.ts';
import { applyAction, type SRAction } from './actions.ts';
import { checkState } from './check.ts';
import { legalMoves } from './moves.ts';
import { parseCommand } from './parse.ts';
import { RULES_VERSION, setupState, type SRState } from './state.ts';
import { versionOf } from '../version.ts';
import { renderSvg } from './svg.ts';
import { holdingsRocket } from './holdings.ts';
import { makeView, toAct } from './view.ts';

export type { SRState } from './state.ts';
export type { SRAction } from './actions.ts';

function play(s: SRState, seat: number, action: unknown): string[] {
  const events: string[] = [];
  applyAction(s, seat, action, events);
  return events;
}

export const stephensonsRocket: Rules<SRState, SRAction> = {
  id: 'stephensons-rocket',
  title: "Stephenson's Rocket",
  version: RULES_VERSION,
  players: { min: 2, max: 4 },

  setup(seats, seed, options, version) {
    if (!Number.isInteger(seats) || seats < 2 || seats > 4)
      throw new RuleError("Stephenson's Rocket is for 2 to 4 players.");
    return setupState(seats, seed, versionOf(options, RULES_VERSION, version));
  },

  toAct,

  apply(s, seat, action) {
    applyAction(s, seat, action, undefined); // no history lines needed here
  },

  moves: legalMoves,

  view: makeView,

  outcome(s): Outcome | null {
    if (!s.finished) return null;
    const scores = [...s.money];
    const ranks = scores.map((x) => 1 + scores.filter((y) => y > x).length);
    return { scores, ranks, reason: s.endReason };
  },

  describe(action, before, seat) {
    const copy = cloneState(before);
    try {
      return play(copy, seat, action).join('; ');
    } catch (e) {
      return `tried an illegal move (${(e as Error).message})`;
    }
  },

  /**
   * The move itself in the imperative ("Extend the LNWR to T14 (by London)"), not its consequences,
   * at most LABEL_MAX long: the hex tells the move apart; of the places by it, as many as fit.
   */
  label(action, state, seat) {
    let words = imperative(stephensonsRocket.describe(action, state, seat));
    while (words.length > LABEL_MAX) {
      const fewer = words.replace(/ \(by ([^()]*?)(?:, [^,()]+)?\)/, (_, kept: string) =>
        kept ? ` (by ${kept})` : '',
      );
      const shorter = fewer === words ? words.replace(/ \(by [^()]*\)/, '') : fewer;
      if (shorter === words) break;
      words = shorter;
    }
    return words;
  },

  /** Taken back only if it opened no vote, paid nobody and did not end the game. */
  undoable(action, before) {
    if (!action || action.type === 'bid' || before.vote) return false;
    const copy = cloneState(before);
    try {
      play(copy, copy.turn, action);
    } catch {
      return false;
    }
    return !copy.vote && !copy.finished && copy.ledger.length === before.ledger.length;
  },

  autoMove(s, seat) {
    if (!toAct(s).includes(seat)) return null;
    if (s.vote) return { type: 'bid', amount: 0 };
    const moves = legalMoves(s, seat);
    return moves.find((m) => m.type === 'token') ?? moves[0] ?? null;
  },

  commandExamples: [
    'extend LNWR straight / extend GWR F7',

    'token Manchester steel',

    'station F7 / station F7 from G8',

    'bid 2 left / bid 2 F7',

    'pass',
  ],

  parse(text, s) {
    return parseCommand(text, s);
  },

  svg: renderSvg,
  holdings: holdingsRocket,

  check: checkState,
};
