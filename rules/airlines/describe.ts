// Public history lines. Nothing hidden is named: a card drawn blind is "a
// card"; route cards and stock named here were laid face up.
import type { AirlinesAction } from './actions.ts';
import { board, cardText, circleByLabel, circleText, companyByCode } from './board.ts';
import type { AirlinesState } from './state.ts';

function airline(code: string): string {
  const c = companyByCode(code);
  return c === undefined ? code : board.companies[c]!.code;
}

function where(label: string): string {
  const ci = circleByLabel(label);
  return ci === undefined ? label : circleText(ci);
}

function drawText(draw: string): string {
  return draw.toLowerCase() === 'pile'
    ? 'drew a stock card from the pile'
    : `took ${airline(draw)} stock from the open row`;
}

export function describeAction(a: AirlinesAction, _before: AirlinesState, _seat: number): string {
  switch (a.type) {
    case 'drawRoute':
      return 'drew a route card to extend a network';
    case 'found': {
      const c = companyByCode(a.company);
      const name = c === undefined ? a.company : `${board.companies[c]!.name} (${board.companies[c]!.code})`;
      const home = c === undefined ? '' : ` at home in ${board.cities[board.companies[c]!.home]!.name}`;
      return `founded ${name}${home} with ${a.count} stock, flying ${where(a.circle)} with a ${cardText(a.card)}; ${drawText(a.draw)} and a route card`;
    }
    case 'extend':
      return `extended ${airline(a.company)} onto ${where(a.circle)} with a ${cardText(a.card)}; ${drawText(a.draw)}`;
    case 'skip':
      if (a.card === undefined || a.draw === undefined)
        return 'could play none of their route cards: the turn ends (the drawn card is kept, no stock card)';
      return `could play none of their route cards and discarded a ${cardText(a.card)}; ${drawText(a.draw)}`;
    case 'stock': {
      const base = `laid out ${a.count} ${airline(a.company)} stock`;
      if (!a.sabotage) return base;
      return `${base} and sabotaged ${where(a.sabotage.circle)} with a ${airline(a.sabotage.company)} marker`;
    }
  }
}

/** Where a label's stock card comes from: "draw stock" (the pile, blind) or "take SWX" (the open row). */
function drawWords(draw: string): string {
  return draw.toLowerCase() === 'pile' ? 'draw stock' : `take ${airline(draw)}`;
}

/** A circle as the picture shows it: the route's cities and the circle's value ("Denver–Dallas 5"). */
function circleWords(label: string, from?: number): string {
  const ci = circleByLabel(label);
  if (ci === undefined) return label;
  const c = board.circles[ci]!;
  const r = board.routes[c.route]!;
  // From an airline's home, the city at the other end says it all.
  if (from === r.from || from === r.to) return `${board.cities[from === r.from ? r.to : r.from]!.name} ${c.value}`;
  return `${r.name} ${c.value}`;
}

/** A route card by its value, with its article: "a 7", "an 8". */
function aCard(id: number): string {
  const v = board.cardById.get(id)?.value ?? id;
  return `${v === 8 || v === 11 || v === 18 ? 'an' : 'a'} ${v}`;
}

/**
 * A move's button words (rules/types.ts `label`), at most LABEL_MAX long: the imperative, the
 * airline by its code, the circle by its route and value (as on the picture), the card by its
 * value, and where the stock card comes from (what tells two foundings on one route apart). The
 * history line has the rest.
 */
export function labelAction(a: AirlinesAction, _before: AirlinesState, _seat: number): string {
  switch (a.type) {
    case 'drawRoute':
      return 'Draw a route card';
    case 'found': {
      const c = companyByCode(a.company);
      const home = c === undefined ? undefined : board.companies[c]!.home;
      return `Found ${airline(a.company)} (${a.count} stock) to ${circleWords(a.circle, home)} with ${aCard(a.card)}, ${drawWords(a.draw)}`;
    }
    case 'extend':
      return `Extend ${airline(a.company)}: ${circleWords(a.circle)} with ${aCard(a.card)}, ${drawWords(a.draw)}`;
    case 'skip':
      if (a.card === undefined || a.draw === undefined) return 'End the turn: no route card fits';
      return `Discard a ${cardText(a.card)}, ${drawWords(a.draw)}`;
    case 'stock':
      if (!a.sabotage) return `Lay out ${a.count} ${airline(a.company)} stock`;
      return `Sabotage ${circleWords(a.sabotage.circle)} with ${airline(a.sabotage.company)}, lay out 1 ${airline(a.company)}`;
  }
}
