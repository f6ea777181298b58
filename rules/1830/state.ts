// The 1830 game state: plain JSON, mutated in place by `apply` after validation.
import type { Options } from '../types.ts';
import { CORP_SYMS, DATA, PRIVATE_SYMS } from './data.ts';
import { ruleSetOf, type RuleSetName } from './rule-set.ts';

export type Cell = [number, number];

export interface CorpState {
  sym: string;
  /** Par has been set (the president's certificate is out). */
  ipoed: boolean;
  floated: boolean;
  /** Par cell (row, column), null before par. */
  par: Cell | null;
  /** Current market cell, null before par. */
  cell: Cell | null;
  cash: number;
  /** Percent still in the IPO (unsold), in the bank pool, and held by each seat. */
  ipo: number;
  pool: number;
  held: number[];
  /** Seat holding the president's certificate, null while nobody does. */
  president: number | null;
  /** Train ids owned. */
  trains: string[];
  /** Station tokens used so far (the next one's cost is the data's tokens[tokensUsed]); where they stand is on the board. */
  tokensUsed: number;
  /** Privates owned by the corporation. */
  companies: string[];
  operated: boolean;
  closed: boolean;
}

export interface PrivateState {
  sym: string;
  /** null: unsold (bank); number: a seat; string: a corporation. */
  owner: number | string | null;
  discount: number;
  closed: boolean;
  /** The once-per-game abilities used (CS tile, DH tile/token). */
  used: string[];
}

export interface TrainState {
  id: string;
  name: string;
  /** 'depot' (bank, not yet bought), 'pool' (discarded to the bank), a corporation, or 'gone' (rusted/removed). */
  owner: string;
}

export interface Bid {
  seat: number;
  price: number;
}

export interface AuctionRound {
  kind: 'auction';
  index: number;
  passed: boolean[];
  /** Unsold privates, cheapest first. */
  available: string[];
  bids: Record<string, Bid[]>;
  auctioning: string | null;
  /** Corporations whose par the owner of a private must set now (B&O). */
  pendingPar: { corp: string; seat: number }[];
}

export interface StockTurnAction {
  type: 'buy' | 'sell' | 'par' | 'buyPrivate' | 'sellPrivate';
  corp: string;
  fromIpo?: boolean;
}

export interface StockRound {
  kind: 'stock';
  index: number;
  passed: boolean[];
  /** Per seat: corporations sold this round ('now': this turn, 'prev': an earlier turn). */
  sold: Record<string, 'now' | 'prev'>[];
  turnActions: StockTurnAction[];
  boughtFromIpo: boolean;
}

export interface OperatingRound {
  kind: 'operating';
  num: number;
  /** Corporations in operating order, fixed at the start of the round (re-sorted after emergency sales). */
  order: string[];
  index: number;
  current: string | null;
  /** The step the operating corporation is at (see operating.ts). */
  step: string;
  turn: OperatingTurn;
}

export interface OperatingTurn {
  /** The one tile action of the turn is used. */
  laid: boolean;
  tokened: boolean;
  /** Revenue of the run, waiting for the dividend decision. */
  revenue: number;
  ran: boolean;
  /** Price of the last share the president sold for a train (limits the price paid to another corporation). */
  lastSoldPrice: number | null;
  /** The D&H tile was laid this turn: its station may follow. */
  teleport: boolean;
  boughtTrain: boolean;
  /** Seed rule set: the type new to the game of which this turn bought a train (one such train per turn). */
  newTrainType?: string;
}

export type Round = AuctionRound | StockRound | OperatingRound;

export interface Game1830State {
  version: 1;
  seats: number;
  /** ruleSet: which readings apply where the seed and 18xx.games differ (rule-set.ts). */
  options: { multipleBrownFromIpo: boolean; optional6Train: boolean; ruleSet: RuleSetName };
  /** Priority order of seats (the first has the priority deal). */
  order: number[];
  cash: number[];
  bankrupt: boolean[];
  bank: number;
  /** Stock-round number (18xx.games's "turn"). */
  turn: number;
  /** Operating rounds in the current set. */
  orCount: number;
  phase: number;
  corps: Record<string, CorpState>;
  privates: Record<string, PrivateState>;
  trains: TrainState[];
  /** Market cell "r,c" -> corporations stacked there, first arrived first. */
  stacks: Record<string, string[]>;
  round: Round;
  /** Track state kept by the map module (tiles, tokens in cities). */
  map: unknown;
  finished: boolean;
  endReason: string | null;
  /** 18xx.games's code for the end: 'bank' or 'bankrupt'. */
  endCode: string | null;
  /** The bank broke: the game ends after the current set of operating rounds. */
  bankBroken: boolean;
  /** A private offered to a buyer by a player who does not own it: its owner accepts or declines first (absent when none). */
  offer?: PrivateOffer;
}

export interface PrivateOffer {
  company: string;
  price: number;
  /** The owner: he accepts or declines, unless he made the offer himself (seed G.1.a, G.1.d.3). */
  seller: number;
  /** The player who made the offer: the buyer (or the buying corporation's president), or the seller. */
  by: number;
  /** The buyer: that player (stock round) or the corporation they operate. */
  buyer: number | string;
}

/** The player who answers an offer: the seller, or the buyer when the seller made it. */
export function offerAnswerer(state: Game1830State, offer: PrivateOffer): number {
  if (offer.by !== offer.seller) return offer.seller;
  return typeof offer.buyer === 'number' ? offer.buyer : state.corps[offer.buyer]!.president!;
}

export function setupState(seats: number, options: Options): Game1830State {
  const startCash = DATA.startingCash[String(seats)];
  if (!startCash) throw new Error(`1830 is for 2 to 6 players, not ${seats}`);
  const corps: Record<string, CorpState> = {};
  for (const sym of CORP_SYMS) {
    corps[sym] = {
      sym,
      ipoed: false,
      floated: false,
      par: null,
      cell: null,
      cash: 0,
      ipo: 100,
      pool: 0,
      held: new Array(seats).fill(0),
      president: null,
      trains: [],
      tokensUsed: 0,
      companies: [],
      operated: false,
      closed: false,
    };
  }
  const privates: Record<string, PrivateState> = {};
  for (const sym of PRIVATE_SYMS) privates[sym] = { sym, owner: null, discount: 0, closed: false, used: [] };
  const optional6Train = options.optional_6_train === true;
  const trains: TrainState[] = [];
  for (const t of DATA.trains) {
    const n =
      t.count === 'unlimited' ? 1 : t.name === '6' && optional6Train ? (t.countWithOptional6 ?? t.count) : t.count;
    for (let i = 0; i < n; i++) trains.push({ id: `${t.name}-${i}`, name: t.name, owner: 'depot' });
  }
  const available = [...PRIVATE_SYMS].sort(
    (a, b) => DATA.privates.find((p) => p.sym === a)!.value - DATA.privates.find((p) => p.sym === b)!.value,
  );
  return {
    version: 1,
    seats,
    options: {
      multipleBrownFromIpo: options.multiple_brown_from_ipo === true,
      optional6Train,
      ruleSet: ruleSetOf(options),
    },
    order: Array.from({ length: seats }, (_, i) => i),
    cash: new Array(seats).fill(startCash),
    bankrupt: new Array(seats).fill(false),
    bank: DATA.bank - startCash * seats,
    turn: 1,
    orCount: 1,
    phase: 0,
    corps,
    privates,
    trains,
    stacks: {},
    round: {
      kind: 'auction',
      index: 0,
      passed: new Array(seats).fill(false),
      available,
      bids: {},
      auctioning: null,
      pendingPar: [],
    },
    map: null,
    finished: false,
    endReason: null,
    endCode: null,
    bankBroken: false,
  };
}
