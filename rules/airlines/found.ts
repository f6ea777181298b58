// Founding an airline: lay out any number (at least one) of its stock cards,
// play a route card on a route from its home (pattern matching, value reaching
// a free circle), a marker on that circle and one on the home; then draw a
// stock card and a route card.
import { RuleError } from '../types.ts';
import type { FoundAction } from './actions.ts';
import { board } from './board.ts';
import { drawRouteCard, endTurn, playRouteCard, takeStock } from './draw.ts';
import { placementProblem } from './placement.ts';
import { resolveCard, resolveCircle, resolveCompany, resolveDraw } from './resolve.ts';
import type { AirlinesState } from './state.ts';

export function foundAirline(s: AirlinesState, seat: number, a: FoundAction): void {
  if (s.step !== 'action') throw new RuleError('You have drawn a route card: now play one for an airline.');
  const c = resolveCompany(a.company);
  const company = board.companies[c]!;
  if (s.founded[c] || s.played.some((p) => p[c]! > 0))
    throw new RuleError(`${company.name} (${company.code}) is already founded.`);
  const held = s.stock[seat]![c]!;
  if (held < a.count) {
    throw new RuleError(
      held === 0
        ? `You hold no ${company.code} stock.`
        : `You hold only ${held} ${company.code} stock card${held === 1 ? '' : 's'}.`,
    );
  }
  const card = resolveCard(s, seat, a.card);
  const ci = resolveCircle(a.circle);
  const problem = placementProblem(s, c, card, ci, 'found');
  if (problem) throw new RuleError(problem);
  const source = resolveDraw(s, a.draw);

  s.stock[seat]![c]! -= a.count;
  s.played[seat]![c]! += a.count;
  playRouteCard(s, seat, card.id);
  s.circles[ci] = { c };
  s.founded[c] = true;
  takeStock(s, seat, source);
  drawRouteCard(s, seat);
  endTurn(s);
}
