// The track network as trains see it: the stops (cities, towns, off-boards) and
// the stretches of track between two stops ("chains"), each with the hex
// sides it crosses. Two routes may not share a hex side (that is, a piece of
// track), and a route may not come back to a stop.
import { cityBlocks, faceAt, trackAt, nodeId } from './board.ts';
import { HEX_IDS, NODE, hexDef, invert, nodeRevenue } from './data.ts';
import type { Board, PhaseName } from './types.ts';
import { item } from '../../item.ts';

/** Border ids: one per pair of adjacent hex sides that track can cross. */
export const BORDER: Record<string, number[]> = {};
export let BORDER_COUNT = 0;
for (const id of HEX_IDS) BORDER[id] = [-1, -1, -1, -1, -1, -1];
/** The border ids of the six edges of a hex of the map. */
function bordersOf(hex: string): number[] {
  const b = BORDER[hex];
  if (!b) throw new Error(`1830 map: there is no hex ${hex}`);
  return b;
}
/** The border id of an edge of a hex of the map. */
const borderAt = (hex: string, edge: number): number => item(bordersOf(hex), edge, `edges of ${hex}`);
for (const id of HEX_IDS) {
  const own = bordersOf(id);
  hexDef(id).neighbors.forEach((n, e) => {
    if (!n || borderAt(id, e) >= 0) return;
    own[e] = BORDER_COUNT;
    bordersOf(n)[invert(e)] = BORDER_COUNT;
    BORDER_COUNT++;
  });
}
/** BORDER_AT[i * 6 + e]: the border id of edge e of hex i (index in HEX_IDS), -1 where track cannot cross. */
export const BORDER_AT = new Int16Array(HEX_IDS.length * 6).fill(-1);
HEX_IDS.forEach((id, i) => {
  bordersOf(id).forEach((b, e) => {
    BORDER_AT[i * 6 + e] = b;
  });
});

export interface Stop {
  id: string;
  hex: string;
  index: number;
  kind: 'city' | 'town' | 'offboard';
  revenue: number;
  /** A train may run through it (not an off-board, not a city full of other companies' stations). */
  passable: boolean;
  /** The corporation has a station here. */
  token: boolean;
  group: string | null;
}

export interface Chain {
  from: number;
  to: number;
  borders: number[];
  /** Hexes crossed from the stop `from` to the stop `to`, both included (an 18xx.games connection). */
  hexes: string[];
}

export interface Network {
  stops: Stop[];
  index: Map<string, number>;
  /** chains[i]: the stretches of track leaving stop i. */
  chains: Chain[][];
}

/** Builds the network of every stop on the map for a corporation in a phase. */
export function buildNetwork(board: Board, corp: string, phase: PhaseName): Network {
  const stops: Stop[] = [];
  const index = new Map<string, number>();
  for (const hex of HEX_IDS) {
    const { tile } = faceAt(board, hex);
    const toks = board.tokens[hex] ?? [];
    tile.nodes.forEach((node, i) => {
      const id = nodeId(hex, i);
      index.set(id, stops.length);
      stops.push({
        id,
        hex,
        index: i,
        kind: node.kind,
        revenue: nodeRevenue(node, phase),
        passable: node.kind !== 'offboard' && !(node.kind === 'city' && cityBlocks(board, hex, i, corp)),
        token: node.kind === 'city' && (toks[i] ?? []).includes(corp),
        group: hexDef(hex).group,
      });
    });
  }
  const tracks = new Map<string, ReturnType<typeof trackAt>>();
  const track = (hex: string) => {
    let t = tracks.get(hex);
    if (!t) tracks.set(hex, (t = trackAt(board, hex)));
    return t;
  };
  const chains: Chain[][] = stops.map(() => []);
  stops.forEach((s, si) => {
    const end = NODE + s.index;
    for (const [a, b] of track(s.hex)) {
      if (a !== end && b !== end) continue;
      const e = a === end ? b : a;
      if (e >= NODE) continue;
      const borders: number[] = [];
      const hexes: string[] = [s.hex];
      const walk = (hex: string, edge: number) => {
        const n = hexDef(hex).neighbors[edge];
        const bid = borderAt(hex, edge);
        if (!n || borders.includes(bid)) return;
        borders.push(bid);
        hexes.push(n);
        const entry = invert(edge);
        for (const [p, q] of track(n)) {
          if (p !== entry && q !== entry) continue;
          const other = p === entry ? q : p;
          if (other >= NODE) {
            const to = index.get(nodeId(n, other - NODE));
            if (to === undefined)
              throw new Error(`1830 map: track of ${n} leads to a stop ${other - NODE} it does not have`);
            if (to !== si) item(chains, si).push({ from: si, to, borders: [...borders], hexes: [...hexes] });
          } else {
            walk(n, other);
          }
        }
        borders.pop();
        hexes.pop();
      };
      walk(s.hex, e);
    }
  });
  return { stops, index, chains };
}
