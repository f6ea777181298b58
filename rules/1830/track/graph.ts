// What a corporation's network reaches: the hex edges where it may build on
// (track laid must touch one of them) and the cities where it may place a
// station. Walks the track from its stations; cities full of other companies'
// tokens and off-boards stop the walk (they are reached but not passed).
import { cityBlocks, trackAt, faceAt } from './board';
import { HEXES, HEX_IDS, NODE, invert } from './data';
import type { Board } from './types';

export interface Reach {
  /** edges[hex]: bit mask of the hex edges the network touches (bit e for edge e). */
  edges: Record<string, number>;
  /** Node ids ("HEX-i") the network reaches. */
  nodes: Set<string>;
}

const INDEX = new Map<string, number>(HEX_IDS.map((h, i) => [h, i]));
/** NEIGHBOR[i * 6 + e]: index of the hex across edge e of hex i, -1 for none. */
const NEIGHBOR = new Int32Array(HEX_IDS.length * 6).fill(-1);
HEX_IDS.forEach((id, i) => {
  HEXES[id].neighbors.forEach((n, e) => {
    if (n) NEIGHBOR[i * 6 + e] = INDEX.get(n)!;
  });
});
const MAX_NODES = 4;

export function reachOf(board: Board, corp: string): Reach {
  const count = HEX_IDS.length;
  const edgeMask = new Int32Array(count);
  const nodeSeen = new Uint8Array(count * MAX_NODES); // 1 reached, 2 walked from
  const entrySeen = new Uint8Array(count * 6);
  const stack: number[] = []; // encoded work: node n of hex i -> -(i*MAX_NODES+n)-1; entry at edge e of hex i -> i*6+e

  for (const hex of Object.keys(board.tokens)) {
    const cities = board.tokens[hex];
    const i = INDEX.get(hex);
    if (i === undefined) continue;
    for (let c = 0; c < cities.length; c++) {
      if (!cities[c].includes(corp)) continue;
      for (let e = 0; e < 6; e++) if (NEIGHBOR[i * 6 + e] >= 0) edgeMask[i] |= 1 << e;
      const k = i * MAX_NODES + c;
      if (nodeSeen[k] !== 2) {
        nodeSeen[k] = 2;
        stack.push(-k - 1);
      }
    }
  }

  while (stack.length) {
    const item = stack.pop()!;
    let i: number;
    let from: number;
    if (item < 0) {
      const k = -item - 1;
      i = (k / MAX_NODES) | 0;
      from = NODE + (k % MAX_NODES);
    } else {
      i = (item / 6) | 0;
      from = item % 6;
    }
    const hex = HEX_IDS[i];
    const track = trackAt(board, hex);
    for (let p = 0; p < track.length; p++) {
      const a = track[p][0];
      const b = track[p][1];
      if (a !== from && b !== from) continue;
      const other = a === from ? b : a;
      if (other < 6) {
        edgeMask[i] |= 1 << other;
        const n = NEIGHBOR[i * 6 + other];
        if (n < 0) continue;
        const back = invert(other);
        edgeMask[n] |= 1 << back;
        const key = n * 6 + back;
        if (!entrySeen[key]) {
          entrySeen[key] = 1;
          stack.push(key);
        }
      } else {
        const idx = other - NODE;
        const k = i * MAX_NODES + idx;
        if (nodeSeen[k] === 2) continue;
        nodeSeen[k] = 1;
        const node = faceAt(board, hex).tile.nodes[idx];
        if (node.kind === 'offboard') continue;
        if (node.kind === 'city' && cityBlocks(board, hex, idx, corp)) continue;
        nodeSeen[k] = 2;
        stack.push(-k - 1);
      }
    }
  }

  const edges: Record<string, number> = {};
  for (let i = 0; i < count; i++) if (edgeMask[i]) edges[HEX_IDS[i]] = edgeMask[i];
  const nodes = new Set<string>();
  for (let k = 0; k < nodeSeen.length; k++) {
    if (nodeSeen[k]) nodes.add(`${HEX_IDS[(k / MAX_NODES) | 0]}-${k % MAX_NODES}`);
  }
  return { edges, nodes };
}
