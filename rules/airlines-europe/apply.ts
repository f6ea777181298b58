// Applying a move: check the whole move first, then change the state.
import { RuleError, type Seat } from '../types.ts';
import { board, airlineName, isAirlineId } from './board.ts';
import { actionSchema, quickShape, type AEAction } from './actions.ts';
import { drawBlind, nextSeat, refillMarket, takeFromMarket, takeProblem } from './deck.ts';
import { allAirlinesBlocked, buyLicence, licenceProblem, nextLicenceCost, type Licence } from './licences.ts';
import { payFromBank } from './bank.ts';
import { playProblem, playShares, tradeForAbacus, tradeProblem } from './shares.ts';
import { clearoutTake, continueAfterTurn, endGame, scoreAirlines } from './scoring.ts';
import type { AEState } from './state.ts';

export function toAct(s: AEState): Seat[] {
  switch (s.phase) {
    case 'opening':
      return s.opening.flatMap((c, seat) => (c === null ? [seat] : []));
    case 'play':
      return [s.turn];
    case 'clearout':
      return s.clearout ? [s.clearout.seat] : [];
    default:
      return [];
  }
}

const NOT_A_MOVE =
  'That is not an Airlines Europe move: buy licences, play shares, trade for Air Abacus, or take money.';

/** What is wrong with a move of a known type that the schema refused, in the player's words. */
function shapeProblem(raw: Record<string, unknown>): string {
  const take = 'take one share: {"from":"market","airline":"<airline>"} or {"from":"deck"}';
  switch (raw.type) {
    case 'buy':
      if (!Array.isArray(raw.licences) || raw.licences.length < 1 || raw.licences.length > 2) {
        return 'Buy one or two licences (each an airline and a route like "athens-sofia"), then take one share.';
      }
      return `A licence purchase names for each licence an airline and a route like "athens-sofia", then ${take}.`;
    case 'play':
      return 'Play shares from your hand: any number (1 or more) of one airline, or one share each of two airlines.';
    case 'trade':
      return 'Trade 1 share for 1 Air Abacus share or 3 shares for 2 ("get" 1 or 2), each share named with its airline and "hand" or "portfolio".';
    case 'open':
      return 'Choose exactly two opening shares of different airlines.';
    case 'take':
      return `In the clear-out, ${take}.`;
    case 'money':
      return 'Taking money needs nothing else: {"type":"money"}.';
    default:
      return NOT_A_MOVE;
  }
}

export function parseAction(raw: unknown): AEAction {
  if (quickShape(raw)) return raw;
  const parsed = actionSchema.safeParse(raw);
  if (!parsed.success) {
    const known = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
    throw new RuleError(known ? shapeProblem(raw as Record<string, unknown>) : NOT_A_MOVE);
  }
  return parsed.data;
}

/** Route id (either direction) to its board index, or a RuleError. */
function routeIndexOf(id: string): number {
  const index = board.routeIndex[id.toLowerCase()];
  if (index === undefined) throw new RuleError(`There is no route ${id} on the board.`);
  return index;
}

/** The licences of a buy move, checked one after the other (money for both together). */
function checkLicences(s: AEState, seat: Seat, wanted: { airline: string; route: string }[]): Licence[] {
  const licences: Licence[] = [];
  let spend = 0;
  for (const w of wanted) {
    const licence = { airline: w.airline, route: routeIndexOf(w.route) };
    const problem = licenceProblem(s, licence.airline, licence.route, licences);
    if (problem) throw new RuleError(problem);
    const cost = nextLicenceCost(s, licence.route, licences)!;
    if (spend + cost > s.money[seat]!) {
      throw new RuleError(
        `That licence costs ${cost} M${spend ? ` (${spend + cost} M in all)` : ''} and you have only ${s.money[seat]} M.`,
      );
    }
    spend += cost;
    licences.push(licence);
  }
  return licences;
}

function checkOpening(s: AEState, seat: Seat, airlines: [string, string]): void {
  if (s.opening[seat] !== null) throw new RuleError('You have already chosen your opening shares.');
  const [a, b] = airlines;
  if (a === b) throw new RuleError('Choose two shares of different airlines.');
  const hand = s.hands[seat]!;
  for (const x of airlines) {
    if (!hand.includes(x)) throw new RuleError(`You hold no ${airlineName(x)} share in your hand.`);
  }
}

/** All players have chosen: the opening shares are revealed together and play begins with the start player. */
function revealOpening(s: AEState): void {
  for (let seat = 0; seat < s.seats; seat++) {
    for (const a of s.opening[seat]!) s.portfolios[seat]![a] = (s.portfolios[seat]![a] ?? 0) + 1;
  }
  s.opening = s.opening.map(() => null);
  s.phase = 'play';
  s.turn = 0;
}

/** Every airline a move names must be one of the board's. */
function checkAirlineNames(action: AEAction): void {
  const names: string[] = [];
  switch (action.type) {
    case 'open':
      names.push(...action.airlines);
      break;
    case 'buy':
      names.push(...action.licences.map((l) => l.airline));
      if (action.take.from === 'market') names.push(action.take.airline);
      break;
    case 'play':
      names.push(...action.shares.map((p) => p.airline));
      break;
    case 'trade':
      names.push(...action.give.map((g) => g.airline));
      break;
    case 'take':
      if (action.take.from === 'market') names.push(action.take.airline);
      break;
    default:
      break;
  }
  for (const n of names) if (!isAirlineId(n)) throw new RuleError(`There is no airline called ${n}.`);
}

export function applyAction(s: AEState, seat: Seat, raw: unknown): void {
  const action = parseAction(raw);
  checkAirlineNames(action);
  if (s.phase === 'over') throw new RuleError('The game is over.');
  if (!toAct(s).includes(seat)) throw new RuleError('It is not your turn.');

  if (s.phase === 'opening') {
    if (action.type !== 'open') throw new RuleError('First choose your two opening shares.');
    checkOpening(s, seat, action.airlines);
    const hand = s.hands[seat]!;
    for (const a of action.airlines) hand.splice(hand.indexOf(a), 1);
    s.opening[seat] = [...action.airlines];
    s.moveCount++;
    if (s.opening.every((c) => c !== null)) revealOpening(s);
    return;
  }

  if (s.phase === 'clearout') {
    if (action.type !== 'take')
      throw new RuleError('A scoring is under way: take one share from the market or the draw pile.');
    const problem = takeProblem(s, action.take);
    if (problem) throw new RuleError(problem);
    clearoutTake(s, seat, action.take);
    s.moveCount++;
    return;
  }

  switch (action.type) {
    case 'open':
      throw new RuleError('The opening shares have already been chosen.');
    case 'take':
      throw new RuleError(
        'Taking a single share is only for the clear-out after a scoring card; buy licences to take a share.',
      );
    case 'buy': {
      const licences = checkLicences(s, seat, action.licences);
      const problem = takeProblem(s, action.take);
      if (problem) throw new RuleError(problem);
      for (const l of licences) buyLicence(s, seat, l);
      s.moveCount++;
      if (allAirlinesBlocked(s)) {
        // No airline can buy another licence: the game ends at once with the final scoring.
        scoreAirlines(s, 3);
        endGame(s, 'every airline is blocked', true);
        return;
      }
      if (action.take.from === 'market') {
        takeFromMarket(s, seat, action.take.airline);
        refillMarket(s, seat);
      } else {
        drawBlind(s, seat);
      }
      continueAfterTurn(s, nextSeat(s, seat));
      return;
    }
    case 'play': {
      const problem = playProblem(s, seat, action.shares);
      if (problem) throw new RuleError(problem);
      const n = playShares(s, seat, action.shares);
      payFromBank(s, seat, n * board.setup.dividend);
      s.moveCount++;
      continueAfterTurn(s, nextSeat(s, seat));
      return;
    }
    case 'trade': {
      const problem = tradeProblem(s, seat, action.get, action.give);
      if (problem) throw new RuleError(problem);
      tradeForAbacus(s, seat, action.get, action.give);
      s.moveCount++;
      continueAfterTurn(s, nextSeat(s, seat));
      return;
    }
    case 'money': {
      payFromBank(s, seat, board.setup.takeMoney);
      s.moveCount++;
      continueAfterTurn(s, nextSeat(s, seat));
      return;
    }
  }
}
