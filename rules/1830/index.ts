// 1830: Railways & Robber Barons, after the seed rules and 18xx.games's behaviour.
// The rules object: setup, toAct, apply, moves, view, outcome, describe, parse, check.
import { cloneState } from '../clone.ts';
import { sentence } from './words.ts';
import { RuleError, type Outcome, type Rules, type Seat, type View } from '../types.ts';
import { actionSchema, hasActionShape, type Action1830 } from './actions.ts';
import { applyAuctionPass, applyBid, applyPendingPar, auctionActor, maxBid, minBid } from './auction.ts';
import { CORPS, DATA, PAR_CELLS, PRIVATES } from './data.ts';
import {
  applyBuyPrivate,
  applySellPrivate,
  applyStockPass,
  applyBuy,
  applyPar,
  applySell,
  buyProblem,
  parProblem,
  stockActor,
  stockSellProblem,
  mustSell,
} from './stock-round.ts';
import {
  applyOperating,
  operatingActors,
  operatingMoves,
  applyExchange,
  exchangeProblem,
  acceptCompanySale,
  acceptEmergencyPrivateSale,
} from './operating/index.ts';
import { parPrice, sharePrice } from './market.ts';
import { certCount, certLimit, playerValue } from './shares.ts';
import { offerAnswerer, setupState, type Game1830State } from './state.ts';
import { RULE_SET_CHOICES, RULE_SET_OPTION, RULES_VERSION } from './rule-set.ts';
import { newBoard } from './track/index.ts';
import { versionOf } from '../version.ts';
import { describeAction, labelAction } from './describe.ts';
import { parseCommand } from './parse.ts';
import { buildView } from './view.ts';
import { checkInvariants } from './check.ts';
import { svg1830 } from './svg.ts';
import { holdings1830 } from './holdings.ts';
import { armOrder, decideOrder, describeOrder, orderOffers, type Order1830 } from './orders.ts';

export type { Game1830State } from './state.ts';
export type { Action1830 } from './actions.ts';

function toAct(state: Game1830State): Seat[] {
  if (state.finished) return [];
  if (state.offer) return [offerAnswerer(state, state.offer)];
  const round = state.round;
  if (round.kind === 'auction') return [auctionActor(state, round)];
  if (round.kind === 'stock') return [stockActor(state, round)];
  return operatingActors(state);
}

function apply(state: Game1830State, seat: Seat, raw: unknown): void {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !Object.hasOwn(raw, 'type')) {
    throw new RuleError('That is not a move of 1830');
  }
  const proto = Object.getPrototypeOf(raw);
  if (proto !== Object.prototype && proto !== null) throw new RuleError('That is not a move of 1830');
  let action: Action1830;
  if (hasActionShape(raw)) action = raw;
  else {
    const parsed = actionSchema.safeParse(raw);
    if (!parsed.success) throw new RuleError(shapeProblem(raw as Record<string, unknown>, parsed.error.issues[0]));
    action = parsed.data;
  }
  if (state.finished) throw new RuleError('The game is over');
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.seats) throw new RuleError('No such seat');
  if (action.type === 'exchange') {
    const problem = exchangeProblem(state, seat, action.from);
    if (problem) throw new RuleError(sentence(problem));
    applyExchange(state, seat, action.from);
    return;
  }
  if (!toAct(state).includes(seat)) throw new RuleError('It is not your turn');
  if (state.offer) return answerOffer(state, action);
  const round = state.round;
  if (round.kind === 'auction') {
    if (action.type === 'bid') return applyBid(state, seat, action.company, action.price);
    if (action.type === 'pass') return applyAuctionPass(state, seat);
    if (action.type === 'par') return applyPendingPar(state, seat, action.corp, action.price);
    throw new RuleError('In the private auction you may buy the cheapest private, bid on another, or pass');
  }
  if (round.kind === 'stock') {
    switch (action.type) {
      case 'pass':
        return applyStockPass(state, seat);
      case 'buy':
        return applyBuy(state, seat, action.corp, action.from);
      case 'par':
        return applyPar(state, seat, action.corp, action.price);
      case 'sell':
        return applySell(state, seat, action.corp, action.percent);
      case 'buyCompany':
        return applyBuyPrivate(state, seat, action.company, action.price);
      case 'sellCompany':
        return applySellPrivate(state, seat, action.company, action.to, action.price);
      default:
        throw new RuleError('In a stock round you may buy, par, sell or pass');
    }
  }
  applyOperating(state, seat, action);
}

/** A refusal naming the move and the part of it that is wrong, when the move type is known. */
function shapeProblem(
  raw: Record<string, unknown>,
  issue: { code: string; path: (string | number)[]; message: string } | undefined,
): string {
  const type = raw.type;
  if (typeof type !== 'string' || !issue || issue.code === 'invalid_union_discriminator')
    return 'That is not a move of 1830';
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `That ${type} move is not well formed (${where}${issue.message})`;
}

/**
 * The other side of an offered private accepts (the same buyCompany) or declines (pass): its owner,
 * or the buyer when the owner offered it (seed rule set: on the seller's turn, or in an emergency).
 */
function answerOffer(state: Game1830State, action: Action1830): void {
  const offer = state.offer!;
  if (action.type === 'pass') {
    delete state.offer;
    return;
  }
  if (action.type !== 'buyCompany' || action.company !== offer.company || action.price !== offer.price) {
    const what = offer.by === offer.seller ? `${offer.company} offered to you` : `your ${offer.company}`;
    throw new RuleError(
      `First accept ("buy ${offer.company} ${offer.price}") or decline ("pass") the offer of $${offer.price} for ${what}`,
    );
  }
  delete state.offer;
  try {
    if (typeof offer.buyer !== 'number') acceptCompanySale(state, offer.buyer, offer.company, offer.price);
    else if (offer.by !== offer.seller) applyBuyPrivate(state, offer.by, offer.company, offer.price, true);
    else if (state.round.kind === 'stock')
      applySellPrivate(state, offer.seller, offer.company, offer.buyer, offer.price, true);
    else acceptEmergencyPrivateSale(state, offer.seller, offer.company, offer.buyer, offer.price);
  } catch (err) {
    state.offer = offer;
    throw err;
  }
}

function moves(state: Game1830State, seat: Seat): Action1830[] {
  if (!toAct(state).includes(seat)) return [];
  if (state.offer)
    return [{ type: 'buyCompany', company: state.offer.company, price: state.offer.price }, { type: 'pass' }];
  const round = state.round;
  const out: Action1830[] = [];
  if (round.kind === 'auction') {
    if (round.pendingPar.length) {
      for (const [price] of PAR_CELLS) out.push({ type: 'par', corp: round.pendingPar[0]!.corp, price });
      return out;
    }
    if (round.auctioning) {
      const min = minBid(state, round.auctioning);
      if (min <= maxBid(state, seat, round.auctioning))
        out.push({ type: 'bid', company: round.auctioning, price: min });
      out.push({ type: 'pass' });
      return out;
    }
    for (const sym of round.available) {
      const min = minBid(state, sym);
      if (min <= maxBid(state, seat, sym)) out.push({ type: 'bid', company: sym, price: min });
    }
    out.push({ type: 'pass' });
    return out;
  }
  if (round.kind === 'stock') {
    // in the order a turn mail's quick links should show them: buy from the IPO, from the
    // pool, sell a share, pass; then pars (by price, every corporation at $100 first) and larger sales
    const forced = mustSell(state, seat);
    const ipo: Action1830[] = [],
      pool: Action1830[] = [],
      sellOne: Action1830[] = [],
      sellMore: Action1830[] = [];
    const pars: Action1830[][] = PAR_CELLS.map(() => []);
    for (const sym in state.corps) {
      const corp = state.corps[sym]!;
      if (corp.closed) continue;
      if (!forced) {
        if (!corp.ipoed) {
          PAR_CELLS.forEach(([price], i) => {
            if (parProblem(state, seat, corp, price) === null) pars[i]!.push({ type: 'par', corp: sym, price });
          });
        } else {
          if (buyProblem(state, seat, corp, 'ipo') === null) ipo.push({ type: 'buy', corp: sym, from: 'ipo' });
          if (buyProblem(state, seat, corp, 'pool') === null) pool.push({ type: 'buy', corp: sym, from: 'pool' });
        }
      }
      for (let pct = 10; pct <= corp.held[seat]!; pct += 10) {
        if (stockSellProblem(state, seat, corp, pct) === null)
          (pct === 10 ? sellOne : sellMore).push({ type: 'sell', corp: sym, percent: pct });
      }
    }
    out.push(...ipo, ...pool, ...sellOne);
    if (!forced) out.splice(Math.min(out.length, 11), 0, { type: 'pass' }); // always among the first 12
    out.push(...pars.flat(), ...sellMore);
    addExchange(state, seat, out);
    return out;
  }
  const ops = operatingMoves(state, seat);
  addExchange(state, seat, ops);
  return ops;
}

/** The M&H owner may exchange it for an NYC share (offered on the owner's own turn). */
function addExchange(state: Game1830State, seat: Seat, out: Action1830[]): void {
  for (const from of ['ipo', 'pool'] as const) {
    if (exchangeProblem(state, seat, from) === null) out.push({ type: 'exchange', company: 'MH', from });
  }
}

function outcome(state: Game1830State): Outcome | null {
  if (!state.finished) return null;
  const scores = Array.from({ length: state.seats }, (_, s) => playerValue(state, s));
  const ranks = scores.map((v) => 1 + scores.filter((w) => w > v).length);
  return { scores, ranks, reason: state.endReason ?? 'the game ended' };
}

export const game1830: Rules<Game1830State, Action1830> = {
  id: '1830',
  title: '1830: Railways & Robber Barons',
  version: RULES_VERSION,
  players: { min: 2, max: 6 },
  options: [
    { id: RULE_SET_OPTION, label: 'Rule set', kind: 'choice', choices: RULE_SET_CHOICES, default: '18xx.games' },
    ...DATA.options.map((o) => ({ id: o.id, label: o.label, kind: 'boolean' as const, default: false })),
  ],
  setup: (seats, _seed, options, version) => {
    const opts = version === undefined ? options : { ...options, rulesVersion: version };
    const state = setupState(seats, opts);
    const board = newBoard();
    const walk = versionOf(opts, RULES_VERSION);
    if (walk >= 3) board.version = walk >= 4 ? 4 : 3;
    state.map = board;
    return state;
  },
  toAct,
  apply,
  moves,
  view: (state, seat): View => buildView(state, seat, toAct(state)),
  outcome,
  describe: (action, before, seat, played) => {
    // the line also names what the move brings about, so it is played out on a copy (unless the
    // server has just played it and hands the result over)
    if (played) return describeAction(action, before, seat, played);
    let after: Game1830State | null = cloneState(before);
    try {
      apply(after, seat, action);
    } catch {
      after = null;
    }
    return describeAction(action, before, seat, after);
  },
  commandExamples: [
    'bid CA 165: bid for a private company',
    'par PRR 67: start a corporation at a par price',
    'buy PRR ipo / buy NYC pool: buy a share',
    'sell NYC 2: sell shares',
    'lay H10 57 1: lay tile 57 on hex H10, rotation 1',
    'token E19: place a station token',
    'run / payout / withhold: run trains and pay or keep the revenue',
    'buy train: buy the next train',
    'pass',
  ],
  label: (action, state, seat) => labelAction(action, state, seat),
  parse: (text, state, seat) => parseCommand(text, state, seat),
  autoMove: (state, seat) => {
    // pass where legal; otherwise the least committal move: run the suggested routes, withhold, the forced train or discard
    const ms = moves(state, seat);
    return (
      ms.find((m) => m.type === 'pass') ??
      ms.find((m) => m.type === 'runRoutes' && !m.dividend) ??
      ms.find((m) => m.type === 'dividend' && m.kind === 'withhold') ??
      ms.find((m) => m.type === 'placeToken' && state.round.kind === 'operating') ??
      ms.find(
        (m) => m.type === 'buyTrain' || m.type === 'discardTrain' || m.type === 'sell' || m.type === 'bankrupt',
      ) ??
      (state.round.kind === 'auction' && state.round.pendingPar.length ? (ms[0] ?? null) : null)
    );
  },
  undoable: () => true,
  orders: {
    arm: (state, seat, spec) => armOrder(state, seat, spec),
    decide: (state, seat, order) => decideOrder(state, seat, order as Order1830, moves(state, seat)),
    describe: (order) => describeOrder(order as Order1830),
    offers: (state, seat) => orderOffers(state, seat),
  },
  check: checkInvariants,
  svg: svg1830,
  holdings: holdings1830,
};

export default game1830;
export { playerValue, certCount, certLimit, sharePrice, parPrice, CORPS, PRIVATES };
