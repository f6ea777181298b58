// Public history lines. Nothing hidden is named: a card drawn blind is "a
// card"; route cards and stock named here were laid face up.
import type { AirlinesAction } from './actions.ts';
import { board, cardText, circleByLabel, circleText, companyByCode } from './board.ts';
import type { AirlinesState } from './state.ts';
import { imperative } from '../label.ts';

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

/**
 * A move's button words (rules/types.ts `label`): the imperative, the airline by its code, and
 * how the stock card is taken (what tells two foundings on one route apart).
 */
export function labelAction(a: AirlinesAction, before: AirlinesState, seat: number): string {
  if (a.type === 'drawRoute') return 'Draw a route card';
  const line = describeAction(a, before, seat)
    .replace(/^founded .*? \(([A-Z]+)\) at home in ([^,]+?) with/, 'founded $1 in $2 with')
    .replace(/; drew a stock card from the pile( and a route card)?$/, ', draw stock from the pile')
    .replace(/; took ([A-Z]+) stock from the open row( and a route card)?$/, ', take $1 stock')
    .replace(/ \(circle (\d+), value \d+\)/g, ' (circle $1)')
    .replace(/\band sabotaged\b/, 'and sabotage');
  return imperative(line, 2);
}
