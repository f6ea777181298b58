// The 1830 map as SVG: hexes in their colours, the track of every tile,
// cities with their slots and station tokens, towns, off-board values by phase,
// terrain costs on unbuilt hexes, labels (OO, NY, B) and hex coordinates.
// Plain shapes and generic sans-serif text only, so it turns into a PNG cleanly.
import { faceAt, trackAt, cityTokens } from './board';
import { DIRECTIONS, HEXES, HEX_IDS, NODE, nodeRevenue } from './data';
import type { Board, PhaseName } from './types';

export interface MapSvgOptions {
  phase?: PhaseName;
  /** Corporation colours (fill and text); 1830's own colours by default. */
  colors?: Record<string, { fill: string; text: string }>;
  /** A whole SVG document (default) or a <g> fragment to embed. */
  standalone?: boolean;
  /** Width of the picture in pixels (default 960). */
  width?: number;
}

const CORP_COLORS: Record<string, { fill: string; text: string }> = {
  PRR: { fill: '#32763f', text: '#fff' },
  NYC: { fill: '#474548', text: '#fff' },
  CPR: { fill: '#d1232a', text: '#fff' },
  'B&O': { fill: '#025aaa', text: '#fff' },
  'C&O': { fill: '#add8e6', text: '#000' },
  ERIE: { fill: '#fff500', text: '#000' },
  NYNH: { fill: '#d88e39', text: '#000' },
  'B&M': { fill: '#95c054', text: '#000' },
};

const FILL: Record<string, string> = {
  white: '#f3efdc',
  yellow: '#f7e34b',
  green: '#7cc16a',
  brown: '#c98a52',
  gray: '#bdbdbd',
  red: '#d9534f',
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const f = (n: number) => Number(n.toFixed(1));

export function mapSvg(board: Board, opts: MapSvgOptions = {}): string {
  const phase = opts.phase ?? '2';
  const colors = { ...CORP_COLORS, ...(opts.colors ?? {}) };
  const hexes = HEX_IDS.map((id) => HEXES[id]);
  const maxX = Math.max(...hexes.map((h) => h.x));
  const maxY = Math.max(...hexes.map((h) => h.y));
  const width = opts.width ?? 960;
  // pointy hexes: horizontal neighbour distance w = sqrt(3) * s, x is doubled
  const margin = 8;
  const s = (width - 2 * margin) / (Math.sqrt(3) * (maxX / 2 + 1));
  const w = Math.sqrt(3) * s;
  const height = Math.ceil(2 * margin + s * (1.5 * maxY + 2));
  const cx = (x: number) => margin + w / 2 + (x * w) / 2;
  const cy = (y: number) => margin + s + y * 1.5 * s;
  const out: string[] = [];

  for (const h of hexes) {
    const x0 = cx(h.x);
    const y0 = cy(h.y);
    const { tile, rotation } = faceAt(board, h.id);
    const laid = board.tiles[h.id];
    const corners = [0, 1, 2, 3, 4, 5].map((i) => {
      const a = (Math.PI / 180) * (60 * i - 90);
      return `${f(x0 + s * Math.cos(a))},${f(y0 + s * Math.sin(a))}`;
    });
    out.push(`<polygon points="${corners.join(' ')}" fill="${FILL[tile.color]}" stroke="#666" stroke-width="1"/>`);
    const edgeMid = (e: number) => {
      const [dx, dy] = DIRECTIONS[e];
      return [x0 + (dx * w) / 4, y0 + (dy * 1.5 * s) / 2];
    };
    const track = trackAt(board, h.id);
    // where each stop sits: the middle for a lone stop, else pulled toward its edges
    const nodeCount = tile.nodes.length;
    const pos: [number, number][] = tile.nodes.map((_, i) => {
      if (nodeCount === 1) return [x0, y0];
      const edges = track.flatMap(([a, b]) => (a === NODE + i && b < 6 ? [b] : b === NODE + i && a < 6 ? [a] : []));
      if (edges.length === 0) return [x0 + (i === 0 ? -0.38 : 0.38) * s, y0];
      const mids = edges.map(edgeMid);
      const mx = mids.reduce((t, m) => t + m[0], 0) / mids.length;
      const my = mids.reduce((t, m) => t + m[1], 0) / mids.length;
      return [x0 + (mx - x0) * 0.55, y0 + (my - y0) * 0.55];
    });
    // track
    for (const [a, b] of track) {
      let d: string;
      if (a < 6 && b < 6) {
        const [ax, ay] = edgeMid(a);
        const [bx, by] = edgeMid(b);
        d = `M${f(ax)},${f(ay)} Q${f(x0)},${f(y0)} ${f(bx)},${f(by)}`;
      } else {
        const e = a < 6 ? a : b;
        const n = (a < 6 ? b : a) - NODE;
        if (e >= 6) continue;
        const [ax, ay] = edgeMid(e);
        d = `M${f(ax)},${f(ay)} L${f(pos[n][0])},${f(pos[n][1])}`;
      }
      out.push(`<path d="${d}" fill="none" stroke="#222" stroke-width="${f(s * 0.16)}" stroke-linecap="butt"/>`);
    }
    // stops
    const toks = tile.cityCount ? cityTokens(board, h.id) : [];
    tile.nodes.forEach((node, i) => {
      const [px, py] = pos[i];
      if (node.kind === 'town') {
        out.push(`<circle cx="${f(px)}" cy="${f(py)}" r="${f(s * 0.1)}" fill="#111"/>`);
        if (node.revenue) out.push(`<text x="${f(px + s * 0.18)}" y="${f(py - s * 0.12)}" font-size="${f(s * 0.22)}" font-family="sans-serif">${node.revenue}</text>`);
      } else if (node.kind === 'city') {
        const r = s * 0.23;
        const slots = node.slots;
        const reserved = Object.entries(board.homes).filter(([, hr]) => hr.hex === h.id && (hr.city === i || (hr.city === null && i === 0)));
        for (let k = 0; k < slots; k++) {
          const sx = px + (k - (slots - 1) / 2) * 2 * r;
          out.push(`<circle cx="${f(sx)}" cy="${f(py)}" r="${f(r)}" fill="#fff" stroke="#222" stroke-width="1.5"/>`);
          const corp = toks[i]?.[k];
          const home = !corp && k - (toks[i]?.length ?? 0) < reserved.length ? reserved[k - (toks[i]?.length ?? 0)]?.[0] : undefined;
          const who = corp ?? home;
          if (who) {
            const c = colors[who] ?? { fill: '#888', text: '#fff' };
            out.push(
              `<circle cx="${f(sx)}" cy="${f(py)}" r="${f(r * 0.88)}" fill="${corp ? c.fill : '#fff'}" stroke="${c.fill}" stroke-width="${corp ? 0 : 1.5}"/>` +
                `<text x="${f(sx)}" y="${f(py + r * 0.3)}" font-size="${f(r * (who.length > 3 ? 0.62 : 0.8))}" text-anchor="middle" font-family="sans-serif" font-weight="bold" fill="${corp ? c.text : c.fill}">${esc(who)}</text>`,
            );
          }
        }
        if (node.revenue) {
          out.push(`<text x="${f(px)}" y="${f(py - r - 3)}" font-size="${f(s * 0.22)}" text-anchor="middle" font-family="sans-serif">${node.revenue}</text>`);
        }
      } else {
        const txt = h.hiddenRevenue ? '' : `${node.revenue}/${node.brown}`;
        const now = nodeRevenue(node, phase);
        if (txt) {
          out.push(
            `<rect x="${f(x0 - s * 0.5)}" y="${f(y0 - s * 0.2)}" width="${f(s)}" height="${f(s * 0.38)}" fill="#fff" stroke="#222"/>` +
              `<text x="${f(x0)}" y="${f(y0 + s * 0.09)}" font-size="${f(s * 0.24)}" text-anchor="middle" font-family="sans-serif"><tspan font-weight="${now === node.revenue ? 'bold' : 'normal'}">${node.revenue}</tspan>/<tspan font-weight="${now === node.revenue ? 'normal' : 'bold'}">${node.brown}</tspan></text>`,
          );
        }
      }
    });
    // label, terrain, name, coordinate, tile number
    if (tile.label) out.push(`<text x="${f(x0 - s * 0.55)}" y="${f(y0 + s * 0.1)}" font-size="${f(s * 0.26)}" font-family="sans-serif" font-weight="bold">${esc(tile.label)}</text>`);
    if (!laid && h.cost) {
      const mark = h.terrain === 'river' ? '≈' : '▲';
      out.push(`<text x="${f(x0)}" y="${f(y0 + s * 0.62)}" font-size="${f(s * 0.22)}" text-anchor="middle" font-family="sans-serif" fill="${h.terrain === 'river' ? '#1f5fbf' : '#6b4a2b'}">${mark}$${h.cost}</text>`);
    }
    if (h.name && (tile.color === 'white' || tile.color === 'red' || tile.color === 'gray' || !laid)) {
      out.push(`<text x="${f(x0)}" y="${f(y0 + s * 0.82)}" font-size="${f(s * 0.15)}" text-anchor="middle" font-family="sans-serif" fill="#333">${esc(h.name)}</text>`);
    }
    out.push(`<text x="${f(x0)}" y="${f(y0 - s * 0.68)}" font-size="${f(s * 0.16)}" text-anchor="middle" font-family="sans-serif" fill="#555">${h.id}</text>`);
    if (laid) out.push(`<text x="${f(x0 + s * 0.45)}" y="${f(y0 + s * 0.55)}" font-size="${f(s * 0.16)}" font-family="sans-serif" fill="#333">#${laid.tile}</text>`);
    void rotation;
  }
  const body = `<g class="map-1830">${out.join('')}</g>`;
  if (opts.standalone === false) return body;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#fff"/>${body}</svg>`;
}
