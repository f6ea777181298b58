// A short text command language: "extend LNWR straight", "extend GWR F7",
// "token Manchester steel", "station F7", "station F7 from G8",
// "bid 2 left", "bid 2 F7", "pass".
import { RuleError } from '../types.ts';
import { board, DIRECTION_NAMES, GOODS, turnDirection, type Good } from './board.ts';
import type { SRAction } from './actions.ts';
import type { SRState } from './state.ts';

const COMPASS: Record<string, number> = { e: 0, se: 1, sw: 2, w: 3, nw: 4, ne: 5 };
DIRECTION_NAMES.forEach((n, i) => {
  COMPASS[n] = i;
  COMPASS[n.replace('-', '')] = i;
});

const HELP =
  'Write for example "extend LNWR straight" (or left, right, a compass direction, a hex like F7), "token Manchester steel", ' +
  '"station F7", "station F7 from G8", "bid 2 left", "bid 0" or "pass".';

/** A player's word quoted back in a message, cut short if it is long. */
function quote(text: string): string {
  return `"${text.length > 30 ? `${text.slice(0, 30)}…` : text}"`;
}

/** Refuses words after a complete command: "station F7 G8" must not quietly become "station F7". */
function nothingAfter(words: string[], used: number, usage: string): void {
  if (words.length > used)
    throw new RuleError(`${quote(words.slice(used).join(' '))} is more than the command takes: write ${usage}.`);
}

function squash(t: string): string {
  return t.toLowerCase().replace(/[^a-z]/g, '');
}

function findCity(words: string[]): number {
  const key = squash(words.join(''));
  if (!key) throw new RuleError('Say which city: "token Manchester".');
  const cities = board.places.map((p, i) => ({ p, i })).filter(({ p }) => p.kind === 'city');
  const exact = cities.find(({ p }) => p.id === key || squash(p.name) === key);
  if (exact) return exact.i;
  const hits = cities.filter(({ p }) => squash(p.name).startsWith(key));
  if (hits.length === 1) return hits[0]!.i;
  throw new RuleError(
    `No city called ${quote(words.join(' '))}. The cities: ${cities.map(({ p }) => p.name).join(', ')}.`,
  );
}

/** A destination word: a hex label, a compass direction, or straight/left/right from the given locomotive. */
function destination(word: string | undefined, from: number, facing: number, atStart: boolean): string {
  if (!word) throw new RuleError('Say where: straight, left, right, a compass direction or a hex.');
  const w = word.toLowerCase();
  if (board.hexIndex.has(word.toUpperCase())) return word.toUpperCase();
  let dir: number | undefined = COMPASS[w];
  if (dir === undefined && (w === 'straight' || w === 'ahead' || w === 'left' || w === 'right')) {
    if (atStart)
      throw new RuleError(
        'A locomotive in its start town has no facing yet: name a compass direction (e, se, sw, w, nw, ne) or a hex.',
      );
    dir = turnDirection(facing, w === 'ahead' ? 'straight' : (w as 'straight' | 'left' | 'right'));
  }
  if (dir === undefined) throw new RuleError(`${quote(word)} is not a direction or a hex. ${HELP}`);
  const h = board.neighbour[from]![dir]!;
  if (h < 0) throw new RuleError('That way lies the sea.');
  return board.hexIds[h]!;
}

export function parseCommand(text: string, s: SRState): SRAction {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const verb = (words.shift() ?? '').toLowerCase();
  if (['pass', 'done', 'end', 'no'].includes(verb)) return s.vote ? { type: 'bid', amount: 0 } : { type: 'pass' };
  if (verb === 'bid') {
    if (!s.vote) throw new RuleError('There is no vote going on.');
    const amount = Number(words[0]);
    if (!Number.isInteger(amount) || amount < 0)
      throw new RuleError('Write "bid 2 left" or "bid 2 F7" (a number of shares and where), or "bid 0" to pass.');
    if (amount === 0) return { type: 'bid', amount: 0 };
    nothingAfter(words, 2, '"bid 2 left" or "bid 2 F7"');
    const v = s.vote;
    return { type: 'bid', amount, to: destination(words[1], v.from, v.facing, v.fromStart) };
  }
  if (verb === 'token' || verb === 'take') {
    let good: Good | undefined;
    const last = words[words.length - 1]?.toLowerCase();
    if (last && (GOODS as readonly string[]).includes(last)) {
      good = last as Good;
      words.pop();
    }
    const city = findCity(words);
    const left = s.cityGoods[city]!;
    if (!good) {
      if (left.length === 0) throw new RuleError(`${board.places[city]!.name} has no tokens left.`);
      good = left[0]!;
    }
    return { type: 'token', city: board.places[city]!.id, good };
  }
  if (verb === 'station') {
    const hex = words[0]?.toUpperCase();
    if (!hex) throw new RuleError('Write "station F7" or "station F7 from G8".');
    if (words[1]?.toLowerCase() === 'from') {
      if (!words[2]) throw new RuleError('Say which of your stations to move: "station F7 from G8".');
      nothingAfter(words, 3, '"station F7 from G8"');
      return { type: 'station', hex, from: words[2].toUpperCase() };
    }
    nothingAfter(words, 1, '"station F7", or "station F7 from G8" to move one');
    return { type: 'station', hex };
  }
  if (verb === 'extend' || verb === 'move' || board.lineIndex.has(verb.toUpperCase())) {
    if (verb === 'move' && words[0]?.toLowerCase() === 'station') {
      // "move station G8 to F7"
      const from = words[1]?.toUpperCase();
      const toAt = words[2]?.toLowerCase() === 'to' ? 3 : 2;
      const to = words[toAt]?.toUpperCase();
      if (!from || !to) throw new RuleError('Write "move station G8 to F7".');
      nothingAfter(words, toAt + 1, '"move station G8 to F7"');
      return { type: 'station', hex: to, from };
    }
    const lineWord = board.lineIndex.has(verb.toUpperCase()) ? verb : words.shift();
    const line = board.lineIndex.get((lineWord ?? '').toUpperCase());
    if (line === undefined) throw new RuleError(`Which line? ${board.lines.map((l) => l.id).join(', ')}.`);
    if (words[0]?.toLowerCase() === 'to') words.shift();
    nothingAfter(words, 1, `"extend ${board.lines[line]!.id} straight" (one step; a line moves once a turn)`);
    const l = s.lines[line]!;
    if (l.absorbedInto >= 0) throw new RuleError(`The ${board.lines[line]!.id} no longer runs.`);
    return { type: 'extend', line: board.lines[line]!.id, to: destination(words[0], l.loco, l.facing, l.atStart) };
  }
  throw new RuleError(HELP);
}
