// The contract every game follows (see DESIGN.md, "The rules contract").
//
// A game is plain data plus pure functions. The server never looks inside a
// state: it asks the rules who must act, applies untrusted actions through
// `apply`, and shows each person only what `view` returns for their seat.
// Nothing here may do I/O, read the clock or call Math.random.

import type { CardRow, PictureTarget } from './picture.ts';

export type { CardRow, PictureTarget };

/** A seat index, 0-based, in play order as the rules set it up. */
export type Seat = number;

/** Game options chosen at creation (variants, optional rules). Plain JSON. */
export type Options = Record<string, boolean | number | string>;

export type OptionSpec =
  | { id: string; label: string; kind: 'boolean'; default: boolean }
  | { id: string; label: string; kind: 'choice'; choices: { value: string; label: string }[]; default: string };

/**
 * Thrown by `apply` (and by parsers) when an action is malformed or illegal.
 * The message is shown to the player as is, so it says in the game's own
 * words what forbids the move: "Ada already holds 60% of PRR".
 */
export class RuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuleError';
  }
}

/** Final result: one entry per seat, indexed by seat. */
export interface Outcome {
  /** The game's own score for each seat (points, money, value). */
  scores: number[];
  /** 1 is the winner; equal ranks for a true tie after every tie-break. */
  ranks: number[];
  /** Why the game ended, in words ("the bank broke", "third scoring"). */
  reason: string;
}

/**
 * What one seat (or a spectator, seat null) may see. Plain JSON, built only
 * from information that seat is allowed to know. Pages, emails, the API and
 * the history download are all made from views, never from the state.
 */
export interface View {
  /** The seat this view is for, null for a spectator. */
  seat: Seat | null;
  /** Seats that must act now ([] when the game is over). Public. */
  toAct: Seat[];
  /** Short public status line: "Stock round 2 — Ada to act", "Game over". */
  status: string;
  /** Anything else the game wants to show; each game documents its own. */
  [key: string]: unknown;
}

/**
 * A game's state or action where the server holds it: opaque (only the game's
 * own rules look inside, each with its own types), so `any` on purpose: a
 * Rules<GameState> must stand in for every game at once.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; the server never reads a state's fields
export type Opaque = any;

export interface Rules<State = Opaque, Action = Opaque> {
  id: string;
  title: string;
  /**
   * The rules version: what a recorded log replays to. Every game records the
   * version it was created under, every log entry the version that applied it,
   * and the server refuses to replay a game silently to another position.
   *
   * HOW TO BUMP (read before changing what `setup` or `apply` do to a state):
   * a change alters what an existing log replays to when any recorded game
   * (the corpus in test/corpus/, or a running game on a server) would reach a
   * different state: a rule read differently, a new refusal, a changed price,
   * a field added to or renamed in the state. Then:
   *   1. `version: N + 1` here;
   *   2. keep the old behaviour for games of version N: `setup` receives the
   *      game's version (4th argument); store it in the state where the rules
   *      need it (`state.rulesVersion`) and branch on it at the change
   *      (`if (state.rulesVersion >= N + 1) new else old`), the way
   *      18xx.games keeps old behaviour for old games. A state-shape change
   *      keeps the old shape for old versions the same way;
   *   3. `npm run --silent corpus -- record` adds recorded games of the new
   *      version (the old ones stay and keep being checked);
   *   4. a test plays the change under both versions.
   * If the old behaviour cannot be kept, raise `oldestVersion` instead: the
   * games of older versions then show "needs attention" with the reason, and
   * stay readable. The corpus test (test/corpus/corpus.test.ts) fails for any
   * change that alters a replay without a bump.
   */
  version: number;
  /** The oldest version this engine still replays exactly (default 1). */
  oldestVersion?: number;
  players: { min: number; max: number };
  options?: OptionSpec[];

  /**
   * Deterministic: the same seats, seed, options and version give the same
   * state. `version` is the game's rules version (see `version`; the current
   * one for a new game); engines that never bumped may ignore it.
   */
  setup(seats: number, seed: string, options: Options, version?: number): State;

  /** Seats that must act now; several at once for simultaneous choices; [] when over. */
  toAct(state: State): Seat[];

  /**
   * Checks the action completely (shape, then legality) and only then mutates
   * the state. On a bad action throws RuleError and leaves the state untouched.
   */
  apply(state: State, seat: Seat, action: unknown): void;

  /**
   * Complete legal actions for a seat that must act; never empty for a seat
   * in `toAct`. Where the space is huge it may be a sensible subset.
   */
  moves(state: State, seat: Seat): Action[];

  view(state: State, seat: Seat | null): View;

  /** Final scores and ranks, null while the game runs. */
  outcome(state: State): Outcome | null;

  /**
   * One line of plain-words history for an action taken by `seat`, given the
   * state just before it. Public: it must not reveal what others may not see
   * (a card drawn blind is "drew a card", not which). It starts with the verb
   * ("bought ..."): the server writes the acting player's name before it.
   * Another seat is named as `{seat:N}` (0-based), which the server replaces
   * with that player's name.
   *
   * `after`, when given, is the state this very action leads to from `before` (the server has
   * just played it): an engine that plays the move out on a copy to put its consequences in
   * words may read it instead (1830's state is large). Never changed by describe.
   */
  describe(action: Action, before: State, seat: Seat, after?: State): string;

  /**
   * Optional (every game we serve has one): the words of a quick link or a move button for one of
   * `seat`'s moves in `state`: what the player will do, in the imperative, short and unambiguous
   * ("Buy Blue Athens-Sofia (4 M), take Red"). Shown only to that seat, so it may name what only
   * that seat sees (its own cards). Never JSON; no two of one position's moves read the same.
   * rules/label.ts turns a history line into one. Without it the server uses describe().
   */
  label?(action: Action, state: State, seat: Seat): string;

  /**
   * Optional: how useful a move is to offer first (lower first; ties keep the order of `moves`).
   * A turn mail shows the first dozen moves in this order as quick links.
   */
  rank?(action: Action, state: State, seat: Seat): number;

  /** False once a move revealed hidden information; then it cannot be taken back. */
  undoable?(action: Action, before: State): boolean;

  /** What a timed-out seat plays, if the game allows it; null if it does not. */
  autoMove?(state: State, seat: Seat): Action | null;

  /**
   * Optional: a player's typed command ("buy PRR ipo", "pass") turned into an
   * action, as brdgme does; throws RuleError with a hint when it does not parse.
   */
  parse?(text: string, state: State, seat: Seat): Action;

  /** Optional: examples of `parse`'s commands with what each does, for help in mail and pages ("buy PRR ipo: buy a share from the IPO"). */
  commandExamples?: string[];

  /**
   * Optional: the picture of a view as a standalone SVG document (pure). `target` 'mail' draws it
   * for a mail's 360-640 px column (rules/picture.ts: MAIL_WIDTH wide, no word smaller than
   * MAIL_MIN_TEXT px, the seat's own holdings marked); 'page' (the default) for a page. Players
   * are written `{seat:N}`, or `{seat:N:W}` where the picture has room for W characters only (the
   * server writes the name in, cut to fit with an ellipsis).
   */
  svg?(view: View, target?: PictureTarget): string;

  /**
   * Optional: the seat's own holdings and position in a view (its money, shares, hand, score), as
   * rows of words and coloured chips, for the turn mail's close-up on a phone (rules/picture.ts
   * drawCard). Drawn from the view only; for a spectator, the public standing. Players are
   * written `{seat:N}`.
   */
  holdings?(view: View): CardRow[];

  /**
   * Optional: standing orders (programmed moves). A seat leaves an order; the server plays it
   * the moment that seat is to act (server/orders.ts). Pure, and reading only what the seat may
   * see: `arm` checks a spec against the position now (RuleError if it cannot stand) and returns
   * the order to keep, with whatever baseline it compares against later; `decide` says what it
   * does now that the seat is to act; `describe` puts it in words; `offers` lists the kinds a
   * seat may leave now (for forms and mail links).
   */
  orders?: {
    arm(state: State, seat: Seat, spec: unknown): StandingOrder;
    decide(state: State, seat: Seat, order: StandingOrder): OrderDecision<Action>;
    describe(order: StandingOrder): string;
    offers(state: State, seat: Seat): OrderOffer[];
  };

  /** Optional: invariants the random playouts check after every move; returns problems found. */
  check?(state: State): string[];
}

/** A standing order as a game keeps it: plain JSON with its kind. */
export type StandingOrder = { kind: string } & Record<string, unknown>;

/**
 * What a standing order does when its seat is to act: play a move (`done`: and it is finished,
 * the player is told why), stop (disarmed, the player is told why; nothing played), expire (its
 * round is over: dropped quietly), or idle (nothing to do at this step: kept, the player acts).
 */
export type OrderDecision<Action = Opaque> =
  | { play: Action; done?: string }
  | { stop: string }
  | { expire: true }
  | { idle: true };

/** A kind of order a seat may leave now, with its choices (corporations, companies) and a suggested number. */
export interface OrderOffer {
  kind: string;
  choices?: string[];
  suggested?: number;
}

/** Player names are not part of the rules; the server passes them to templates. */
export type AnyRules = Rules<Opaque, Opaque>;
