// One public line of history per move, in the game's own words. Never says
// which shares were chosen for the opening, drawn blind or discarded from the hand,
// and never looks at the draw pile: the same line labels the move's button on the
// player's page before the move, so "a scoring card turned up" would tell the
// player what lies on top of the pile. The scoring shows in the next state instead.
import { cloneState } from '../clone.ts';
import type { Seat } from '../types.ts';
import { board, airlineName, cityName, routeName } from './board.ts';
import type { AEAction, Take } from './actions.ts';
import { bankWouldBreak } from './bank.ts';
import { allAirlinesBlocked, buyLicence, licenceProblem } from './licences.ts';
import type { AEState } from './state.ts';

function list(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function takeText(take: Take): string {
  return take.from === 'market' ? `took ${airlineName(take.airline)} from the market` : 'drew a share from the pile';
}

/** The route named in the direction the player wrote it ("athens-sofia" is Athens-Sofia). */
function routeAsWritten(written: string, index: number): string {
  const [a, b] = written.toLowerCase().split('-');
  const r = board.routes[index]!;
  return a === r.to && b === r.from ? `${cityName(r.to)}-${cityName(r.from)}` : routeName(index);
}

function describeBuy(action: Extract<AEAction, { type: 'buy' }>, before: AEState, seat: Seat): string {
  // Played out on a copy, so prices, bonuses and the end read exactly as they happen.
  const s = cloneState(before);
  const parts: string[] = [];
  for (const w of action.licences) {
    const route = board.routeIndex[w.route.toLowerCase()];
    if (route === undefined || licenceProblem(s, w.airline, route) !== null)
      return `tried to buy a licence on ${w.route}`;
    const { cost, bonus } = buyLicence(s, seat, { airline: w.airline, route });
    let text = `${airlineName(w.airline)} ${routeAsWritten(w.route, route)} for ${cost} M`;
    if (bonus)
      text += ` (connection bonus: ${airlineName(w.airline)} reaches ${cityName(board.airlineById[w.airline]!.bonus!.city)}, +${bonus})`;
    parts.push(text);
  }
  if (allAirlinesBlocked(s)) return `bought ${list(parts)}; every airline is now blocked and the game ends`;
  return `bought ${list(parts)}, ${takeText(action.take)}`;
}

export function describeAction(action: AEAction, before: AEState, seat: Seat): string {
  switch (action.type) {
    case 'open': {
      const last = before.phase === 'opening' && before.opening.every((c, i) => c !== null || i === seat);
      return last ? "chose two opening shares; everyone's opening shares are now revealed" : 'chose two opening shares';
    }
    case 'buy':
      return describeBuy(action, before, seat);
    case 'play': {
      const n = action.shares.reduce((t, p) => t + p.count, 0);
      const what = list(action.shares.map((p) => `${p.count} ${airlineName(p.airline)}`));
      const broke = bankWouldBreak(before, n * board.setup.dividend) ? '; the bank went broke' : '';
      return `played ${what} ${n === 1 ? 'share' : 'shares'} for ${n * board.setup.dividend} M${broke}`;
    }
    case 'trade': {
      const fromHand = action.give.filter((g) => g.from === 'hand').length;
      const fromPortfolio = action.give.filter((g) => g.from === 'portfolio').map((g) => airlineName(g.airline));
      const gave: string[] = [];
      if (fromHand) gave.push(`${plural(fromHand, 'share')} from the hand`);
      if (fromPortfolio.length) gave.push(`${list(fromPortfolio)} from the portfolio`);
      return `traded ${list(gave)} for ${plural(action.get, 'Air Abacus share')}`;
    }
    case 'money':
      return bankWouldBreak(before, board.setup.takeMoney)
        ? `took ${board.setup.takeMoney} M; the bank went broke`
        : `took ${board.setup.takeMoney} M`;
    case 'take':
      return action.take.from === 'market'
        ? `took ${airlineName(action.take.airline)} from the market (clear-out)`
        : 'drew a share from the pile (clear-out)';
  }
  return 'moved';
}
