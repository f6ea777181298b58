// The game state (plain JSON) and read-only helpers about stations.
import type { RandomState } from '../random.ts';
import { BOARD, CARD_BY_ID, type Effect, type StationType } from './data.ts';
import { rectAt, type Rect } from './geometry.ts';

export type Phase = 'obstacles' | 'river' | 'play' | 'discard' | 'over';

export interface Station {
  id: string;
  /** card: a station card; start: a player's starting station; metro: a region of the Metropolis. */
  kind: 'card' | 'start' | 'metro';
  /** The card id for kind 'card'. */
  card?: string;
  /** The seat whose starting station this is (kind 'start'). */
  owner?: number;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Cubes on this station, by seat (unused for the Metropolis: see metroCubes). */
  cubes: number[];
  /** Border and start stations lie face down until setup is done. */
  faceDown?: boolean;
  /** Gigantopolis stations skip their "when built" effects. */
  noBuildEffect?: boolean;
}

export interface Link {
  owner: number;
  from: string;
  to: string;
  points: [number, number][];
  clips: number;
  score: number;
}

export interface PlacedObstacle {
  id: string;
  x: number;
  y: number;
  rot: number;
  by: number;
  shape: [number, number][];
}

export interface LastBuild {
  seat: number;
  from: string;
  to: string;
  clips: number;
  stationPoints: number;
  crossings: number;
  obstacles: number;
  /** 2 per obstacle, or 0 when a station bridges them. */
  obstaclePenalty: number;
  placementPenalty: number;
  effectPoints: number;
  paidCards: number;
  total: number;
}

export interface PCState {
  seats: number;
  advanced: boolean;
  promos: boolean;
  random: RandomState;
  startPlayer: number;
  phase: Phase;
  /** Whose turn (setup placements and play). */
  turn: number;
  /** Obstacle placements still to make, in order: [seat, how many]. */
  setupQueue: [number, number][];
  area: [number, number][];
  obstacles: PlacedObstacle[];
  obstacleSupply: string[];
  river: [number, number][] | null;
  stations: Station[];
  links: Link[];
  /** Top of the pile first. Holds END_OF_LINE until it is drawn. */
  deck: string[];
  discard: string[];
  /** The third of the stations removed face down at setup (and unused blanks). */
  box: string[];
  hands: string[][];
  endOfLineDrawn: boolean;
  clips: number[];
  cubes: number[];
  /** Seats with their one cube on the Metropolis. */
  metroCubes: boolean[];
  scores: number[];
  turns: number[];
  penalty: number;
  /** A seat down to only clips or only cubes: draws one more card and builds once more on its next turn. */
  lastOrders: number | null;
  /** During that seat's last turn: first it draws, then it builds (or passes). */
  finalStep: 'draw' | 'build' | 'done' | null;
  lastBuild: LastBuild | null;
  /** Final bonuses by seat, once over. */
  bonuses: { seat: number; what: string; points: number }[];
  endReason: string | null;
  /**
   * The rules version the game was set up under (RULES_VERSION when new). Version 1
   * games keep lengths measured in floats with a tolerance, and links between two
   * Metropolis areas.
   */
  version: number;
}

/** 2: exact clip counts; the Metropolis is one station for a link's two ends. */
export const RULES_VERSION = 2;

export interface StationInfo {
  name: string;
  type: StationType | 'start';
  points: number;
  /** Cube limit; Infinity for the Metropolis (one cube per player serves it all). */
  limit: number;
  minLength: Partial<Record<StationType, number>>;
  effect?: Effect;
}

const REGION_BY_ID = Object.fromEntries(BOARD.metropolis.regions.map((r) => [r.id, r]));

export function stationInfo(st: Station): StationInfo {
  if (st.kind === 'card') {
    const c = CARD_BY_ID[st.card!]!;
    return { name: c.name, type: c.type, points: c.points, limit: c.cubes, minLength: c.minLength, effect: c.effect };
  }
  if (st.kind === 'start') {
    const colour = BOARD.start.colours[st.owner!]!.name;
    return {
      name: `${colour[0]!.toUpperCase()}${colour.slice(1)} start`,
      type: 'start',
      points: BOARD.start.points,
      limit: BOARD.start.cubes,
      minLength: BOARD.start.minLength,
    };
  }
  const r = REGION_BY_ID[st.id]!;
  return { name: r.name, type: r.type, points: r.points, limit: Infinity, minLength: r.minLength };
}

/**
 * The type a link arrives at. Starting stations have no colour of their own:
 * a link may reach one from any station, at the shortest length that station
 * lists for the four station types (its length to a blank Request Stop is no
 * length to a station type).
 */
export function minLengthTo(origin: StationInfo, dest: StationInfo): number | null {
  if (dest.type === 'start') {
    const vals = Object.entries(origin.minLength)
      .filter(([t]) => t !== 'blank')
      .map(([, v]) => v);
    return vals.length ? Math.min(...vals) : null;
  }
  if (dest.type === 'blank') return origin.minLength.blank ?? 1;
  return origin.minLength[dest.type] ?? null;
}

export function stationRect(st: Pick<Station, 'x' | 'y' | 'w' | 'h'>): Rect {
  return rectAt(st.x, st.y, st.w, st.h);
}

export function cubesOn(s: PCState, st: Station): number {
  if (st.kind === 'metro') return s.metroCubes.filter(Boolean).length;
  return st.cubes.reduce((a, b) => a + b, 0);
}

export function hasCube(s: PCState, st: Station, seat: number): boolean {
  return st.kind === 'metro' ? s.metroCubes[seat]! : st.cubes[seat]! > 0;
}

export function isFull(s: PCState, st: Station): boolean {
  return cubesOn(s, st) >= stationInfo(st).limit;
}

export function findStation(s: PCState, id: string): Station | undefined {
  return s.stations.find((st) => st.id === id);
}

export function colourName(seat: number): string {
  return BOARD.start.colours[seat]!.name;
}

export function startStationId(seat: number): string {
  return `S${seat + 1}`;
}
