// Turning the names in an action (airline codes, circle labels, card ids,
// where a stock card comes from) into indices, with messages a player understands.
import { RuleError } from '../types.ts';
import { board, circleByLabel, companyByCode, type RouteCard } from './board.ts';
import type { AirlinesState } from './state.ts';

export function resolveCompany(code: string): number {
  const c = companyByCode(code);
  if (c === undefined) {
    throw new RuleError(
      `There is no airline "${code}"; the airlines are ${board.companies.map((x) => x.code).join(', ')}.`,
    );
  }
  return c;
}

export function resolveCircle(label: string): number {
  const ci = circleByLabel(label);
  if (ci === undefined)
    throw new RuleError(
      `There is no circle "${label}" on the board; name one like ORD-MSP/2 (route, then circle number).`,
    );
  return ci;
}

export function resolveCard(s: AirlinesState, seat: number, id: number): RouteCard {
  const card = board.cardById.get(id);
  if (!card || !s.routes[seat]!.includes(id)) throw new RuleError(`You do not hold route card #${id}.`);
  return card;
}

/** 'pile' or the index of a company in the open row. */
export function resolveDraw(s: AirlinesState, draw: string): 'pile' | number {
  if (draw.toLowerCase() === 'pile') {
    if (s.pile.length === 0) throw new RuleError('The stock pile is empty.');
    return 'pile';
  }
  const c = resolveCompany(draw);
  if (!s.open.includes(c)) throw new RuleError(`There is no ${board.companies[c]!.code} card in the open stock row.`);
  return c;
}
