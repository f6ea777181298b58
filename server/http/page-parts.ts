// Small pure pieces of the HTML pages: relative times, the move buttons grouped
// so that a long list (1830's 40 par values) becomes a choice in two steps, and
// why a take-back is no longer offered.
import type { PictureTarget, Seat } from '../../rules/types.ts';
import type { GameService, LoadedGame, MoveChoice } from '../service.ts';
import { effectiveMoves, lastEffectiveMove, nameSeatsInMarkup } from '../game-log.ts';
import type { LogEntry } from '../store/types.ts';
import { boxedElements } from '../mail/lift.ts';
import { splitLayers } from '../mail/snapshot.ts';

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
  subgroups: { label: string; buttons: MoveButton[]; single?: boolean }[];
}

/** A joining word, an article or a comma at the end of a choice's words: "GGA (1 stock) to", "with a". */
const JOINING_END = /(?:[\s,:;]*\b(?:to|with|for|from|at|on|of|and|by|in|a|an|the)|[\s,:;]+)$/i;

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

const words = (m: MoveChoice) => m.label || m.text;

const button = (m: MoveChoice, text: string): MoveButton => ({
  text: text || words(m),
  title: words(m),
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
    if (last && last.label === null) last.buttons.push(button(m, words(m)));
    else out.push({ label: null, buttons: [button(m, words(m))], subgroups: [] });
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
    const head = sharedStart(same.map(words));
    const subs = new Map<string, MoveChoice[]>();
    for (const x of same) {
      const k = JSON.stringify((x.action as Record<string, unknown>)[subject]);
      subs.set(k, [...(subs.get(k) ?? []), x]);
    }
    // Without the group's shared words, a button of its own says the rest.
    const tail = (x: MoveChoice) => (head ? words(x).slice(head.length).trim() : words(x));
    const subgroups = [...subs.values()].map((list) => {
      const start = sharedStart(list.map(words));
      // The choice's own words, without the word that joins them to the buttons ("GGA (1 stock) to").
      const rest = start.slice(head.length).trim();
      let subject = rest;
      for (let cut = subject; (cut = subject.replace(JOINING_END, '')) !== subject && cut; ) subject = cut;
      // A choice of one move is that move's button, not a step to open.
      if (list.length === 1) return { label: '', single: true, buttons: [button(list[0]!, tail(list[0]!))] };
      return {
        label: subject,
        buttons: list.map((x) => button(x, start ? words(x).slice(start.length).trim() : words(x))),
      };
    });
    const legend = head || t;
    const title = legend.charAt(0).toUpperCase() + legend.slice(1);
    // Where the words do not start with the subject (the moves differ first in what they say
    // later), a step could not be named: the moves are buttons under the group's words.
    if (subgroups.some((g) => !g.single && !g.label))
      out.push({ label: title, buttons: same.map((x) => button(x, tail(x))), subgroups: [] });
    else out.push({ label: title, buttons: [], subgroups });
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

export type Box = [number, number, number, number];

/** The root <svg ...> tag and what it holds. */
function splitRoot(svg: string): { head: string; body: string } | null {
  const start = svg.indexOf('<svg');
  const open = svg.indexOf('>', start);
  const close = svg.lastIndexOf('</svg>');
  if (start < 0 || open < 0 || close < open) return null;
  return { head: svg.slice(start, open + 1), body: svg.slice(open + 1, close) };
}

const numbersOf = (s: string | undefined) =>
  (s ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);

/** The shapes drawn in `after` that `before` did not draw (their boxes), or null when the two cannot be compared. */
export function changedShapes(
  before: string,
  after: string,
): { a: { head: string; body: string }; view: [number, number, number, number]; boxes: Box[] } | null {
  const a = splitRoot(after);
  const b = splitRoot(before);
  if (!a || !b) return null;
  const view = numbersOf(/viewBox="([^"]+)"/.exec(a.head)?.[1]);
  if (view.length !== 4 || view.some((n) => !Number.isFinite(n))) return null;
  const font = Number(/font-size="([\d.]+)"/.exec(a.head)?.[1] ?? 16);
  // The printed board (static groups) is the same in both: only what is drawn per picture is compared.
  const drawn = (svg: string, body: string) =>
    (
      splitLayers(svg)
        ?.filter((p) => p.kind === 'dynamic')
        .map((p) => p.body) ?? [body]
    ).flatMap((run) => boxedElements(run, font));
  const was = new Map<string, number>();
  for (const e of drawn(before, b.body)) was.set(e.markup, (was.get(e.markup) ?? 0) + 1);
  const boxes: Box[] = [];
  for (const e of drawn(after, a.body)) {
    const n = was.get(e.markup) ?? 0;
    if (n > 0) was.set(e.markup, n - 1);
    else if (!e.markup.startsWith('<text')) boxes.push(e.box);
  }
  return { a, view: view as [number, number, number, number], boxes };
}

const ring = (p: Box, pad: number, width: number) => {
  const r = (n: number) => Math.round(n * 10) / 10;
  return `<rect x="${r(p[0] - pad)}" y="${r(p[1] - pad)}" width="${r(p[2] - p[0] + 2 * pad)}" height="${r(p[3] - p[1] + 2 * pad)}" fill="none" stroke="#e06000" stroke-width="${width}" stroke-dasharray="5 3" rx="3"/>`;
};

/**
 * `after` with every shape it draws that `before` did not ringed in orange (what changed since
 * the seat's last turn, on the mail's whole board), or `after` as it is when nothing can be told
 * apart or the change is all over the picture (more than `most` shapes).
 */
export function ringChanges(
  before: string,
  after: string,
  most = 24,
  /** changedShapes(before, after), when the caller has it already (the turn mail's close-up does). */
  changed: ReturnType<typeof changedShapes> = changedShapes(before, after),
): string {
  if (!changed || changed.boxes.length === 0 || changed.boxes.length > most) return after;
  const close = after.lastIndexOf('</svg>');
  return `${after.slice(0, close)}<g class="changed">${changed.boxes.map((b) => ring(b, 5, 3)).join('')}</g></svg>`;
}

/**
 * Close-ups of what changed between two pictures of a game (the player's last turn and now): the
 * shapes drawn now that were not drawn then, in bunches (the biggest first, at most `most`), each
 * framed with some room around and every changed shape ringed in orange. Empty when nothing can
 * be told apart (or the change is all over the picture).
 */
export function closeUps(before: string, after: string, most = 2, minSide = 240): string[] {
  const changed = changedShapes(before, after);
  if (!changed) return [];
  const { a, boxes } = changed;
  const [vx, vy, vw, vh] = changed.view;
  // Bunches: boxes within `near` of each other.
  const near = minSide / 3;
  let bunches: { box: Box; parts: Box[] }[] = [];
  for (const box of boxes) {
    const touching = bunches.filter(
      (g) =>
        box[0] - near <= g.box[2] &&
        g.box[0] - near <= box[2] &&
        box[1] - near <= g.box[3] &&
        g.box[1] - near <= box[3],
    );
    const merged = touching.reduce(
      (acc, g) => ({
        box: [
          Math.min(acc.box[0], g.box[0]),
          Math.min(acc.box[1], g.box[1]),
          Math.max(acc.box[2], g.box[2]),
          Math.max(acc.box[3], g.box[3]),
        ] as Box,
        parts: [...acc.parts, ...g.parts],
      }),
      { box, parts: [box] },
    );
    bunches = [...bunches.filter((g) => !touching.includes(g)), merged];
  }
  const r = (n: number) => Math.round(n * 10) / 10;
  const out: string[] = [];
  for (const { box: best, parts } of bunches.sort((x, y) => y.parts.length - x.parts.length).slice(0, most)) {
    const pad = minSide / 6;
    const w = Math.max(best[2] - best[0] + 2 * pad, minSide);
    const h = Math.max(best[3] - best[1] + 2 * pad, minSide * 0.75);
    if (w >= vw * 0.7 && h >= vh * 0.7) continue; // a close-up of nearly everything is no close-up
    const cx = (best[0] + best[2]) / 2;
    const cy = (best[1] + best[3]) / 2;
    const x = Math.min(Math.max(cx - w / 2, vx), vx + vw - Math.min(w, vw));
    const y = Math.min(Math.max(cy - h / 2, vy), vy + vh - Math.min(h, vh));
    // Drawn 640 px wide by default (the mail's column); a page scales it to its own.
    const cw = Math.min(w, vw);
    const ch = Math.min(h, vh);
    const head = a.head
      .replace(/\s(width|height)="[^"]*"/g, '')
      .replace(
        /viewBox="[^"]+"/,
        `viewBox="${r(x)} ${r(y)} ${r(cw)} ${r(ch)}" width="640" height="${Math.round((640 * ch) / cw)}"`,
      );
    const rings = parts.map((p) => ring(p, 4, 2.5)).join('');
    out.push(`${head}${a.body}<g class="changed">${rings}</g></svg>`);
  }
  return out;
}

/**
 * The width (px) at which most of a picture's labels are drawn at least `px` pixels tall, or null
 * when any width fits: the page gives the picture that width and lets it scroll in its own box.
 */
export function readableWidth(svg: string, px = 11): number | null {
  const root = splitRoot(svg);
  const view = numbersOf(/viewBox="([^"]+)"/.exec(root?.head ?? '')?.[1]);
  if (!root || view.length !== 4) return null;
  const sizes = [...svg.matchAll(/<text\b[^>]*?font-size="([\d.]+)"/g)].map((m) => Number(m[1])).sort((p, q) => p - q);
  if (sizes.length === 0) return null;
  const median = sizes[Math.floor(sizes.length / 2)]!;
  return Math.ceil((view[2]! * px) / median);
}

/**
 * Close-ups of what changed on a seat's picture since its own last move (none before it has
 * moved, or when nobody has moved since): the page's and the turn mail's.
 */
export async function changedSince(
  service: GameService,
  game: LoadedGame,
  seat: Seat,
  now: string,
  target: PictureTarget = 'page',
): Promise<string[]> {
  const then = await pictureThen(service, game, seat, target);
  return then === null ? [] : closeUps(then, now);
}

/**
 * The seat's picture as it stood at its own last move (drawn for `target`), or null: before it
 * has moved, when nobody has moved since, or when it cannot be drawn.
 */
export async function pictureThen(
  service: GameService,
  game: LoadedGame,
  seat: Seat,
  target: PictureTarget,
): Promise<string | null> {
  const d = game.doc;
  const lastOwn = lastEffectiveMove(d.log, seat);
  if (!lastOwn || lastOwn.seq >= d.log.length || d.status !== 'active' || !game.rules.svg) return null;
  try {
    const then = await service.stateAt(game, lastOwn.seq);
    return then === null ? null : nameSeatsInMarkup(game.rules.svg(service.viewOf(game, then, seat), target), d);
  } catch {
    return null;
  }
}
