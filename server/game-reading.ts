// Reading a loaded game: what each seat may see, which moves it has, the
// history in plain words, and the history download. Pure functions of the
// game as loaded; nothing here changes a game (that is service.ts).
import type { Seat, View } from '../rules/types.ts';
import { actionHashOf } from './store/chain.ts';
import { acceptsOlderSeq, lineOf, nameSeats } from './game-log.ts';
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
  return game.rules.view(game.state, seat);
}

/** Whether a move by `seat` made against `seq` would be taken (current seq, or the simultaneous-move rule). */
export function canPlayAt(game: LoadedGame, seat: Seat, seq: number): boolean {
  if (game.doc.status !== 'active' || game.state === null) return false;
  const toAct = game.rules.toAct(game.state);
  if (!toAct.includes(seat)) return false;
  return seq === game.stateSeq || acceptsOlderSeq(game.doc.log, seq, game.stateSeq, seat, toAct);
}

/**
 * The first `limit` legal moves with their words, and how many there are in all.
 * describe() may play a move on a copy of the state, so a mail's quick links
 * describe only the moves they show.
 */
export function firstMoves(game: LoadedGame, seat: Seat, limit: number): { moves: MoveChoice[]; total: number } {
  if (game.doc.status !== 'active' || game.state === null) return { moves: [], total: 0 };
  if (!game.rules.toAct(game.state).includes(seat)) return { moves: [], total: 0 };
  const known = movesKnown(game.state, seat, () => game.rules.moves(game.state, seat));
  const moves = known.all.slice(0, limit).map((action, n) => {
    let text = known.texts.get(n);
    if (text === undefined) known.texts.set(n, (text = game.rules.describe(action, game.state, seat)));
    return { n, action, text: nameSeats(text, game.doc) };
  });
  return { moves, total: known.all.length };
}

/**
 * The legal moves of a seat and the words of those described so far, kept per state object:
 * a state is never changed once the game has moved on (moves apply to a copy), so a new
 * position is a new key and nothing goes stale. Quick links and the play page ask again and
 * again in one position; listing 1830's moves is costly.
 */
const known = new WeakMap<object, Map<Seat, { all: unknown[]; texts: Map<number, string> }>>();
function movesKnown(state: object, seat: Seat, list: () => unknown[]) {
  let bySeat = known.get(state);
  if (!bySeat) known.set(state, (bySeat = new Map()));
  let k = bySeat.get(seat);
  if (!k) bySeat.set(seat, (k = { all: list(), texts: new Map() }));
  return k;
}

/** Every entry up to `upto` as a plain-words line. */
export function historyLines(game: LoadedGame, upto = Infinity): HistoryLine[] {
  return game.doc.log.filter((e) => e.seq <= upto).map((e) => lineOf(game.doc, e));
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
