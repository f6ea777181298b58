// Setting up the table as the seed orders it.
import { randomInt, seedRandom, shuffle } from '../random.ts';
import type { Options } from '../types.ts';
import { BOARD, CARDS, END_OF_LINE, seatsKey } from './data.ts';
import { RULES_VERSION, startStationId, type PCState, type Station } from './state.ts';
import { versionOf } from '../version.ts';
import { setupSpots } from './table.ts';

export function setupGame(seats: number, seed: string, options: Options): PCState {
  const key = seatsKey(seats);
  const random = seedRandom(seed);
  const advanced = options.advanced === true;
  const promos = options.promos !== false;
  const startPlayer = randomInt(random, seats);
  const supply = BOARD.supplies[key]!;
  const corners = BOARD.areas[key]!.corners.map((p) => [p[0], p[1]] as [number, number]);
  const { w, h } = BOARD.card;
  const zero = () => new Array<number>(seats).fill(0);

  // Shuffle the station cards and set (about) a third aside, unseen.
  const stationCards = CARDS.filter((c) => c.type !== 'blank').map((c) => c.id);
  shuffle(random, stationCards);
  const removed = Math.round(stationCards.length / 3);
  const box = stationCards.splice(0, removed);
  const deck = stationCards;

  const stations: Station[] = [];
  const version = versionOf(options, RULES_VERSION);
  const spots = setupSpots(seats, corners, version);
  // Border stations: one card per player, face down at the corners.
  for (const p of spots.border.slice(0, seats)) {
    const card = deck.shift()!;
    stations.push({ id: card, kind: 'card', card, x: p[0], y: p[1], w, h, cubes: zero(), faceDown: true });
  }
  // Starting stations, shuffled face down onto the middles of the sides.
  const owners = shuffle(
    random,
    Array.from({ length: seats }, (_, i) => i),
  );
  spots.start.slice(0, seats).forEach((p, i) => {
    const owner = owners[i]!;
    stations.push({
      id: startStationId(owner),
      kind: 'start',
      owner,
      x: p[0],
      y: p[1],
      w,
      h,
      cubes: zero(),
      faceDown: true,
    });
  });
  if (advanced) {
    // Gigantopolis: four stations from the pile on the blank side; their "when built" effects are skipped.
    for (const p of BOARD.gigantopolis.spots) {
      const card = deck.shift()!;
      stations.push({
        id: card,
        kind: 'card',
        card,
        x: p[0],
        y: p[1],
        w,
        h,
        cubes: zero(),
        faceDown: true,
        noBuildEffect: true,
      });
    }
  } else {
    for (const r of BOARD.metropolis.regions)
      stations.push({ id: r.id, kind: 'metro', x: r.x, y: r.y, w: r.w, h: r.h, cubes: zero() });
  }
  // Promo blanks go into the pile; without them they stay in the box.
  const blanks = CARDS.filter((c) => c.type === 'blank').map((c) => c.id);
  if (promos) {
    deck.push(...blanks);
    shuffle(random, deck);
  } else box.push(...blanks);
  // The End of Line card is shuffled in with the last ten cards.
  const tail = deck.splice(Math.max(0, deck.length - 10));
  tail.push(END_OF_LINE);
  shuffle(random, tail);
  deck.push(...tail);

  const setupQueue = BOARD.obstacleOrder[key]!.map(
    ([offset, count]) => [(startPlayer + offset) % seats, count] as [number, number],
  );
  return {
    seats,
    advanced,
    promos,
    random,
    startPlayer,
    phase: 'obstacles',
    turn: setupQueue[0]![0],
    setupQueue,
    area: corners,
    obstacles: [],
    obstacleSupply: BOARD.obstacles.map((o) => o.id),
    river: null,
    stations,
    links: [],
    deck,
    discard: [],
    box,
    hands: Array.from({ length: seats }, () => []),
    endOfLineDrawn: false,
    clips: new Array(seats).fill(supply.clips),
    // One cube of each colour marks its score on the track: the rest is the supply.
    cubes: new Array(seats).fill(supply.cubes - 1),
    metroCubes: new Array(seats).fill(false),
    scores: zero(),
    turns: zero(),
    penalty: BOARD.penalty.start,
    lastOrders: null,
    finalStep: null,
    lastBuild: null,
    bonuses: [],
    endReason: null,
    version,
  };
}

/** Everything placed: turn the stations face up, deal the hands, start play. */
export function revealAndDeal(s: PCState): void {
  for (const st of s.stations) delete st.faceDown;
  for (let i = 0; i < BOARD.handSize; i++) {
    for (let k = 0; k < s.seats; k++) {
      const seat = (s.startPlayer + k) % s.seats;
      // Dealing never reaches the End of Line card: it lies in the last eleven.
      s.hands[seat]!.push(s.deck.shift()!);
    }
  }
  s.phase = 'play';
  s.turn = s.startPlayer;
}
