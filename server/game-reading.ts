// Reading a loaded game: what each seat may see, which moves it has, the
// history in plain words, and the history download. Pure functions of the
// game as loaded; nothing here changes a game (that is service.ts).
import type { Seat, View } from '../rules/types.ts';
import { actionHashOf } from './store/chain.ts';
import { acceptsOlderSeq, lineOf, nameSeats } from './game-log.ts';
import { imperative } from '../rules/label.ts';
import { cloneState } from '../rules/clone.ts';
import type { HistoryLine, LoadedGame, MoveChoice } from './service.ts';

/** The rules' view for a seat (null: a spectator); a waiting view before the start. */
export function viewFor(game: LoadedGame, seat: Seat | null): View {
  if (game.attention) return { seat, toAct: [], status: 'Needs attention' };
  if (game.state === null) {
    const d = game.doc;
    const status =
      d.status === 'abandoned'
        ? 'Abandoned before the start'
        : `Waiting for players: ${d.seats.length} of ${d.seatCount} joined`;
    return { seat, toAct: [], status };
  }
  return namedView(game, game.rules.view(game.state, seat));
}

/** A view whose status line names players (the rules write `{seat:N}`, as in history lines). */
export function namedView(game: LoadedGame, view: View): View {
  return typeof view.status === 'string' && view.status.includes('{seat:')
    ? { ...view, status: nameSeats(view.status, game.doc) }
    : view;
}

/** Whether a move by `seat` made against `seq` would be taken (current seq, or the simultaneous-move rule). */
export function canPlayAt(game: LoadedGame, seat: Seat, seq: number): boolean {
  if (game.doc.status !== 'active' || game.state === null) return false;
  const toAct = game.rules.toAct(game.state);
  if (!toAct.includes(seat)) return false;
  return seq === game.stateSeq || acceptsOlderSeq(game.doc.log, seq, game.stateSeq, seat, toAct);
}

/**
 * The first `limit` legal moves, the most useful first (the rules' rank, ties in the order of
 * moves()), with their history words (`text`) and their button words (`label`, the rules' label:
 * imperative and short), and how many there are in all. describe() may play a move on a copy of
 * the state, so only the moves asked for are described, and each only when its `text` is read.
 * `n` stays the index into moves(), which quick links carry.
 */
export function firstMoves(
  game: LoadedGame,
  seat: Seat,
  limit: number,
  ranked = true,
): { moves: MoveChoice[]; total: number } {
  if (game.doc.status !== 'active' || game.state === null) return { moves: [], total: 0 };
  if (!game.rules.toAct(game.state).includes(seat)) return { moves: [], total: 0 };
  const rules = game.rules;
  const state = game.state;
  const known = movesKnown(state, seat, () => rules.moves(state, seat));
  if (!known.order) {
    const rank = rules.rank;
    const ranks = rank ? known.all.map((a) => rank(a, state, seat)) : null;
    const idx = known.all.map((_, i) => i);
    known.order = ranks ? idx.sort((a, b) => ranks[a]! - ranks[b]! || a - b) : idx;
  }
  const order = ranked ? known.order : known.all.map((_, i) => i);
  const moves = order.slice(0, limit).map((n): MoveChoice => {
    const action = known.all[n];
    // The history words are made when read (the confirm page, labels that read alike): describing
    // plays the move on a copy of the state (1830's is large), and a mail lists its thirty moves
    // by their labels alone.
    const described = () => {
      let text = known.texts.get(n);
      if (text === undefined) known.texts.set(n, (text = rules.describe(action, state, seat)));
      return text;
    };
    const label = nameSeats(rules.label ? rules.label(action, state, seat) : imperative(described(), 9), game.doc);
    return {
      n,
      action,
      get text() {
        return nameSeats(described(), game.doc);
      },
      label,
    };
  });
  return { moves: distinctLabels(moves), total: known.all.length };
}

/**
 * Move number `n` of moves() (the index quick links and the API's `n` carry), from the list kept
 * for this position (a turn mail or the play page listed it already); a copy, as moves() makes
 * fresh objects. Undefined when there is none.
 */
export function legalMove(game: LoadedGame, seat: Seat, n: number): unknown {
  const state = game.state;
  if (state === null || !Number.isInteger(n) || n < 0) return undefined;
  const rules = game.rules;
  const all = movesKnown(state, seat, () => rules.moves(state, seat)).all;
  return n < all.length ? cloneState(all[n]) : undefined;
}

/** Move number `n` (the index into moves()) with its words, or null if there is none. */
export function moveAt(game: LoadedGame, seat: Seat, n: number): MoveChoice | null {
  if (!Number.isInteger(n) || n < 0) return null;
  const { moves } = firstMoves(game, seat, n + 1, false);
  const m = moves[n];
  if (!m) return null;
  // Its label as the mail showed it among the others (made distinct there).
  const shown = firstMoves(game, seat, Infinity).moves.find((x) => x.n === n);
  return shown ?? m;
}

/**
 * Labels that still read the same (a game whose label says too little) get the history
 * line's words; if those match too, an ordinal. A page or a mail never shows two alike.
 */
function distinctLabels(moves: MoveChoice[]): MoveChoice[] {
  const count = (ms: MoveChoice[]) => {
    const c = new Map<string, number>();
    for (const m of ms) c.set(m.label, (c.get(m.label) ?? 0) + 1);
    return c;
  };
  let c = count(moves);
  if ([...c.values()].every((k) => k === 1)) return moves;
  // The same action listed twice is one button.
  const actions = new Set<string>();
  moves = moves.filter((m) => {
    const a = JSON.stringify(m.action);
    if (actions.has(a)) return false;
    actions.add(a);
    return true;
  });
  c = count(moves);
  let out = moves.map((m) => (c.get(m.label)! > 1 ? { ...m, label: imperative(m.text, 9) } : m));
  c = count(out);
  const seen = new Map<string, number>();
  out = out.map((m) => {
    if (c.get(m.label)! < 2) return m;
    const k = (seen.get(m.label) ?? 0) + 1;
    seen.set(m.label, k);
    return { ...m, label: `${m.label} (choice ${k})` };
  });
  return out;
}

/**
 * The legal moves of a seat and the words of those described so far, kept per state object:
 * a state is never changed once the game has moved on (moves apply to a copy), so a new
 * position is a new key and nothing goes stale. Quick links and the play page ask again and
 * again in one position; listing 1830's moves is costly.
 */
const known = new WeakMap<object, Map<Seat, { all: unknown[]; texts: Map<number, string>; order: number[] | null }>>();
function movesKnown(state: object, seat: Seat, list: () => unknown[]) {
  let bySeat = known.get(state);
  if (!bySeat) known.set(state, (bySeat = new Map()));
  let k = bySeat.get(seat);
  if (!k) bySeat.set(seat, (k = { all: list(), texts: new Map(), order: null }));
  return k;
}

/** Every entry up to `upto` as a plain-words line (old logs' mail-settings entries left out). */
export function historyLines(game: LoadedGame, upto = Infinity): HistoryLine[] {
  // Mail settings are private (games from before kept them in the log): not in the history shown.
  return game.doc.log.filter((e) => e.seq <= upto && e.kind !== 'prefs').map((e) => lineOf(game.doc, e));
}

/**
 * The last `count` of historyLines(game, upto), read from entry `upto` back: a step page or a
 * reply's history of a long game costs the lines it shows, not the whole log.
 */
export function recentLines(game: LoadedGame, upto: number, count: number): HistoryLine[] {
  const log = game.doc.log;
  const out: HistoryLine[] = [];
  for (let i = Math.min(upto, log.length) - 1; i >= 0 && out.length < count; i--) {
    const e = log[i]!;
    if (e.seq <= upto && e.kind !== 'prefs') out.push(lineOf(game.doc, e));
  }
  return out.reverse();
}

/** Entries after the seat's last own move (or since the start), reminders and mail settings left out. */
export function sinceLastTurn(game: LoadedGame, seat: Seat): HistoryLine[] {
  const log = game.doc.log;
  let from = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i]!;
    if ((e.kind === 'move' || e.kind === 'undo') && e.seat === seat) {
      from = i + 1;
      break;
    }
  }
  return log
    .slice(from)
    .filter((e) => e.kind !== 'reminder' && e.kind !== 'prefs')
    .map((e) => lineOf(game.doc, e));
}

/** The history.json download. While the game runs, other seats' actions and their salts are withheld (actionHash stays). */
export function historyDoc(game: LoadedGame, seat: Seat | null): Record<string, unknown> {
  const d = game.doc;
  const over = d.status === 'finished' || d.status === 'abandoned';
  const log = d.log.map((e) => {
    // names written in for the rules' {seat:N}, as the pages show them; the sealed text stays for the hash
    const named = e.text === undefined ? e.text : nameSeats(e.text, d);
    const shown = named === e.text ? e : { ...e, text: named, sealedText: e.text };
    if (shown.action === undefined || over || shown.seat === seat) return shown;
    const { action, salt, ...rest } = shown;
    return { ...rest, actionHash: actionHashOf(action, salt) };
  });
  return {
    format: 'share-games-history/1',
    id: d.id,
    rules: d.rules,
    rulesVersion: d.rulesVersion ?? 1,
    title: d.title,
    options: d.options,
    status: d.status,
    seats: d.seats.map((s, i) => ({ seat: i, name: s.name })),
    seedHash: d.seedHash,
    ...(over ? { seed: d.seed } : {}),
    outcome: d.outcome,
    log,
  };
}
