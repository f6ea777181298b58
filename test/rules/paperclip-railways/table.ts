// Hand-set tables for the Paperclip Railways tests: a game already in play,
// with the stations, hands and pile the test lays out.
import { paperclipRailways as R } from '../../../rules/paperclip-railways/index.ts';
import { BOARD } from '../../../rules/paperclip-railways/data.ts';
import type { PCState, Station } from '../../../rules/paperclip-railways/state.ts';

export { R };

export function card(id: string, x: number, y: number, cubes: number[] = []): Station {
  return { id, kind: 'card', card: id, x, y, w: BOARD.card.w, h: BOARD.card.h, cubes: padded(cubes) };
}

export function start(seat: number, x: number, y: number): Station {
  return { id: `S${seat + 1}`, kind: 'start', owner: seat, x, y, w: BOARD.card.w, h: BOARD.card.h, cubes: padded([]) };
}

export function metro(): Station[] {
  return BOARD.metropolis.regions.map((r) => ({
    id: r.id,
    kind: 'metro' as const,
    x: r.x,
    y: r.y,
    w: r.w,
    h: r.h,
    cubes: padded([]),
  }));
}

let SEATS = 4;
function padded(c: number[]): number[] {
  return Array.from({ length: SEATS }, (_, i) => c[i] ?? 0);
}

/**
 * A 4-player game in play on the square table (±480 mm), seat 0 to act, with
 * only the given stations, no obstacles, no river, no links; the pile holds
 * `deck` (top first) and the rest of the cards lie in the box.
 */
export function table(opts: { stations: Station[]; hands?: string[][]; deck?: string[]; seats?: number }): PCState {
  SEATS = opts.seats ?? 4;
  const s = R.setup(SEATS, 'hand-set', { advanced: false, promos: true });
  const everything = [
    ...s.deck.filter((c) => c !== 'end-of-line'),
    ...s.box,
    ...s.stations.filter((x) => x.kind === 'card').map((x) => x.card!),
  ];
  s.stations = opts.stations.map((st) => ({ ...st, cubes: padded(st.cubes) }));
  s.hands = Array.from({ length: SEATS }, (_, i) => [...(opts.hands?.[i] ?? [])]);
  const used = new Set([...s.hands.flat(), ...s.stations.filter((x) => x.kind === 'card').map((x) => x.card!)]);
  s.deck = opts.deck ? [...opts.deck] : everything.filter((c) => !used.has(c)).slice(0, 20);
  if (!s.deck.includes('end-of-line')) s.deck.push('end-of-line');
  for (const c of s.deck) used.add(c);
  s.box = everything.filter((c) => !used.has(c));
  s.phase = 'play';
  s.turn = 0;
  s.startPlayer = 0;
  s.setupQueue = [];
  s.obstacles = [];
  s.river = null;
  return s;
}
