// Preparation: deal stock and route cards, lay out the open row, build the
// stock pile with a scoring card in each of its lower three quarters, and
// hand out the starting bonus by seat.
import { randomInt, seedRandom, shuffle } from '../random.ts';
import { board } from './board.ts';
import { RULES_VERSION, SCORING, type AirlinesState } from './state.ts';

/** `version`: the rules version to play under, RULES_VERSION for a new game (older ones replay as recorded). */
export function setupGame(seats: number, seed: string, version = RULES_VERSION): AirlinesState {
  const random = seedRandom(seed);
  const n = board.companies.length;
  const deck: number[] = [];
  for (const c of board.companies) for (let k = 0; k < c.stock; k++) deck.push(c.index);
  shuffle(random, deck);
  const stock = Array.from({ length: seats }, () => Array<number>(n).fill(0));
  for (let seat = 0; seat < seats; seat++) {
    for (let k = 0; k < board.handStock; k++) stock[seat]![deck.pop()!]!++;
  }
  const open = deck.splice(deck.length - board.openStock, board.openStock);
  // Four piles, as equal as may be; the lower three each get a scoring card.
  const piles: number[][] = [];
  const base = Math.floor(deck.length / 4),
    extra = deck.length % 4;
  let at = 0;
  for (let p = 0; p < 4; p++) {
    const size = base + (p < extra ? 1 : 0);
    piles.push(deck.slice(at, at + size));
    at += size;
  }
  for (let p = 1; p < 4; p++) {
    const pile = piles[p]!;
    pile.splice(randomInt(random, pile.length + 1), 0, SCORING);
  }
  const pile = piles.flat();
  const routePile = shuffle(
    random,
    board.routeCards.map((c) => c.id),
  );
  const routes = Array.from({ length: seats }, () => routePile.splice(0, board.handRoutes));
  const start = randomInt(random, seats);
  const bonus = Array<number>(seats).fill(0);
  for (let k = 0; k < seats; k++) bonus[(start + k) % seats] = k;
  return {
    random,
    turn: start,
    step: 'action',
    drawn: null,
    pile,
    open,
    stock,
    routes,
    played: Array.from({ length: seats }, () => Array<number>(n).fill(0)),
    routePile,
    routeDiscard: [],
    circles: board.circles.map(() => null),
    founded: Array<boolean>(n).fill(false),
    points: [...bonus],
    bonus,
    scorings: [],
    over: false,
    moves: 0,
    version,
  };
}
