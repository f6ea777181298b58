// The text command language, for the plain form and for mail replies:
//   draw | pass | discard <card> <card>...
//   obstacle <id> <point> [<degrees>]
//   river <point> <point> ...
//   build <from> <to> [via <x>,<y> ...] [pay <card> ...]
//   build <from> new <card> at <point> [via <x>,<y> ...] [pay <card> ...]
// Station and card ids are as shown on the table (S1, M-city, york ...);
// case does not matter. A point is a square of the picture's grid ("D4", its centre), or x,y in
// millimetres, x right, y down (bends after "via" are millimetres only).
import { RuleError } from '../types.ts';
import type { PCAction } from './actions.ts';
import { CARD_BY_ID, CARDS } from './data.ts';
import type { PCState } from './state.ts';
import { squareCentre } from './places.ts';

const HELP =
  'Write "draw", "pass", "discard york bath", "build S1 york via 100,-40 pay bath", "build S1 new dent at E7", ' +
  '"obstacle lake D4 90" or "river B3 D4 F3" (a point is a square of the grid, like D4, or x,y in millimetres).';

/** A word the player typed, cut short for a message. */
function short(tok: string): string {
  return tok.length > 24 ? `${tok.slice(0, 21)}...` : tok;
}

/** A point: x,y in millimetres, or a square of the picture's grid ("D4": its centre). */
function point(tok: string | undefined, s?: PCState): [number, number] {
  const square = s && tok ? squareCentre(s.area, tok) : null;
  if (square) return square;
  const m = tok?.match(/^\(?(-?\d+)\s*,\s*(-?\d+)\)?$/);
  if (!m)
    throw new RuleError(
      `"${short(tok ?? '')}" is not a point: write a square of the picture's grid, like D4, or x,y in millimetres, like 120,-40. ${HELP}`,
    );
  const p: [number, number] = [Number(m[1]), Number(m[2])];
  if (p.some((v) => Math.abs(v) > 5000))
    throw new RuleError(`${short(tok!)} is off the table: coordinates run from -5000 to 5000 mm.`);
  return p;
}

/** A name as the player may write it: any case, words joined by spaces or hyphens. */
function key(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '-');
}

/** Words that end a name in a build command. */
const KEYWORDS = new Set(['new', 'at', 'via', 'pay']);

/**
 * Takes a name of up to four words off the front of toks ("kirkby stephen",
 * "kirkby-stephen", "Request Stop 1"), the longest that `find` knows; throws
 * `missing` quoting the first word when none is known.
 */
function takeName(toks: string[], find: (k: string) => string | undefined, missing: (tok: string) => string): string {
  const first = toks[0];
  if (first === undefined) throw new RuleError(missing(''));
  let words = 1;
  while (words < 4 && words < toks.length && !KEYWORDS.has(toks[words]!.toLowerCase())) words++;
  for (; words >= 1; words--) {
    const found = find(key(toks.slice(0, words).join(' ')));
    if (found !== undefined) {
      toks.splice(0, words);
      return found;
    }
  }
  throw new RuleError(missing(first));
}

function stationId(s: PCState, toks: string[]): string {
  // Face-down stations are not named: a command naming one must fail exactly as
  // a wrong name does, or a player could find out which card lies there.
  const shown = s.stations.filter((x) => !x.faceDown);
  const find = (k: string) =>
    shown.find((x) => x.id.toLowerCase() === k || (x.kind === 'card' && key(CARD_BY_ID[x.card!]!.name) === k))?.id;
  return takeName(toks, find, (tok) =>
    tok ? `There is no station "${short(tok)}" on the table.` : `Name a station. ${HELP}`,
  );
}

function cardId(toks: string[]): string {
  const find = (k: string) => CARDS.find((x) => x.id === k || key(x.name) === k)?.id;
  return takeName(toks, find, (tok) => (tok ? `There is no station card "${short(tok)}".` : `Name a card. ${HELP}`));
}

/** Refuses words after a command that takes none (or no more). */
function nothingMore(toks: string[], command: string): void {
  if (toks.length) throw new RuleError(`"${command}" takes nothing after it ("${short(toks.join(' '))}" is too much).`);
}

export function parseCommand(text: string, s: PCState): PCAction {
  const toks = text
    .trim()
    .replace(/\s*,\s*/g, ',')
    .split(/\s+/)
    .filter(Boolean);
  const verb = toks.shift()?.toLowerCase();
  switch (verb) {
    case 'draw':
      nothingMore(toks, 'draw');
      return { type: 'draw' };
    case 'pass':
      nothingMore(toks, 'pass');
      return { type: 'pass' };
    case 'discard': {
      if (toks.length === 0) throw new RuleError(`Name the cards to discard. ${HELP}`);
      const cards: string[] = [];
      while (toks.length) cards.push(cardId(toks));
      return { type: 'discard', cards };
    }
    case 'obstacle': {
      const obstacle = toks[0]?.toLowerCase();
      if (!obstacle) throw new RuleError(`Name the obstacle. ${HELP}`);
      const [x, y] = point(toks[1], s);
      const rot = toks[2] === undefined ? 0 : Number(toks[2]);
      if (!Number.isInteger(rot)) throw new RuleError('Turn an obstacle by 0, 90, 180 or 270 degrees.');
      nothingMore(toks.slice(3), `obstacle ${obstacle} ${toks[1]} ${rot}`);
      return { type: 'obstacle', obstacle, x, y, rot };
    }
    case 'river':
      return { type: 'river', points: toks.map((t) => point(t, s)) };
    case 'build': {
      const from = stationId(s, toks);
      const a: Extract<PCAction, { type: 'build' }> = { type: 'build', from };
      if (toks[0]?.toLowerCase() === 'new') {
        toks.shift();
        a.card = cardId(toks);
        if (toks.shift()?.toLowerCase() !== 'at')
          throw new RuleError(`Say where the new station goes: "at D4" (a square of the grid) or "at x,y". ${HELP}`);
        a.at = point(toks.shift(), s);
      } else a.to = stationId(s, toks);
      while (toks.length) {
        const word = toks.shift()!.toLowerCase();
        // A second "via" or "pay" adds to the first.
        if (word === 'via') {
          a.bends ??= [];
          if (!toks.length || !/^\(?-?\d/.test(toks[0]!))
            throw new RuleError(`Give the bends after "via" as points x,y, like "via 100,-40 150,20". ${HELP}`);
          while (toks.length && /^\(?-?\d/.test(toks[0]!)) a.bends.push(point(toks.shift()));
        } else if (word === 'pay') {
          a.pay ??= [];
          if (!toks.length || ['via', 'pay'].includes(toks[0]!.toLowerCase()))
            throw new RuleError(`Name the cards to pay with after "pay". ${HELP}`);
          while (toks.length && !['via', 'pay'].includes(toks[0]!.toLowerCase())) a.pay.push(cardId(toks));
        } else throw new RuleError(`"${short(word)}" is not understood here. ${HELP}`);
      }
      return a;
    }
    default:
      throw new RuleError(HELP);
  }
}
