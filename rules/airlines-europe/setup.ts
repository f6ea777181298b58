// Setting up: airlines by player count, money, seat points, the market, hands
// (redealt when all one airline) and the draw pile in three stacks.
import { randomInt, seedRandom, shuffle, type RandomState } from '../random.ts';
import { board } from './board.ts';
import { RULES_VERSION, SCORING_CARD, type AEState } from './state.ts';

/** A hand of shares all of one airline must be redealt. */
export function isUniformHand(hand: string[]): boolean {
  return hand.length > 0 && hand.every((a) => a === hand[0]);
}

/**
 * Every hand made of one airline only goes back into the pile, the pile is
 * shuffled and that player gets a new hand; repeated until no hand is uniform.
 */
export function redealUniformHands(random: RandomState, pile: string[], hands: string[][]): void {
  for (let seat = 0; seat < hands.length; seat++) {
    for (let attempt = 0; attempt < 1000 && isUniformHand(hands[seat]!); attempt++) {
      const size = hands[seat]!.length;
      pile.push(...hands[seat]!);
      shuffle(random, pile);
      hands[seat] = pile.splice(0, size);
    }
  }
}

/** A whole number drawn evenly from lo to hi (both included). */
function between(random: RandomState, lo: number, hi: number): number {
  return lo + randomInt(random, hi - lo + 1);
}

/**
 * The draw pile from the remaining shares (top first): the top ten with a
 * scoring card shuffled in are the final stack; "roughly a quarter" of the rest
 * (大約１／４: here a fifth to three tenths, drawn at random, as a hand splits
 * a pile) with a scoring card at its bottom is the early stack; the others,
 * with a scoring card pushed in "in the middle" (中間: somewhere in their middle
 * third), the middle stack. Early on top, final at the bottom. Exact positions
 * would let everyone, who sees the pile's size, know which draw turns up a scoring.
 */
export function buildDrawPile(random: RandomState, rest: string[], version = RULES_VERSION): string[] {
  const final = rest.slice(0, board.setup.finalStack);
  final.push(SCORING_CARD);
  shuffle(random, final);
  const others = rest.slice(board.setup.finalStack);
  const [lo, hi] = board.setup.earlyFraction;
  // Rules version 1 put the cards exactly at a quarter and in the middle.
  const earlyCount =
    version >= 2
      ? between(random, Math.ceil(others.length * lo), Math.floor(others.length * hi))
      : Math.round(others.length / 4);
  const early = others.slice(0, earlyCount);
  early.push(SCORING_CARD);
  const middle = others.slice(earlyCount);
  const at =
    version >= 2
      ? between(random, Math.ceil(middle.length / 3), Math.floor((2 * middle.length) / 3))
      : Math.floor(middle.length / 2);
  middle.splice(at, 0, SCORING_CARD);
  return [...early, ...middle, ...final];
}

export function setupGame(seats: number, seed: string, version = RULES_VERSION): AEState {
  if (!Number.isInteger(seats) || seats < 2 || seats > 5) throw new Error('Airlines Europe is for 2 to 5 players');
  const random = seedRandom(seed);
  const airlines = board.airlinesFor(seats);
  const pile: string[] = [];
  for (const a of airlines) for (let k = 0; k < board.airlineById[a]!.shares; k++) pile.push(a);
  shuffle(random, pile);
  const market = pile.splice(0, board.setup.marketSize);
  const hands = Array.from({ length: seats }, () => pile.splice(0, board.setup.handSize));
  redealUniformHands(random, pile, hands);
  const deck = buildDrawPile(random, pile, version);
  const money = Array(seats).fill(board.setup.startMoney) as number[];
  const track: Record<string, number> = {};
  const planes: Record<string, number> = {};
  const networks: Record<string, string[]> = {};
  for (const a of airlines) {
    const data = board.airlineById[a]!;
    track[a] = data.start;
    planes[a] = data.planes;
    networks[a] = [data.home];
  }
  return {
    random,
    seats,
    airlines,
    phase: 'opening',
    turn: 0,
    deck,
    market,
    hands,
    portfolios: Array.from({ length: seats }, () => ({})),
    opening: Array(seats).fill(null),
    money,
    bank: board.setup.bankPerPlayer * seats - board.setup.startMoney * seats,
    vp: Array.from({ length: seats }, (_, seat) => seat + 1),
    track,
    planes,
    licences: board.routes.map(() => []),
    networks,
    bonusesLeft: airlines.filter((a) => board.airlineById[a]!.bonus),
    abacusSupply: board.abacus.shares,
    discard: [],
    removed: {},
    scoringsDone: 0,
    scoringQueue: [],
    clearout: null,
    lastScoring: null,
    endReason: null,
    allBlocked: false,
    bankBroke: 0,
    moveCount: 0,
    version,
  };
}
