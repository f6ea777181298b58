// Standing orders (programmed moves, as 18xx.games has them): what a player leaves to be played for
// him the moment he is to act, and when such an order stops by itself.
//
//   arm(state, seat, spec)     the order as stored: the spec checked, with its baseline (the public
//                              position when it was left) and the round it belongs to; RuleError if
//                              it cannot stand now
//   decide(state, seat, order) what it does now that the seat is to act: play a move (and perhaps be
//                              done), stop (disarmed: the player is told why), expire (its round is
//                              over: dropped quietly) or idle (nothing to do at this step: kept)
//   describeOrder(order)       the order in words; orderOffers(state, seat): the orders a seat may
//                              leave now (the forms and the mail's links)
//
// The decision is pure and reads only the public position: `observe` takes the numbers every seat
// sees in the view (buildView: prices, floats, holdings, the pool, bids, the step) and the seat's own
// legal moves; 1830 hides nothing, and an order never looks at the seed or at another seat's orders.
// The readings are in README.md ("Standing orders").
import { z } from 'zod';
import { RuleError, type OrderDecision as GenericDecision, type Seat } from '../types.ts';
import type { Action1830 } from './actions.ts';
import { minBid, maxBid } from './auction.ts';
import { CORP_SYMS, PRIVATES } from './data.ts';
import { sharePrice } from './market.ts';
import type { Game1830State, StockRound } from './state.ts';
import { buyProblem } from './stock-round.ts';

const STOPS = ['sale', 'float', 'price', 'buyable'] as const;
export type StopKind = (typeof STOPS)[number];

const yes = z.union([z.boolean(), z.enum(['on', 'true', '1', 'yes']).transform(() => true)]);
const amount = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\s*\d{1,6}\s*$/)
      .transform(Number),
  ])
  .pipe(z.number().int());

export const orderSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('auctionPass'), unless: z.string().min(1).max(4) }).strict(),
  z
    .object({
      kind: z.literal('auctionBid'),
      company: z.string().min(1).max(4),
      upTo: amount.pipe(z.number().positive()),
    })
    .strict(),
  z
    .object({
      kind: z.literal('stockPass'),
      stops: z
        .union([z.enum(STOPS), z.array(z.enum(STOPS))])
        .transform((v) => (Array.isArray(v) ? [...new Set(v)] : [v]))
        .default([...STOPS]),
    })
    .strict(),
  z
    .object({
      kind: z.literal('stockBuy'),
      corp: z.string().min(1).max(8),
      percent: amount.pipe(z.number().min(10).max(100)),
      untilFloat: yes.default(false),
    })
    .strict(),
  z.object({ kind: z.literal('noPrivates') }).strict(),
]);

export type OrderSpec = z.infer<typeof orderSpecSchema>;

/** The public position an order compares against (taken when it is left). */
export interface Observation {
  /** The round the position is in: 'auction', 'stock:3', 'operating:3.1'. */
  round: string;
  cash: number;
  corps: Record<string, { price: number | null; floated: boolean; ipo: number; pool: number; held: number[] }>;
  /** Unsold privates with their bids (the auction), null outside it. */
  auction: {
    available: string[];
    bids: Record<string, { seat: number; price: number }[]>;
    auctioning: string | null;
    pendingPar: boolean;
    /** The cheapest unsold private's price (SV drops while everybody passes). */
    cheapestPrice: number | null;
  } | null;
  /** Corporations of which the seat could buy a share at the start of its stock turn (the IPO or the pool). */
  buyable: string[];
  /** Stock round: what the acting seat did this turn ('buy', 'sell', ...). */
  turnActions: string[];
  /** Operating round: the step of the corporation operating. */
  step: string | null;
}

export type Order1830 = OrderSpec & { round: string; baseline: Observation };

export type OrderDecision = GenericDecision<Action1830>;

export function roundKey(state: Game1830State): string {
  const r = state.round;
  if (r.kind === 'auction') return 'auction';
  if (r.kind === 'stock') return `stock:${state.turn}`;
  return `operating:${state.turn}.${r.num}`;
}

/** The public numbers of the position as `seat` sees them (everything here is in every seat's view). */
export function observe(state: Game1830State, seat: Seat): Observation {
  const r = state.round;
  const corps: Observation['corps'] = {};
  for (const sym of CORP_SYMS) {
    const c = state.corps[sym]!;
    corps[sym] = {
      price: c.cell ? sharePrice(c) : null,
      floated: c.floated,
      ipo: c.ipo,
      pool: c.pool,
      held: [...c.held],
    };
  }
  let auction: Observation['auction'] = null;
  if (r.kind === 'auction') {
    const cheapest = r.available[0];
    auction = {
      available: [...r.available],
      bids: structuredClone(r.bids),
      auctioning: r.auctioning,
      pendingPar: r.pendingPar.length > 0,
      cheapestPrice: cheapest ? PRIVATES[cheapest]!.value - state.privates[cheapest]!.discount : null,
    };
  }
  return {
    round: roundKey(state),
    cash: state.cash[seat]!,
    corps,
    auction,
    buyable: r.kind === 'stock' ? buyableAtTurnStart(state, seat) : [],
    turnActions: r.kind === 'stock' ? r.turnActions.map((a) => a.type) : [],
    step: r.kind === 'operating' ? r.step : null,
  };
}

/** The corporations the seat could buy a share of on its own turn (before buying anything that turn). */
function buyableAtTurnStart(state: Game1830State, seat: Seat): string[] {
  const round = state.round as StockRound;
  // The public rules of buying, asked as if the seat's turn were just beginning.
  const fresh: Game1830State = { ...state, round: { ...round, turnActions: [], boughtFromIpo: false } };
  return CORP_SYMS.filter((sym) => {
    const c = state.corps[sym]!;
    if (c.closed || !c.ipoed) return false;
    return buyProblem(fresh, seat, c, 'ipo') === null || buyProblem(fresh, seat, c, 'pool') === null;
  });
}

/** Checks a spec a seat asks for against the position now and keeps the position as its baseline. */
export function armOrder(state: Game1830State, seat: Seat, raw: unknown): Order1830 {
  const parsed = orderSpecSchema.safeParse(raw);
  if (!parsed.success)
    throw new RuleError(`That standing order is not understood (${parsed.error.issues[0]?.message ?? 'bad shape'})`);
  const spec = parsed.data;
  if (state.finished) throw new RuleError('The game is over');
  const r = state.round;
  const baseline = observe(state, seat);
  switch (spec.kind) {
    case 'auctionPass':
    case 'auctionBid': {
      if (r.kind !== 'auction') throw new RuleError('Orders for the private auction can be left only during it');
      const sym = spec.kind === 'auctionPass' ? spec.unless : spec.company;
      if (!PRIVATES[sym]) throw new RuleError(`There is no private company ${sym}`);
      if (!r.available.includes(sym)) throw new RuleError(`${sym} is already sold`);
      if (spec.kind === 'auctionBid') {
        const min = minBid(state, sym);
        if (spec.upTo < min)
          throw new RuleError(`The next bid for ${sym} is at least $${min}, more than $${spec.upTo}`);
        if (spec.upTo > state.cash[seat]!) throw new RuleError(`You have only $${state.cash[seat]}`);
      }
      break;
    }
    case 'stockPass':
      if (r.kind !== 'stock') throw new RuleError('This order is for a stock round; it can be left only during one');
      break;
    case 'stockBuy': {
      const c = state.corps[spec.corp];
      if (!c) throw new RuleError(`There is no corporation ${spec.corp}`);
      if (!c.ipoed) throw new RuleError(`${spec.corp} has no par value yet: par it yourself first`);
      if (r.kind === 'auction') throw new RuleError('Shares are bought in stock rounds, after the auction');
      if (c.held[seat]! >= spec.percent) throw new RuleError(`You already hold ${c.held[seat]}% of ${spec.corp}`);
      if (spec.untilFloat && c.floated) throw new RuleError(`${spec.corp} has already floated`);
      break;
    }
    case 'noPrivates':
      if (r.kind !== 'operating')
        throw new RuleError('This order is for an operating round; it can be left only during one');
      break;
  }
  return { ...spec, round: baseline.round, baseline };
}

/** What the order does now that `seat` is to act, given the seat's legal moves. */
export function decideOrder(state: Game1830State, seat: Seat, order: Order1830, moves: Action1830[]): OrderDecision {
  return decide(order, observe(state, seat), seat, moves, (sym) => ({
    min: minBid(state, sym),
    max: maxBid(state, seat, sym),
  }));
}

const legal = (moves: Action1830[], a: Action1830) => moves.some((m) => JSON.stringify(m) === JSON.stringify(a));
const PASS: Action1830 = { type: 'pass' };

/** The pure decision: the order, the public position now, the seat's legal moves, and what a bid may be. */
export function decide(
  order: Order1830,
  now: Observation,
  seat: Seat,
  moves: Action1830[],
  bidRange: (sym: string) => { min: number; max: number },
): OrderDecision {
  const base = order.baseline;
  const passOr = (why: string): OrderDecision => (legal(moves, PASS) ? { play: PASS } : { stop: why });
  switch (order.kind) {
    case 'auctionPass':
    case 'auctionBid': {
      const a = now.auction;
      if (!a) return { expire: true };
      const sym = order.kind === 'auctionPass' ? order.unless : order.company;
      const others = (s: string, o: Observation) => (o.auction?.bids[s] ?? []).filter((b) => b.seat !== seat);
      if (a.pendingPar) return { idle: true };
      // A full round of passes went by (the privates paid; for a pass order, SV got cheaper): the table
      // is quiet, you decide. This also keeps a table of orders from passing round and round.
      if (now.cash > base.cash) return { stop: 'everybody passed and the privates paid their revenue' };
      if (
        order.kind === 'auctionPass' &&
        base.auction &&
        a.cheapestPrice !== base.auction.cheapestPrice &&
        a.available[0] === base.auction.available[0]
      )
        return { stop: `everybody passed and ${a.available[0]} dropped to $${a.cheapestPrice}` };
      if (!a.available.includes(sym)) return { stop: `${sym} is sold` };
      if (order.kind === 'auctionPass') {
        if (
          others(sym, now).length > others(sym, base).length ||
          JSON.stringify(others(sym, now)) !== JSON.stringify(others(sym, base))
        )
          return { stop: `somebody bid on ${sym}` };
        if (a.auctioning) return { stop: `the bidding for ${a.auctioning} is yours to answer` };
        return passOr('you cannot pass now');
      }
      if (a.auctioning && a.auctioning !== sym) return { stop: `the bidding for ${a.auctioning} is yours to answer` };
      const bids = a.bids[sym] ?? [];
      const mine = bids.find((b) => b.seat === seat);
      const top = bids.reduce((m, b) => Math.max(m, b.price), 0);
      if (!a.auctioning && mine && mine.price >= top) return passOr('you cannot pass now');
      const { min, max } = bidRange(sym);
      if (min > order.upTo)
        return a.auctioning
          ? legal(moves, PASS)
            ? { play: PASS, done: `the bidding for ${sym} passed your limit of $${order.upTo}: you dropped out` }
            : { stop: `the bidding for ${sym} passed your limit of $${order.upTo}` }
          : { stop: `the bids for ${sym} passed your limit of $${order.upTo}` };
      if (min > max) return { stop: `you cannot afford $${min} for ${sym} besides your other bids` };
      const bid: Action1830 = { type: 'bid', company: sym, price: min };
      if (!legal(moves, bid)) return { stop: `a bid of $${min} for ${sym} is not open to you now` };
      return { play: bid };
    }
    case 'stockPass': {
      if (now.round !== order.round) return { expire: true };
      const stops = order.stops;
      const mine = (sym: string) => (base.corps[sym]?.held[seat] ?? 0) > 0 || (now.corps[sym]?.held[seat] ?? 0) > 0;
      for (const sym of CORP_SYMS) {
        const b = base.corps[sym]!;
        const n = now.corps[sym]!;
        if (stops.includes('sale') && mine(sym)) {
          const sold = n.pool > b.pool || n.held.some((h, s) => s !== seat && h < b.held[s]!);
          if (sold) return { stop: `somebody sold ${sym}` };
        }
        if (stops.includes('float') && n.floated && !b.floated) return { stop: `${sym} floated` };
        if (stops.includes('price') && mine(sym) && n.price !== b.price)
          return { stop: `the price of ${sym} moved from $${b.price} to $${n.price}` };
      }
      if (stops.includes('buyable')) {
        const fresh = now.buyable.filter((sym) => !base.buyable.includes(sym));
        if (fresh.length) return { stop: `you can now buy ${fresh.join(', ')}` };
      }
      return passOr('you must act first (over a holding limit?)');
    }
    case 'stockBuy': {
      if (!now.round.startsWith('stock:')) return { idle: true };
      const c = now.corps[order.corp]!;
      const reached = () =>
        c.held[seat]! >= order.percent
          ? `you hold ${c.held[seat]}% of ${order.corp}`
          : order.untilFloat && c.floated
            ? `${order.corp} has floated`
            : null;
      if (now.turnActions.some((t) => t === 'buy' || t === 'par')) {
        const done = reached();
        if (!legal(moves, PASS)) return { stop: 'you must act first' };
        return done ? { play: PASS, done } : { play: PASS };
      }
      const done = reached();
      if (done) return { stop: done };
      for (const from of ['ipo', 'pool'] as const) {
        const buy: Action1830 = { type: 'buy', corp: order.corp, from };
        if (legal(moves, buy)) return { play: buy };
      }
      return { stop: `no share of ${order.corp} can be bought for you now` };
    }
    case 'noPrivates': {
      if (now.round !== order.round) return { expire: true };
      if (now.step !== 'company') return { idle: true };
      return passOr('you cannot pass now');
    }
  }
}

export function describeOrder(order: OrderSpec & { round?: string }): string {
  const round = order.round ? roundWords(order.round) : '';
  switch (order.kind) {
    case 'auctionPass':
      return `Pass in the private auction unless somebody bids on ${order.unless}`;
    case 'auctionBid':
      return `Bid on ${order.company} up to $${order.upTo}`;
    case 'stockPass': {
      const words: Record<StopKind, string> = {
        sale: 'a sale in a corporation you hold',
        float: 'a new float',
        price: 'a price change of a corporation you hold',
        buyable: 'a share you could not buy becoming buyable',
      };
      const stops = order.stops.map((s) => words[s]);
      return `Pass in ${round || 'this stock round'} until something changes${stops.length ? ` (${stops.join('; ')})` : ''}`;
    }
    case 'stockBuy':
      return `Buy a share of ${order.corp} each stock turn until you hold ${order.percent}%${order.untilFloat ? ' or it floats' : ''}`;
    case 'noPrivates':
      return `Pass on buying privates in ${round || 'this operating round'}`;
  }
}

function roundWords(key: string): string {
  if (key === 'auction') return 'the private auction';
  const [kind, n] = key.split(':');
  return kind === 'stock' ? `stock round ${n}` : `operating round ${n}`;
}

/** The orders a seat may leave now, with the choices each takes (forms, mail links). */
export function orderOffers(
  state: Game1830State,
  seat: Seat,
): { kind: OrderSpec['kind']; choices?: string[]; suggested?: number }[] {
  if (state.finished) return [];
  const r = state.round;
  const corps = CORP_SYMS.filter((s) => state.corps[s]!.ipoed && !state.corps[s]!.closed);
  if (r.kind === 'auction')
    return [
      { kind: 'auctionPass', choices: [...r.available] },
      { kind: 'auctionBid', choices: [...r.available], suggested: state.cash[seat] },
    ];
  const buy = corps.length ? [{ kind: 'stockBuy' as const, choices: corps, suggested: 60 }] : [];
  if (r.kind === 'stock') return [{ kind: 'stockPass' }, ...buy];
  return [{ kind: 'noPrivates' }, ...buy];
}
