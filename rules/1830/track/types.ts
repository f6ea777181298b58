// Plain-JSON types of the 1830 map module (see ./index.ts for the API).
import { z } from 'zod';
import type { Reach } from './graph.ts';

export type PhaseName = '2' | '3' | '4' | '5' | '6' | 'D';
export type TileColor = 'white' | 'yellow' | 'green' | 'brown' | 'gray' | 'red';

/** A tile laid on a hex; hexes absent from Board.tiles show their preprinted tile. */
export interface LaidTile {
  /** Tile number, "57". */
  tile: string;
  /** Which physical copy (18xx.games "57-1" is copy 1). */
  copy: number;
  /** 0..5, 18xx.games numbering: tile edge e ends up on hex edge (e + rotation) % 6. */
  rotation: number;
}

/** A station token whose city must be chosen again (a multi-city tile laid on a hex that held a token). */
export interface PendingToken {
  corp: string;
  hex: string;
}

export interface Board {
  tiles: Record<string, LaidTile>;
  /** tokens[hex][cityIndex]: corporations with a station in that city, in slot order. */
  tokens: Record<string, string[][]>;
  /** Home reservations still open (removed when the home token is placed): corp -> hex and city (null: the corporation picks, Erie). */
  homes: Record<string, { hex: string; city: number | null }>;
  /** Tokens lifted by a tile lay that must be put back into a city of their hex (18xx.games behaviour). */
  pending: PendingToken[];
  /**
   * The track rules' version: 3 for games of 1830 rules version 3 on, where the network walk never
   * leaves a town or city by the edge it reached it by, and an upgrade of a two-city tile keeps the
   * two cities apart (both as on 18xx.games); 4 from rules version 4 on, where the network is walked
   * as chains that use each piece of track and each hex side once (track/chains.ts). Absent on older
   * boards, which keep the older readings.
   */
  version?: 3 | 4;
}

export interface TileLay {
  hex: string;
  tile: string;
  rotation: number;
  /** The copy of the tile (from 18xx.games "57-1"); the lowest free copy when omitted. */
  copy?: number;
}

export const tileLaySchema = z.object({
  hex: z.string().regex(/^[A-Z][0-9]{1,2}$/),
  tile: z.string().regex(/^[0-9]{1,3}$/),
  rotation: z.number().int().min(0).max(5),
  copy: z.number().int().min(0).optional(),
});

export interface LayContext {
  /** The corporation laying (it pays the terrain cost). */
  corp: string;
  phase: PhaseName;
  /** The corporation already used its one tile action (lay or upgrade) this operating turn. */
  layUsed: boolean;
  /** Privates still owned by players: their hexes are blocked (SV G15, CS B20, DH F16, MH D18, CA H18, BO I13/I15). */
  playerPrivates: string[];
  /** A private owned by the corporation whose ability is used for this lay. */
  via?: 'CS' | 'DH';
  /** The corporation's cash, when given the terrain cost must be affordable. */
  cash?: number;
  /** A home lay marked anyPhase (Erie's #59) may be green before green tiles are available (the seed's reading). */
  homeGreenEarly?: boolean;
  /** reachOf(board, corp) for this very board, when the caller already has it (saves the walk). */
  reach?: Reach;
}

export interface LayResult {
  /** Terrain cost the corporation pays. */
  cost: number;
  /** The hex already had a coloured tile (green/brown upgrade or yellow on a preprinted yellow hex). */
  upgrade: boolean;
  /** Whether this lay uses up the corporation's one tile action of the turn (false for the C&SL free lay). */
  consumesLay: boolean;
  /** The tile number that was there before (null: the preprinted hex). */
  oldTile: string | null;
}

export interface TokenPlace {
  hex: string;
  /** City index on the tile (0 for single-city hexes). */
  city: number;
}

export const tokenPlaceSchema = z.object({
  hex: z.string().regex(/^[A-Z][0-9]{1,2}$/),
  city: z.number().int().min(0).max(3),
});

export interface TokenContext {
  corp: string;
  /** Charter tokens the corporation still has (not counting the free D&H token). */
  tokensLeft: number;
  /** The D&H ability: a token in F16 without connection, right after its tile lay. */
  via?: 'DH';
  /** reachOf(board, corp) for this very board, when the caller already has it (saves the walk). */
  reach?: Reach;
}

export interface RouteInput {
  train: string;
  /** Hex chains from one stop to the next (as 18xx.games records them); consecutive chains share a stop. */
  connections: string[][];
  /** Optional stop ids "HEX-i" (i = node index on the tile) to pin which city of a multi-city hex is meant. */
  nodes?: string[];
}

export const routeInputSchema = z.object({
  train: z.string().min(1),
  connections: z.array(z.array(z.string().regex(/^[A-Z][0-9]{1,2}$/)).min(2)).min(1),
  nodes: z.array(z.string()).optional(),
});

export interface TrainInput {
  id: string;
  /** Stops the train may count; D trains: 999. */
  distance: number;
}

export interface RouteResult {
  train: string;
  revenue: number;
  /** Stops in order, "HEX-i". */
  stops: string[];
  /** Hexes of the stops in order (as 18xx.games shows them: "G19-E19-D14"). */
  hexes: string[];
}

export interface RunResult {
  revenue: number;
  routes: RouteResult[];
}

export interface Suggestion {
  revenue: number;
  routes: RouteInput[];
  details: RouteResult[];
}
