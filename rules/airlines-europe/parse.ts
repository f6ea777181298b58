// A short text command language for people who play by typing:
//   open red blue                        opening: two shares of different airlines
//   buy orange athens-sofia take blue    A: one licence, then a share from the market
//   buy orange athens-sofia, orange athens-rome take deck
//   play red 3 | play red blue           B: shares from the hand (2 M each)
//   trade red | trade red blue p:green   C: 1 for 1 Air Abacus, 3 for 2 (p: = from the portfolio)
//   money                                D: take 8 M
//   take blue | take deck                clear-out after a scoring card
import { RuleError } from '../types.ts';
import { board } from './board.ts';
import type { AEAction, Take } from './actions.ts';

const HELP =
  'Write "buy orange athens-sofia take blue", "buy grey london-paris, grey paris-madrid take deck", ' +
  '"play red 3", "play red blue", "trade red", "trade red blue p:green", "money", "open red blue" or "take deck".';

const letters = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');

/** The most shares any airline has: the largest count a player could play at once. */
const MOST_SHARES = Math.max(board.abacus.shares, ...board.airlines.map((a) => a.shares));

function airlineId(word: string): string {
  const w = letters(word);
  if (w === board.abacus.id || w === letters(board.abacus.name)) return board.abacus.id;
  const a = board.airlines.find((x) => x.id === w || letters(x.name) === w);
  if (!a) throw new RuleError(`"${word}" is not an airline. ${HELP}`);
  return a.id;
}

/** A city named by its id or name, in any case, with or without spaces, dots or hyphens; undefined if none. */
function findCity(text: string): string | undefined {
  const w = letters(text);
  return board.cities.find((x) => x.id === w || letters(x.name) === w)?.id;
}

/**
 * Two cities joined by "-": "athens-sofia", "moscow-st petersburg",
 * "moscow-st-petersburg". A city name may hold a hyphen itself, so every
 * split at a "-" is tried.
 */
function routeId(text: string): string {
  const parts = text.split('-');
  for (let i = 1; i < parts.length; i++) {
    const from = findCity(parts.slice(0, i).join('-'));
    const to = findCity(parts.slice(i).join('-'));
    if (from === undefined || to === undefined) continue;
    const id = `${from}-${to}`;
    if (board.routeIndex[id] === undefined) throw new RuleError(`There is no route ${text} on the board.`);
    return id; // in the direction the player wrote it
  }
  if (parts.filter((p) => p.trim()).length < 2)
    throw new RuleError(`"${text}" is not a route: write two cities joined by "-", like athens-sofia.`);
  const unknown = parts.find((p) => p.trim() && findCity(p) === undefined) ?? text;
  throw new RuleError(`"${unknown.trim()}" is not a city on the board.`);
}

function parseTake(words: string[]): Take {
  if (words.length === 0) throw new RuleError(`Say which share to take: "take blue" or "take deck". ${HELP}`);
  const w = letters(words.join(''));
  if (['deck', 'pile', 'draw', 'blind', 'drawpile'].includes(w)) return { from: 'deck' };
  return { from: 'market', airline: airlineId(words.join(' ')) };
}

export function parseCommand(text: string): AEAction {
  // "Air Abacus" is the one airline of two words; read it as one.
  const clean = text
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\bair[ -]abacus\b/g, 'abacus');
  const [verb = '', ...rest] = clean.split(' ');
  switch (verb) {
    case 'money':
    case 'cash':
    case 'd':
      return { type: 'money' };
    case 'draw':
      return { type: 'take', take: { from: 'deck' } };
    case 'take':
      if (rest.length === 1 && /^\d*m?$/.test(rest[0]!) && rest[0] !== '') return { type: 'money' };
      if (letters(rest.join('')) === 'money') return { type: 'money' };
      return { type: 'take', take: parseTake(rest) };
    case 'open': {
      const airlines = rest.filter((w) => w !== 'and').map(airlineId);
      if (airlines.length !== 2) throw new RuleError('Open with exactly two airlines: "open red blue".');
      return { type: 'open', airlines: [airlines[0]!, airlines[1]!] };
    }
    case 'play': {
      const tally = new Map<string, number>();
      let pending: string | null = null;
      for (const w of rest.filter((x) => x !== 'and')) {
        if (/^\d+$/.test(w)) {
          if (!pending) throw new RuleError('Write the airline, then how many: "play red 3".');
          if (Number(w) < 1 || Number(w) > MOST_SHARES)
            throw new RuleError(
              `${w.slice(0, 6)} is not a number of shares to play: an airline has at most ${MOST_SHARES}; write how many of your ${pending} shares, like "play ${pending} 3".`,
            );
          tally.set(pending, (tally.get(pending) ?? 1) - 1 + Number(w));
          pending = null;
        } else {
          pending = airlineId(w);
          tally.set(pending, (tally.get(pending) ?? 0) + 1);
        }
      }
      if (tally.size === 0) throw new RuleError('Say which shares to play: "play red 3" or "play red blue".');
      return { type: 'play', shares: [...tally].map(([airline, count]) => ({ airline, count })) };
    }
    case 'trade': {
      const give = rest
        .filter((w) => w !== 'and')
        .map((w) => {
          const fromPortfolio = w.startsWith('p:');
          return {
            airline: airlineId(fromPortfolio ? w.slice(2) : w),
            from: fromPortfolio ? ('portfolio' as const) : ('hand' as const),
          };
        });
      if (give.length === 0) throw new RuleError('Say which shares to trade: "trade red" or "trade red blue p:green".');
      return { type: 'trade', get: give.length === 1 ? 1 : give.length <= 4 ? 2 : 3, give };
    }
    case 'buy': {
      const body = rest.join(' ');
      const at = body.lastIndexOf(' take ');
      const licencePart = at >= 0 ? body.slice(0, at) : body;
      const take = parseTake(at >= 0 ? body.slice(at + 6).split(' ') : []);
      const pieces = licencePart
        .split(/,| and /)
        .map((p) => p.trim())
        .filter(Boolean);
      if (pieces.length < 1 || pieces.length > 2)
        throw new RuleError('Buy one or two licences: "buy orange athens-sofia, orange athens-rome take deck".');
      const licences = pieces.map((p) => {
        const [first = '', ...route] = p.split(' ');
        if (route.length === 0 || !route.join(' ').includes('-'))
          throw new RuleError(`"${p}": write the airline and the route, like "orange athens-sofia".`);
        return { airline: airlineId(first), route: routeId(route.join(' ')) };
      });
      return { type: 'buy', licences, take };
    }
    default:
      throw new RuleError(HELP);
  }
}
