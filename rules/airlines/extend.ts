// Extending a network: draw a route card, then play one on a free circle of
// a route with the card's pattern, for an airline whose network touches the
// route, which may fly that pattern and does not fly the route yet; then take
// a stock card from the open row (refilled to five) or the pile.
import { RuleError } from '../types.ts';
import type { ExtendAction, SkipAction } from './actions.ts';
import { drawRouteCard, endTurn, playRouteCard, routeCardsLeft, takeStock } from './draw.ts';
import { extensions, placementProblem } from './placement.ts';
import { resolveCard, resolveCircle, resolveCompany, resolveDraw } from './resolve.ts';
import type { AirlinesState } from './state.ts';

export function startExtending(s: AirlinesState, seat: number): void {
  if (s.step !== 'action') throw new RuleError('You have already drawn your route card this turn.');
  if (routeCardsLeft(s) === 0) throw new RuleError('No route cards are left to draw.');
  s.drawn = drawRouteCard(s, seat);
  s.step = 'place';
}

export function extendNetwork(s: AirlinesState, seat: number, a: ExtendAction): void {
  if (s.step !== 'place')
    throw new RuleError('To extend a network, first draw a route card (the command "route"), then play one.');
  const c = resolveCompany(a.company);
  const card = resolveCard(s, seat, a.card);
  const ci = resolveCircle(a.circle);
  const problem = placementProblem(s, c, card, ci, 'extend');
  if (problem) throw new RuleError(problem);
  const source = resolveDraw(s, a.draw);

  playRouteCard(s, seat, card.id);
  s.circles[ci] = { c };
  takeStock(s, seat, source);
  endTurn(s);
}

/**
 * When none of the seat's route cards fits anywhere the extension cannot be
 * made: the seat keeps the card it drew and its turn ends, with no stock card
 * (the seed's stock card is the last step of an extension). Games of rules
 * version 1 read it otherwise: discard one route card face up, still take stock.
 */
export function skipRouteCard(s: AirlinesState, seat: number, a: SkipAction): void {
  if (s.step !== 'place') throw new RuleError('You may only pass on a route card after drawing one to extend.');
  if (extensions(s, seat).length > 0) throw new RuleError('One of your route cards can be played: you must play one.');
  if (s.version >= 2) {
    if (a.card !== undefined || a.draw !== undefined)
      throw new RuleError(
        'When none of your route cards fits, your turn ends: you keep them all and take no stock card.',
      );
    endTurn(s);
    return;
  }
  if (a.card === undefined || a.draw === undefined)
    throw new RuleError(
      'In this game a player whose route cards all fail discards one and takes a stock card: name both.',
    );
  const card = resolveCard(s, seat, a.card);
  const source = resolveDraw(s, a.draw);
  playRouteCard(s, seat, card.id);
  takeStock(s, seat, source);
  endTurn(s);
}
