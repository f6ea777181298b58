// "High Card": a deliberately small game that drives the server's test suites.
//
// It has everything the server must cope with, in a few lines each:
// - a simultaneous opening: every seat secretly sets aside a stake card at once,
//   and nobody sees another's stake until all have chosen;
// - hidden hands and a hidden deck order, drawn from the seeded generator;
// - a move that reveals hidden information (drawing) and so cannot be taken back;
// - an autoMove for a seat that sits on its turn.
// Afterwards seats take turns: play a card from the hand onto their pile, or
// draw the top card of the deck. Score: stake plus pile. It ends when every
// hand and the deck are empty.
import { z } from 'zod';
import { RuleError, type Outcome, type Rules, type Seat, type View } from '../../rules/types.ts';
import { seedRandom, shuffle, type RandomState } from '../../rules/random.ts';

export interface HighCardState {
  random: RandomState;
  deck: number[];
  hands: number[][];
  stakes: (number | null)[];
  piles: number[][];
  /** Whose turn in the play phase; meaningless while stakes are being chosen. */
  turn: Seat;
  moves: number;
}

const actionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stake'), card: z.number().int() }),
  z.object({ type: z.literal('play'), card: z.number().int() }),
  z.object({ type: z.literal('draw') }),
]);
export type HighCardAction = z.infer<typeof actionSchema>;

const HAND = 3;
const HAND_LIMIT = 4;

function stakesDone(s: HighCardState): boolean {
  return s.stakes.every((x) => x !== null);
}

function canAct(s: HighCardState, seat: Seat): boolean {
  return s.hands[seat]!.length > 0 || (s.deck.length > 0 && s.hands[seat]!.length < HAND_LIMIT);
}

function over(s: HighCardState): boolean {
  return stakesDone(s) && s.deck.length === 0 && s.hands.every((h) => h.length === 0);
}

/** The next seat from `from` (inclusive) that can act; the game guarantees one exists unless over. */
function nextActive(s: HighCardState, from: Seat): Seat {
  const n = s.hands.length;
  for (let i = 0; i < n; i++) {
    const seat = (from + i) % n;
    if (canAct(s, seat)) return seat;
  }
  return from;
}

export const highCard: Rules<HighCardState, HighCardAction> = {
  id: 'high-card',
  title: 'High Card',
  version: 1,
  players: { min: 2, max: 4 },
  options: [{ id: 'short', label: 'Short deck', kind: 'boolean', default: false }],

  setup(seats, seed, options) {
    const random = seedRandom(seed);
    const size = options.short ? seats * HAND + 2 : seats * (HAND + 2);
    const deck = shuffle(
      random,
      Array.from({ length: size }, (_, i) => i + 1),
    );
    const hands = Array.from({ length: seats }, () => deck.splice(0, HAND));
    return {
      random,
      deck,
      hands,
      stakes: Array(seats).fill(null),
      piles: Array.from({ length: seats }, () => []),
      turn: 0,
      moves: 0,
    };
  },

  toAct(s) {
    if (!stakesDone(s)) return s.stakes.flatMap((x, seat) => (x === null ? [seat] : []));
    if (over(s)) return [];
    return [s.turn];
  },

  apply(s, seat, raw) {
    const parsed = actionSchema.safeParse(raw);
    if (!parsed.success) throw new RuleError('That is not a High Card move: use stake, play or draw.');
    const action = parsed.data;
    if (!this.toAct(s).includes(seat)) throw new RuleError('It is not your turn.');
    const hand = s.hands[seat]!;
    if (action.type === 'stake') {
      if (stakesDone(s) || s.stakes[seat] !== null) throw new RuleError('You have already chosen your stake.');
      if (!hand.includes(action.card)) throw new RuleError(`You do not hold the ${action.card}.`);
      hand.splice(hand.indexOf(action.card), 1);
      s.stakes[seat] = action.card;
      if (stakesDone(s)) s.turn = nextActive(s, 0);
    } else {
      if (!stakesDone(s)) throw new RuleError('First choose your stake.');
      if (action.type === 'play') {
        if (!hand.includes(action.card)) throw new RuleError(`You do not hold the ${action.card}.`);
        hand.splice(hand.indexOf(action.card), 1);
        s.piles[seat]!.push(action.card);
      } else {
        if (s.deck.length === 0) throw new RuleError('The deck is empty.');
        if (hand.length >= HAND_LIMIT) throw new RuleError(`You may hold at most ${HAND_LIMIT} cards.`);
        hand.push(s.deck.shift()!);
      }
      s.turn = nextActive(s, (seat + 1) % s.hands.length);
    }
    s.moves++;
  },

  moves(s, seat) {
    if (!this.toAct(s).includes(seat)) return [];
    const hand = [...s.hands[seat]!].sort((a, b) => a - b);
    if (!stakesDone(s)) return hand.map((card) => ({ type: 'stake', card }));
    const out: HighCardAction[] = hand.map((card) => ({ type: 'play', card }));
    if (s.deck.length > 0 && hand.length < HAND_LIMIT) out.push({ type: 'draw' });
    return out;
  },

  view(s, seat): View {
    const revealed = stakesDone(s);
    const toAct = this.toAct(s);
    return {
      seat,
      toAct,
      status: over(s) ? 'Game over' : revealed ? `Seat ${s.turn + 1} to play` : 'Choosing stakes',
      deckSize: s.deck.length,
      hand: seat === null ? null : [...s.hands[seat]!].sort((a, b) => a - b),
      handSizes: s.hands.map((h) => h.length),
      stakes: s.stakes.map((x, i) => (revealed || i === seat ? x : null)),
      stakeChosen: s.stakes.map((x) => x !== null),
      piles: s.piles.map((p) => [...p]),
    };
  },

  outcome(s): Outcome | null {
    if (!over(s)) return null;
    const scores = s.piles.map((p, i) => p.reduce((a, b) => a + b, 0) + (s.stakes[i] ?? 0));
    const ranks = scores.map((x) => 1 + scores.filter((y) => y > x).length);
    return { scores, ranks, reason: 'every card was played' };
  },

  describe(action) {
    if (action.type === 'stake') return 'chose a stake';
    if (action.type === 'play') return `played the ${action.card}`;
    return 'drew a card';
  },

  label(action) {
    if (action.type === 'stake') return `Stake card ${action.card}`;
    if (action.type === 'play') return `Play the ${action.card}`;
    return 'Draw a card';
  },

  undoable(action) {
    return action.type !== 'draw';
  },

  autoMove(s, seat) {
    return this.moves(s, seat)[0] ?? null;
  },

  parse(text) {
    const [verb, arg] = text.trim().toLowerCase().split(/\s+/);
    if (verb === 'draw') return { type: 'draw' };
    if ((verb === 'play' || verb === 'stake') && arg && /^\d+$/.test(arg)) return { type: verb, card: Number(arg) };
    throw new RuleError('Write "stake 5", "play 5" or "draw".');
  },

  svg(view) {
    const piles = view.piles as number[][];
    const bars = piles
      .map((p, i) => {
        const total = p.reduce((a, b) => a + b, 0);
        return (
          `<rect x="${10 + i * 60}" y="${110 - total}" width="40" height="${total}" fill="#3a6"/>` +
          `<text x="${30 + i * 60}" y="128" text-anchor="middle" font-size="12">${total}</text>`
        );
      })
      .join('');
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${20 + piles.length * 60}" height="140">` +
      `<rect width="100%" height="100%" fill="#fff"/>${bars}</svg>`
    );
  },

  check(s) {
    const all = [...s.deck, ...s.hands.flat(), ...s.piles.flat(), ...s.stakes.filter((x): x is number => x !== null)];
    const sorted = [...all].sort((a, b) => a - b);
    return sorted.every((x, i) => x === i + 1) ? [] : ['cards are not conserved'];
  },
};
