// The text command language, for the plain form and for mail replies:
//   draw | pass | discard <card> <card>...
//   obstacle <id> <x>,<y> [<degrees>]
//   river <x>,<y> <x>,<y> ...
//   build <from> <to> [via <x>,<y> ...] [pay <card> ...]
//   build <from> new <card> at <x>,<y> [via <x>,<y> ...] [pay <card> ...]
// Station and card ids are as shown on the table (S1, M-city, york ...);
// case does not matter. Coordinates are millimetres, x right, y down.
import { RuleError } from '../types.ts';
import type { PCAction } from './actions.ts';
import { CARD_BY_ID, CARDS } from './data.ts';
import type { PCState } from './state.ts';

const HELP =
  'Write "draw", "pass", "discard york bath", "build S1 york via 100,-40 pay bath", "build S1 new dent at 120,200", ' +
  '"obstacle lake 100,50 90" or "river -300,0 0,80 300,0".';

/** A word the player typed, cut short for a message. */
function short(tok: string): string {
  return tok.length > 24 ? `${tok.slice(0, 21)}...` : tok;
}

function point(tok: string | undefined): [number, number] {
  const m = tok?.match(/^\(?(-?\d+)\s*,\s*(-?\d+)\)?$/);
  if (!m) throw new RuleError(`"${short(tok ?? '')}" is not a point: write x,y in millimetres, like 120,-40. ${HELP}`);
  const p: [number, number] = [Number(m[1]), Number(m[2])];
  if (p.some((v) => Math.abs(v) > 5000))
    throw new RuleError(`${short(tok!)} is off the table: coordinates run from -5000 to 5000 mm.`);
  return p;
}

function stationId(s: PCState, tok: string | undefined): string {
  if (!tok) throw new RuleError(`Name a station. ${HELP}`);
  const t = tok.toLowerCase();
  // Face-down stations are not named: a command naming one must fail exactly as
  // a wrong name does, or a player could find out which card lies there.
  const shown = s.stations.filter((x) => !x.faceDown);
  const st = shown.find((x) => x.id.toLowerCase() === t);
  if (st) return st.id;
  const byName = shown.find(
    (x) => x.kind === 'card' && CARD_BY_ID[x.card!]!.name.toLowerCase().replace(/\s+/g, '-') === t,
  );
  if (byName) return byName.id;
  throw new RuleError(`There is no station "${short(tok)}" on the table.`);
}

function cardId(tok: string | undefined): string {
  if (!tok) throw new RuleError(`Name a card. ${HELP}`);
  const t = tok.toLowerCase();
  const c = CARDS.find((x) => x.id === t || x.name.toLowerCase().replace(/\s+/g, '-') === t);
  if (!c) throw new RuleError(`There is no station card "${short(tok)}".`);
  return c.id;
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
      return { type: 'draw' };
    case 'pass':
      return { type: 'pass' };
    case 'discard':
      if (toks.length === 0) throw new RuleError(`Name the cards to discard. ${HELP}`);
      return { type: 'discard', cards: toks.map(cardId) };
    case 'obstacle': {
      const obstacle = toks[0]?.toLowerCase();
      if (!obstacle) throw new RuleError(`Name the obstacle. ${HELP}`);
      const [x, y] = point(toks[1]);
      const rot = toks[2] === undefined ? 0 : Number(toks[2]);
      if (!Number.isInteger(rot)) throw new RuleError('Turn an obstacle by 0, 90, 180 or 270 degrees.');
      return { type: 'obstacle', obstacle, x, y, rot };
    }
    case 'river':
      return { type: 'river', points: toks.map(point) };
    case 'build': {
      const from = stationId(s, toks.shift());
      const a: Extract<PCAction, { type: 'build' }> = { type: 'build', from };
      if (toks[0]?.toLowerCase() === 'new') {
        toks.shift();
        a.card = cardId(toks.shift());
        if (toks.shift()?.toLowerCase() !== 'at')
          throw new RuleError(`Say where the new station goes: "at x,y". ${HELP}`);
        a.at = point(toks.shift());
      } else a.to = stationId(s, toks.shift());
      while (toks.length) {
        const word = toks.shift()!.toLowerCase();
        // A second "via" or "pay" adds to the first.
        if (word === 'via') {
          a.bends ??= [];
          while (toks.length && /^\(?-?\d/.test(toks[0]!)) a.bends.push(point(toks.shift()));
        } else if (word === 'pay') {
          a.pay ??= [];
          while (toks.length && !['via', 'pay'].includes(toks[0]!.toLowerCase())) a.pay.push(cardId(toks.shift()));
        } else throw new RuleError(`"${short(word)}" is not understood here. ${HELP}`);
      }
      return a;
    }
    default:
      throw new RuleError(HELP);
  }
}
