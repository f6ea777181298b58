// The game state (plain JSON) and the initial position.
import { seedRandom, type RandomState } from '../random.ts';
import { board, type Good } from './board.ts';

export const SHARES_PER_LINE = 16;
export const SUPPLEMENTARY_SHARES = 16;
export const TRACK_TILES = 60;
export const STATIONS_PER_PLAYER = 7;
export const PASSENGERS = 9;
export const ACTIONS_PER_TURN = 2;
export const PLAYER_COLOURS = ['white', 'yellow', 'pink', 'cyan'] as const;

export interface LineState {
  /** Hex of the locomotive; -1 once the line was absorbed. */
  loco: number;
  /** Direction the locomotive faces; -1 while it stands in its start town. */
  facing: number;
  /** The locomotive has not left its start town yet. */
  atStart: boolean;
  /** Index of the line that absorbed this one, or -1 while it runs. */
  absorbedInto: number;
  isolated: boolean;
  /** Place indexes (towns, cities, start towns) connected to the line, in order. */
  connected: number[];
  /** Shares of this line beside the board. */
  supply: number;
  /** Shares of this line held by each seat. */
  held: number[];
  /** The supply ran out once: no share is ever taken for an extension again. */
  exhausted: boolean;
  /** Shares taken out of play: handed in at a merger, or discarded when isolated. */
  retired: number;
  /** Supplementary shares that joined this line. */
  supplementary: number;
}

export interface Tile {
  hex: number;
  /** The line the track belongs to; LOOSE once it is joined to no locomotive (see loosenTrack). */
  line: number;
  /** The two sides of the hex the track joins (directions 0-5). */
  sides: [number, number];
}

export interface TokenHeld {
  city: number;
  good: Good;
}

export interface Payment {
  seat: number;
  amount: number;
  reason: string;
}

export interface Bid {
  seat: number;
  amount: number;
  to: number;
}

export interface Vote {
  line: number;
  mover: number;
  /** Where the locomotive set out from, its facing then, and whether that was its start town. */
  from: number;
  facing: number;
  fromStart: boolean;
  /** The permitted destinations (hexes). */
  options: number[];
  /** The mover's own choice, kept if nobody outbids it. */
  choice: number;
  /** Seats in bidding order: from the mover's left, the mover last. */
  order: number[];
  /** Index into order of the seat to bid now. */
  next: number;
  high: Bid | null;
  bids: Bid[];
}

export interface SRState {
  seats: number;
  random: RandomState;
  turn: number;
  actionsLeft: number;
  /** Lines extended in the current turn. */
  extended: number[];
  lines: LineState[];
  tiles: Tile[];
  /** stations[seat][k]: hex of the seat's k-th station, -1 while in front of the player. */
  stations: number[][];
  /** Goods still lying in each city (by place index; empty for non-cities). */
  cityGoods: Good[][];
  tokens: TokenHeld[][];
  passengers: number[];
  passengerSupply: number;
  supplementary: number;
  money: number[];
  ledger: Payment[];
  vote: Vote | null;
  finished: boolean;
  endReason: string;
  /** Final scoring lines, filled at the end. */
  finalScoring: string[];
  turns: number;
  /**
   * The rules version the game was set up under (RULES_VERSION when new). Version 1
   * games keep their old readings: a turn may be ended at any time, and track joined
   * to a line only through its start town stays the line's after it leaves.
   */
  version: number;
}

/** 2: a turn is two actions; a line is its locomotive's hex and the track joined to it now. */
export const RULES_VERSION = 2;

export function setupState(seats: number, seed: string, version = RULES_VERSION): SRState {
  return {
    seats,
    random: seedRandom(seed),
    turn: 0,
    actionsLeft: ACTIONS_PER_TURN,
    extended: [],
    lines: board.lines.map((l) => ({
      loco: board.places[l.start]!.hex,
      facing: -1,
      atStart: true,
      absorbedInto: -1,
      isolated: false,
      connected: [l.start],
      supply: SHARES_PER_LINE,
      held: Array(seats).fill(0),
      exhausted: false,
      retired: 0,
      supplementary: 0,
    })),
    tiles: [],
    stations: Array.from({ length: seats }, () => Array(STATIONS_PER_PLAYER).fill(-1)),
    cityGoods: board.places.map((p) => [...p.goods]),
    tokens: Array.from({ length: seats }, () => []),
    passengers: Array(seats).fill(0),
    passengerSupply: PASSENGERS,
    supplementary: SUPPLEMENTARY_SHARES,
    money: Array(seats).fill(0),
    ledger: [],
    vote: null,
    finished: false,
    endReason: '',
    finalScoring: [],
    turns: 0,
    version,
  };
}

/** A tile's line once its track is joined to no locomotive: it blocks the way but belongs to no line. */
export const LOOSE = -2;

/** A grid of what stands on each hex, rebuilt from the state when needed. */
export interface Occupancy {
  /** Line index of the track tile on each hex, LOOSE for track of no line, -1 for none. */
  track: Int8Array;
  /** Line index of the locomotive on each hex, or -1. */
  loco: Int8Array;
  /** Seat owning the station on each hex, or -1. */
  station: Int8Array;
}

export function occupancy(s: SRState): Occupancy {
  const n = board.hexIds.length;
  const all = new Int8Array(3 * n).fill(-1);
  const track = all.subarray(0, n);
  const loco = all.subarray(n, 2 * n);
  const station = all.subarray(2 * n);
  const tiles = s.tiles;
  for (let i = 0; i < tiles.length; i++) track[tiles[i]!.hex] = tiles[i]!.line;
  for (let i = 0; i < s.lines.length; i++) {
    const l = s.lines[i]!;
    if (l.absorbedInto < 0) loco[l.loco] = i;
  }
  for (let seat = 0; seat < s.stations.length; seat++) {
    const hexes = s.stations[seat]!;
    for (let k = 0; k < hexes.length; k++) if (hexes[k]! >= 0) station[hexes[k]!] = seat;
  }
  return { track, loco, station };
}

/** Whether hex h holds a track tile, of a line or loose. */
export function hasTrack(occ: Occupancy, h: number): boolean {
  return occ.track[h] !== -1;
}

/** The line's hexes: its track tiles and its locomotive's hex (not the start town it left). */
export function lineHexes(s: SRState, line: number): number[] {
  const out = s.tiles.filter((t) => t.line === line).map((t) => t.hex);
  const l = s.lines[line]!;
  if (l.absorbedInto < 0 && !l.atStart) out.push(l.loco);
  return out;
}

/** Shares a line still offers for extensions (0 once exhausted, isolated or absorbed). */
export function sharesOnOffer(s: SRState, line: number): number {
  const l = s.lines[line]!;
  return l.absorbedInto >= 0 || l.isolated || l.exhausted ? 0 : l.supply;
}
