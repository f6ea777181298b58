// Small pure pieces of the HTML pages: relative times, the move buttons grouped
// so that a long list (1830's 40 par values) becomes a choice in two steps, and
// why a take-back is no longer offered.
import type { Seat } from '../../rules/types.ts';
import type { MoveChoice } from '../service.ts';
import { effectiveMoves } from '../game-log.ts';
import type { LogEntry } from '../store/types.ts';

/** "3 hours ago", "in 2 days", "just now": `iso` against `now`. */
export function timeAgo(iso: string, now: Date): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  const secs = Math.round((now.getTime() - t) / 1000);
  const abs = Math.abs(secs);
  if (abs < 45) return 'just now';
  const units: [number, string][] = [
    [60 * 60 * 24 * 365, 'year'],
    [60 * 60 * 24 * 30, 'month'],
    [60 * 60 * 24 * 7, 'week'],
    [60 * 60 * 24, 'day'],
    [60 * 60, 'hour'],
    [60, 'minute'],
  ];
  const [size, name] = units.find(([s]) => abs >= s * 0.95) ?? [60, 'minute'];
  const n = Math.max(1, Math.round(abs / size));
  const words = `${n} ${name}${n === 1 ? '' : 's'}`;
  return secs >= 0 ? `${words} ago` : `in ${words}`;
}

/** The full time for a tooltip: "2026-12-02 00:05 UTC". */
export function fullTime(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export interface MoveButton {
  text: string;
  /** The whole label (the button shows only its tail inside a group). */
  title: string;
  actionJson: string;
}

export interface MoveGroup {
  /** Null: plain buttons. Otherwise the words the group's moves share ("sets the par value of"). */
  label: string | null;
  buttons: MoveButton[];
  /** Second step: one choice per subject (the corporation), each with its own buttons (the prices). */
  subgroups: { label: string; buttons: MoveButton[] }[];
}

/** A kind of move with more choices than this is offered in two steps. */
const GROUP_OVER = 12;

/** The words every label starts with, cut at a word boundary. */
function sharedStart(labels: string[]): string {
  if (labels.length < 2) return '';
  let end = 0;
  const first = labels[0]!;
  while (end < first.length && labels.every((l) => l[end] === first[end])) end++;
  const cut = first.slice(0, end);
  if (end === first.length || labels.some((l) => l.length === end)) return '';
  // Back to the last whole word.
  const space = cut.lastIndexOf(' ');
  return space > 0 ? cut.slice(0, space) : '';
}

const button = (m: MoveChoice, text: string): MoveButton => ({
  text: text || m.text,
  title: m.text,
  actionJson: JSON.stringify(m.action),
});

/**
 * The move buttons, in their order; a kind of move (the action's `type`) offered more than
 * GROUP_OVER times becomes a two-step choice: first its subject (the first field of the action
 * that varies, such as the corporation), then the rest (the price).
 */
export function groupMoves(moves: MoveChoice[]): MoveGroup[] {
  const typeOf = (m: MoveChoice) => {
    const a = m.action as { type?: unknown } | null;
    return a && typeof a === 'object' && typeof a.type === 'string' ? a.type : null;
  };
  const byType = new Map<string | null, MoveChoice[]>();
  for (const m of moves) {
    const t = typeOf(m);
    byType.set(t, [...(byType.get(t) ?? []), m]);
  }
  const out: MoveGroup[] = [];
  const plain = (m: MoveChoice) => {
    const last = out[out.length - 1];
    if (last && last.label === null) last.buttons.push(button(m, m.text));
    else out.push({ label: null, buttons: [button(m, m.text)], subgroups: [] });
  };
  const done = new Set<string | null>();
  for (const m of moves) {
    const t = typeOf(m);
    const same = byType.get(t)!;
    if (t === null || same.length <= GROUP_OVER) {
      plain(m);
      continue;
    }
    if (done.has(t)) continue;
    done.add(t);
    const subject = subjectField(same);
    if (subject === null) {
      for (const x of same) plain(x);
      continue;
    }
    const head = sharedStart(same.map((x) => x.text));
    const subs = new Map<string, MoveChoice[]>();
    for (const x of same) {
      const k = JSON.stringify((x.action as Record<string, unknown>)[subject]);
      subs.set(k, [...(subs.get(k) ?? []), x]);
    }
    const subgroups = [...subs.values()].map((list) => {
      const start = sharedStart(list.map((x) => x.text));
      const rest = start.slice(head.length).trim();
      return {
        label: rest || list[0]!.text,
        buttons: list.map((x) => button(x, start ? x.text.slice(start.length).trim() : x.text)),
      };
    });
    const words = head || t;
    out.push({ label: words.charAt(0).toUpperCase() + words.slice(1), buttons: [], subgroups });
  }
  return out;
}

/** The first field of the actions (after `type`) that takes several values, but fewer than there are moves. */
function subjectField(moves: MoveChoice[]): string | null {
  const first = moves[0]!.action as Record<string, unknown>;
  for (const key of Object.keys(first)) {
    if (key === 'type') continue;
    const values = new Set(moves.map((m) => JSON.stringify((m.action as Record<string, unknown>)[key])));
    if (values.size > 1 && values.size < moves.length) return key;
  }
  return null;
}

/**
 * Why "Take back my last move" is gone although the seat has a move in force: somebody
 * else moved after it. Null when there is nothing to say.
 */
export function undoGone(log: LogEntry[], seat: Seat, names: string[]): string | null {
  const moves = effectiveMoves(log);
  let mine = -1;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i]!.seat === seat) {
      mine = i;
      break;
    }
  }
  if (mine < 0 || mine === moves.length - 1) return null;
  const next = moves[mine + 1]!;
  const who = next.seat === null || next.seat === undefined ? 'somebody' : (names[next.seat] ?? 'somebody');
  return `Your last move can no longer be taken back: ${who} has moved since.`;
}
