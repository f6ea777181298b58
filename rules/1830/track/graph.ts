// What a corporation's network reaches: the hex edges where it may build on
// (track laid must touch one of them) and the cities where it may place a
// station. Walks the track from its stations; cities full of other companies'
// tokens and off-boards stop the walk (they are reached but not passed).
import { faceAt, cityBlocks, trackAt, nodeId } from './board';
import { HEXES, NODE, invert } from './data';
import type { Board } from './types';

export interface Reach {
  /** edges[hex]: bit mask of the hex edges the network touches (bit e for edge e). */
  edges: Record<string, number>;
  /** Node ids ("HEX-i") the network reaches. */
  nodes: Set<string>;
}

export function reachOf(board: Board, corp: string): Reach {
  const edges: Record<string, number> = {};
  const nodes = new Set<string>();
  const mark = (hex: string, e: number) => {
    edges[hex] = (edges[hex] ?? 0) | (1 << e);
  };
  // work items: a node to walk out of, or an edge of a hex entered from a neighbour
  const seenNode = new Set<string>();
  const seenEntry = new Set<string>();
  const nodeQueue: { hex: string; index: number }[] = [];
  const entryQueue: { hex: string; edge: number }[] = [];

  for (const [hex, cities] of Object.entries(board.tokens)) {
    cities.forEach((c, i) => {
      if (!c.includes(corp)) return;
      const h = HEXES[hex];
      h.neighbors.forEach((n, e) => n && mark(hex, e));
      const id = nodeId(hex, i);
      nodes.add(id);
      if (!seenNode.has(id)) {
        seenNode.add(id);
        nodeQueue.push({ hex, index: i });
      }
    });
  }

  const leaveBy = (hex: string, e: number) => {
    mark(hex, e);
    const n = HEXES[hex].neighbors[e];
    if (!n) return;
    const back = invert(e);
    mark(n, back);
    const key = `${n}/${back}`;
    if (!seenEntry.has(key)) {
      seenEntry.add(key);
      entryQueue.push({ hex: n, edge: back });
    }
  };
  const reachNode = (hex: string, index: number) => {
    const id = nodeId(hex, index);
    nodes.add(id);
    if (seenNode.has(id)) return;
    const node = faceAt(board, hex).tile.nodes[index];
    if (node.kind === 'offboard') return;
    if (node.kind === 'city' && cityBlocks(board, hex, index, corp)) return;
    seenNode.add(id);
    nodeQueue.push({ hex, index });
  };

  while (nodeQueue.length || entryQueue.length) {
    const nd = nodeQueue.pop();
    if (nd) {
      const end = NODE + nd.index;
      for (const [a, b] of trackAt(board, nd.hex)) {
        if (a !== end && b !== end) continue;
        const other = a === end ? b : a;
        if (other < 6) leaveBy(nd.hex, other);
        else reachNode(nd.hex, other - NODE);
      }
      continue;
    }
    const en = entryQueue.pop()!;
    for (const [a, b] of trackAt(board, en.hex)) {
      if (a !== en.edge && b !== en.edge) continue;
      const other = a === en.edge ? b : a;
      if (other < 6) leaveBy(en.hex, other);
      else reachNode(en.hex, other - NODE);
    }
  }
  return { edges, nodes };
}
