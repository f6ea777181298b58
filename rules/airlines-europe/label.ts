// Quick-link and button words for a seat's own moves (rules/types.ts `label`): imperative,
// short, and telling every move of one position apart: the airlines and routes by name, the
// price, where the share comes from. Only that seat reads them, so its own hand may be named.
import type { Seat } from '../types.ts';
import { board, airlineName, routeName } from './board.ts';
import type { AEAction, Take } from './actions.ts';
import { nextLicenceCost, type Licence } from './licences.ts';
import type { AEState } from './state.ts';

function list(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function takeWords(take: Take): string {
  return take.from === 'market' ? `take ${airlineName(take.airline)}` : 'draw from the pile';
}

/** "3 Blue" counted, in the order first seen. */
function counted(airlines: string[]): string[] {
  const n = new Map<string, number>();
  for (const a of airlines) n.set(a, (n.get(a) ?? 0) + 1);
  return [...n].map(([a, k]) => `${k} ${airlineName(a)}`);
}

export function labelAction(action: AEAction, s: AEState, _seat: Seat): string {
  switch (action.type) {
    case 'open':
      return `Open with ${airlineName(action.airlines[0])} and ${airlineName(action.airlines[1])}`;
    case 'buy': {
      const earlier: Licence[] = [];
      const parts = action.licences.map((l) => {
        const route = board.routeIndex[l.route.toLowerCase()];
        if (route === undefined) return `${airlineName(l.airline)} ${l.route}`;
        const cost = nextLicenceCost(s, route, earlier);
        earlier.push({ airline: l.airline, route });
        return `${airlineName(l.airline)} ${routeName(route)}${cost === null ? '' : ` (${cost} M)`}`;
      });
      return `Buy ${list(parts)}, ${takeWords(action.take)}`;
    }
    case 'play': {
      const n = action.shares.reduce((t, p) => t + p.count, 0);
      return `Play ${list(action.shares.map((p) => `${p.count} ${airlineName(p.airline)}`))} for ${n * board.setup.dividend} M`;
    }
    case 'trade': {
      const hand = counted(action.give.filter((g) => g.from === 'hand').map((g) => g.airline));
      const portfolio = counted(action.give.filter((g) => g.from === 'portfolio').map((g) => g.airline));
      const gave = [
        ...(hand.length ? [`${list(hand)} from your hand`] : []),
        ...(portfolio.length ? [`${list(portfolio)} from your portfolio`] : []),
      ];
      return `Trade ${list(gave)} for ${action.get} Air Abacus`;
    }
    case 'money':
      return `Take ${board.setup.takeMoney} M`;
    case 'take':
      return action.take.from === 'market'
        ? `Take ${airlineName(action.take.airline)} from the market`
        : 'Draw a share from the pile';
  }
  return 'Make this move';
}

/** Taking money and single licences (the main action) first, then pairs of licences, shares to play, trades. */
export function rankAction(action: AEAction): number {
  switch (action.type) {
    case 'buy':
      return action.licences.length === 1 ? 0 : 2;
    case 'money':
      return 0;
    case 'play':
      return 3;
    case 'trade':
      return 4;
    default:
      return 0;
  }
}
