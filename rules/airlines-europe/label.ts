// Quick-link and button words for a seat's own moves (rules/types.ts `label`): imperative,
// short (LABEL_MAX), and telling every move of one position apart: the airlines and routes by
// name, then as fits the price and where the share comes from. Only that seat reads them, so its
// own hand may be named.
import type { Seat } from '../types.ts';
import { board, airlineName, cityName } from './board.ts';
import { labelWith } from '../label.ts';
import type { AEAction, Take } from './actions.ts';
import { nextLicenceCost, type Licence } from './licences.ts';
import type { AEState } from './state.ts';

function list(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function takeWords(take: Take): string {
  return take.from === 'market' ? `take ${airlineName(take.airline)}` : 'draw a share';
}

/** Two cities' names as the map writes them, joined by a dash ("Helsinki–St Petersburg"). */
function routeWords(route: number): string {
  const r = board.routes[route]!;
  return `${cityName(r.from)}–${cityName(r.to)}`;
}

/**
 * The licences bought, as short as tells them apart: one is "Green Oslo–Stockholm"; two of one
 * airline that meet at a city are a path ("Green Oslo–Stockholm–Helsinki"); else both in full.
 */
export function licenceWords(licences: { airline: string; route: string }[]): string {
  const routes = licences.map((l) => board.routeIndex[l.route.toLowerCase()]);
  if (routes.some((r) => r === undefined))
    return licences.map((l) => `${airlineName(l.airline)} ${l.route}`).join(' + ');
  const [a, b] = routes.map((r) => board.routes[r!]!);
  if (a && b && licences[0]!.airline === licences[1]!.airline) {
    const shared = [a.from, a.to].find((c) => c === b.from || c === b.to);
    if (shared !== undefined) {
      const first = a.from === shared ? a.to : a.from;
      const last = b.from === shared ? b.to : b.from;
      return `${airlineName(licences[0]!.airline)} ${[first, shared, last].map(cityName).join('–')}`;
    }
  }
  return licences.map((l, i) => `${airlineName(l.airline)} ${routeWords(routes[i]!)}`).join(' + ');
}

/** "3 Blue" counted ("Blue" for one), in the order first seen. */
function counted(airlines: string[]): string[] {
  const n = new Map<string, number>();
  for (const a of airlines) n.set(a, (n.get(a) ?? 0) + 1);
  return [...n].map(([a, k]) => (k === 1 ? airlineName(a) : `${k} ${airlineName(a)}`));
}

export function labelAction(action: AEAction, s: AEState, _seat: Seat): string {
  switch (action.type) {
    case 'open':
      return `Open with ${airlineName(action.airlines[0])} and ${airlineName(action.airlines[1])}`;
    case 'buy': {
      // The price is detail (the confirm page has it); the licences tell the move apart.
      const earlier: Licence[] = [];
      let cost = 0;
      for (const l of action.licences) {
        const route = board.routeIndex[l.route.toLowerCase()];
        const c = route === undefined ? null : nextLicenceCost(s, route, earlier);
        if (route !== undefined) earlier.push({ airline: l.airline, route });
        cost += c ?? 0;
      }
      return labelWith(`Buy ${licenceWords(action.licences)}`, ` (${cost} M)`, `, ${takeWords(action.take)}`);
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
