// Playing stock: lay out any number of stock cards of one airline. With
// exactly one card laid out, a sabotage may follow: any airline's marker onto
// any free circle of value 5 or more, at most one sabotaged circle per route.
// A sabotage marker never scores.
import { RuleError } from '../types.ts';
import type { StockAction } from './actions.ts';
import { board } from './board.ts';
import { endTurn } from './draw.ts';
import { SABOTAGE_MIN_VALUE } from './placement.ts';
import { resolveCircle, resolveCompany } from './resolve.ts';
import { routeSabotaged, supply, type AirlinesState } from './state.ts';

export function playStock(s: AirlinesState, seat: number, a: StockAction): void {
  if (s.step !== 'action') throw new RuleError('You have drawn a route card: now play one for an airline.');
  const c = resolveCompany(a.company);
  const company = board.companies[c]!;
  if (!s.founded[c]) {
    throw new RuleError(
      `${company.name} (${company.code}) has not been founded yet; found it by laying out its stock with a route card from ${board.cities[company.home]!.name}.`,
    );
  }
  const held = s.stock[seat]![c]!;
  if (held < a.count) {
    throw new RuleError(
      held === 0
        ? `You hold no ${company.code} stock.`
        : `You hold only ${held} ${company.code} stock card${held === 1 ? '' : 's'}.`,
    );
  }
  let sabotage: { c: number; ci: number } | null = null;
  if (a.sabotage) {
    if (a.count !== 1) throw new RuleError('A sabotage is only allowed when you lay out exactly one stock card.');
    const m = resolveCompany(a.sabotage.company);
    const ci = resolveCircle(a.sabotage.circle);
    const circle = board.circles[ci]!;
    const route = board.routes[circle.route]!;
    if (circle.value < SABOTAGE_MIN_VALUE)
      throw new RuleError(
        `Only circles of value ${SABOTAGE_MIN_VALUE} or more may be sabotaged; circle ${circle.n} of ${route.name} has value ${circle.value}.`,
      );
    if (s.circles[ci]) throw new RuleError(`Circle ${circle.n} of ${route.name} is taken.`);
    if (routeSabotaged(s, route.index))
      throw new RuleError(`${route.name} already has a sabotaged circle; only one per route.`);
    if (supply(s, m) < 1) throw new RuleError(`${board.companies[m]!.code} has no markers left.`);
    sabotage = { c: m, ci };
  }

  s.stock[seat]![c]! -= a.count;
  s.played[seat]![c]! += a.count;
  if (sabotage) s.circles[sabotage.ci] = { c: sabotage.c, sab: true };
  endTurn(s);
}
