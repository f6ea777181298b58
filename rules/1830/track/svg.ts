// The 1830 map as SVG: hexes in their colours, the track of every tile,
// cities with their slots and station tokens (home slots kept for a
// corporation show its name in outline), towns, off-board values by phase,
// terrain costs on unbuilt hexes, labels (OO, NY, B), hex coordinates, and
// optionally routes drawn over the map. Plain shapes and generic sans-serif
// text only, so it turns into a PNG cleanly. Every hex is a <g data-hex="F20">
// so a page script may make hexes clickable.
import { faceAt, trackAt, cityTokens } from './board.ts';
import {
  DIRECTIONS,
  HEXES,
  HEX_IDS,
  NODE,
  TILES,
  hexDef,
  nodeRevenue,
  rotatedTrack,
  type End,
  type HexDef,
  type TileDef,
} from './data.ts';
import type { Board, PhaseName } from './types.ts';
import { item } from '../../item.ts';
import { escapeMarkup as esc } from '../../escape.ts';

export interface MapSvgOptions {
  phase?: PhaseName;
  /** Corporation colours (fill and text); 1830's own colours by default. */
  colors?: Record<string, { fill: string; text: string }>;
  /** A whole SVG document (default) or a <g> fragment to embed. */
  standalone?: boolean;
  /** Width of the picture in pixels (default 960). */
  width?: number;
  /** Routes to draw over the map (hex chains, as in RouteInput). */
  routes?: { train: string; connections: string[][] }[];
  /** Hexes to outline (e.g. where a tile may go). */
  highlight?: string[];
  /** Write each hex's coordinate inside its hex group (default); false leaves them to hexIdLabels. */
  hexIds?: boolean;
  /** mapLayers: how far down the document the map begins; its live groups are moved there themselves. */
  top?: number;
  /** mapLayers: how far right the map begins (negative: a part of a wide map, shifted into view). */
  left?: number;
  /** mapLayers: only these hexes (a part of the map). */
  only?: (h: HexDef) => boolean;
  /** mapLayers: no word smaller than this (a mail's picture), city names shortened, coordinates at the edges. */
  minText?: number;
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

const ROUTE_COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4'];

const FILL: Record<string, string> = {
  white: '#f3efdc',
  yellow: '#f7e34b',
  green: '#7cc16a',
  brown: '#c98a52',
  gray: '#bdbdbd',
  red: '#d9534f',
};

const f = (n: number) => Number(n.toFixed(1));
/** The smallest word drawn (mapLayers sets it for a mail's picture while it draws; 0 otherwise). */
let minText = 0;
const text = (x: number, y: number, size: number, body: string, extra = '') =>
  `<text x="${f(x)}" y="${f(y)}" font-size="${f(Math.max(size, minText))}" font-family="sans-serif"${extra}>${body}</text>`;

/** A mail's city name: the first of two cities ("New York"), the first word of a long one ("Maritime"). */
function shortName(name: string): string {
  const first = name.split(' & ')[0]!;
  return first.length > 13 ? first.split(' ')[0]! : first;
}

interface FaceDraw {
  tile: TileDef;
  track: [End, End][];
  /** Tokens per city, and home reservations per city (shown in outline). */
  tokens: string[][];
  reserved: string[][];
  phase: PhaseName;
  hiddenRevenue: boolean;
  colors: Record<string, { fill: string; text: string }>;
}

/**
 * Draws a tile face (hex, track, stops) centred at (x0, y0) with corner radius s.
 * Station tokens and home reservations go to `tokenOut` when given (so a
 * printed face can be drawn once and its tokens per picture), else with the face.
 */
function drawFace(d: FaceDraw, x0: number, y0: number, s: number, tokenOut?: string[]): string[] {
  const out: string[] = [];
  const toks_ = tokenOut ?? out;
  const w = Math.sqrt(3) * s;
  const corners = [0, 1, 2, 3, 4, 5].map((i) => {
    const a = (Math.PI / 180) * (60 * i - 90);
    return `${f(x0 + s * Math.cos(a))},${f(y0 + s * Math.sin(a))}`;
  });
  out.push(`<polygon points="${corners.join(' ')}" fill="${FILL[d.tile.color]}" stroke="#666" stroke-width="1"/>`);
  const edgeMid = (e: number): [number, number] => {
    const [dx, dy] = item(DIRECTIONS, e, 'hex edges');
    return [x0 + (dx * w) / 4, y0 + (dy * 1.5 * s) / 2];
  };
  const { tile, track } = d;
  // where each stop sits: the middle for a lone stop, else pulled toward its edges
  const pos: [number, number][] = tile.nodes.map((_, i) => {
    if (tile.nodes.length === 1) return [x0, y0];
    const edges = track.flatMap(([a, b]) => (a === NODE + i && b < 6 ? [b] : b === NODE + i && a < 6 ? [a] : []));
    if (edges.length === 0) return [x0 + (i === 0 ? -0.38 : 0.38) * s, y0];
    const mids = edges.map(edgeMid);
    const mx = mids.reduce((t, m) => t + m[0], 0) / mids.length;
    const my = mids.reduce((t, m) => t + m[1], 0) / mids.length;
    return [x0 + (mx - x0) * 0.55, y0 + (my - y0) * 0.55];
  });
  for (const [a, b] of track) {
    let path: string;
    if (a < 6 && b < 6) {
      const [ax, ay] = edgeMid(a);
      const [bx, by] = edgeMid(b);
      const turn = Math.min((a - b + 6) % 6, (b - a + 6) % 6);
      if (turn === 3) {
        path = `M${f(ax)},${f(ay)} L${f(bx)},${f(by)}`;
      } else {
        // sharp curves turn round the corner between the edges, gentle ones round a point outside the hex
        const r = turn === 1 ? s / 2 : s * 1.5;
        const cross = (bx - ax) * (y0 - ay) - (by - ay) * (x0 - ax);
        path = `M${f(ax)},${f(ay)} A${f(r)},${f(r)} 0 0 ${cross < 0 ? 1 : 0} ${f(bx)},${f(by)}`;
      }
    } else {
      const e = a < 6 ? a : b;
      const n = (a < 6 ? b : a) - NODE;
      if (e >= 6) continue;
      const [ax, ay] = edgeMid(e);
      const [nx, ny] = item(pos, n, `stops of tile #${tile.id}`);
      path = `M${f(ax)},${f(ay)} L${f(nx)},${f(ny)}`;
    }
    out.push(`<path d="${path}" fill="none" stroke="#222" stroke-width="${f(s * 0.16)}"/>`);
  }
  tile.nodes.forEach((node, i) => {
    const [px, py] = item(pos, i);
    if (node.kind === 'town') {
      out.push(`<circle cx="${f(px)}" cy="${f(py)}" r="${f(s * 0.1)}" fill="#111"/>`);
      if (node.revenue) out.push(text(px + s * 0.14, py - s * 0.12 - (i % 2) * s * 0.1, s * 0.2, String(node.revenue)));
    } else if (node.kind === 'city') {
      const r = s * 0.23;
      const toks = d.tokens[i] ?? [];
      const held = d.reserved[i] ?? [];
      for (let k = 0; k < node.slots; k++) {
        const sx = px + (k - (node.slots - 1) / 2) * 2 * r;
        out.push(`<circle cx="${f(sx)}" cy="${f(py)}" r="${f(r)}" fill="#fff" stroke="#222" stroke-width="1.5"/>`);
        const corp = toks[k];
        const who = corp ?? held[k - toks.length];
        if (!who) continue;
        const c = d.colors[who] ?? { fill: '#888', text: '#fff' };
        toks_.push(
          `<circle cx="${f(sx)}" cy="${f(py)}" r="${f(r * 0.88)}" fill="${corp ? c.fill : '#fff'}" stroke="${c.fill}" stroke-width="${corp ? 0 : 1.5}"/>` +
            text(
              sx,
              py + r * 0.3,
              r * (who.length > 3 ? 0.62 : 0.8),
              esc(who),
              ` text-anchor="middle" font-weight="bold" fill="${corp ? c.text : c.fill}"`,
            ),
        );
      }
      if (node.revenue) out.push(text(px, py - r - 3, s * 0.22, String(node.revenue), ' text-anchor="middle"'));
    } else if (!d.hiddenRevenue) {
      const yellow = nodeRevenue(node, d.phase) === node.revenue;
      out.push(
        `<rect x="${f(x0 - s * 0.5)}" y="${f(y0 - s * 0.2)}" width="${f(s)}" height="${f(s * 0.38)}" fill="#fff" stroke="#222"/>` +
          text(
            x0,
            y0 + s * 0.09,
            s * 0.24,
            `<tspan font-weight="${yellow ? 'bold' : 'normal'}">${node.revenue}</tspan>/<tspan font-weight="${yellow ? 'normal' : 'bold'}">${node.brown}</tspan>`,
            ' text-anchor="middle"',
          ),
      );
    }
  });
  if (tile.label) out.push(text(x0 - s * 0.55, y0 + s * 0.1, s * 0.26, esc(tile.label), ' font-weight="bold"'));
  return out;
}

function hexCenter(h: HexDef, s: number, margin: number): [number, number] {
  const w = Math.sqrt(3) * s;
  return [margin + w / 2 + (h.x * w) / 2, margin + s + h.y * 1.5 * s];
}

function hexIdLabel(h: HexDef, s: number, margin: number): string {
  const [x0, y0] = hexCenter(h, s, margin);
  return text(x0, y0 - s * 0.68, s * 0.16, h.id, ' text-anchor="middle" fill="#555"');
}

function mapFrame(width: number): { s: number; margin: number; height: number } {
  const hexes = HEX_IDS.map(hexDef);
  const maxX = Math.max(...hexes.map((h) => h.x));
  const maxY = Math.max(...hexes.map((h) => h.y));
  const margin = 8;
  // pointy hexes: horizontal neighbour distance sqrt(3) * s, x counts half steps
  const s = (width - 2 * margin) / (Math.sqrt(3) * (maxX / 2 + 1));
  return { s, margin, height: Math.ceil(2 * margin + s * (1.5 * maxY + 2)) };
}

/** Every hex's coordinate, as mapSvg writes it (printed on the board: the same all game). */
export function hexIdLabels(width = 960): string {
  const { s, margin } = mapFrame(width);
  return HEX_IDS.map((id) => hexIdLabel(hexDef(id), s, margin)).join('');
}

export function mapSvg(board: Board, opts: MapSvgOptions = {}): string {
  const phase = opts.phase ?? '2';
  const colors = { ...CORP_COLORS, ...(opts.colors ?? {}) };
  const hexes = HEX_IDS.map(hexDef);
  const width = opts.width ?? 960;
  const { s, margin, height } = mapFrame(width);
  const highlight = new Set(opts.highlight ?? []);
  const out: string[] = [];

  for (const h of hexes) {
    const [x0, y0] = hexCenter(h, s, margin);
    const { tile } = faceAt(board, h.id);
    const laid = board.tiles[h.id];
    const reserved: string[][] = tile.nodes.map(() => []);
    for (const [corp, r] of Object.entries(board.homes)) {
      if (r.hex === h.id && tile.cityCount) item(reserved, r.city ?? 0, `cities of ${h.id}`).push(corp);
    }
    const parts = drawFace(
      {
        tile,
        track: trackAt(board, h.id),
        tokens: tile.cityCount ? cityTokens(board, h.id) : [],
        reserved,
        phase,
        hiddenRevenue: h.hiddenRevenue,
        colors,
      },
      x0,
      y0,
      s,
    );
    if (!laid && h.cost) {
      const mark = h.terrain === 'river' ? '≈' : '▲';
      parts.push(
        text(
          x0,
          y0 + s * 0.62,
          s * 0.22,
          `${mark}$${h.cost}`,
          ` text-anchor="middle" fill="${h.terrain === 'river' ? '#1f5fbf' : '#6b4a2b'}"`,
        ),
      );
    }
    if (h.name && (!laid || tile.color === 'red' || tile.color === 'gray')) {
      parts.push(text(x0, y0 + s * 0.82, s * 0.15, esc(h.name), ' text-anchor="middle" fill="#333"'));
    }
    if (opts.hexIds !== false) parts.push(hexIdLabel(h, s, margin));
    if (laid) parts.push(text(x0 + s * 0.45, y0 + s * 0.55, s * 0.16, `#${laid.tile}`, ' fill="#333"'));
    if (highlight.has(h.id)) {
      const corners = [0, 1, 2, 3, 4, 5].map((i) => {
        const a = (Math.PI / 180) * (60 * i - 90);
        return `${f(x0 + s * 0.92 * Math.cos(a))},${f(y0 + s * 0.92 * Math.sin(a))}`;
      });
      parts.push(`<polygon points="${corners.join(' ')}" fill="none" stroke="#d4007a" stroke-width="3"/>`);
    }
    out.push(`<g data-hex="${h.id}">${parts.join('')}</g>`);
  }

  out.push(...routeParts(opts.routes ?? [], s, margin));

  const body = `<g class="map-1830">${out.join('')}</g>`;
  if (opts.standalone === false) return body;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#fff"/>${body}</svg>`;
}

/**
 * The map in layers for a picture whose printed parts are drawn once:
 * `base` is the printed board (every hex's printed face, terrain costs; the
 * off-board values depend on `phase` only), `live` what changes (laid tiles,
 * which cover the printed face beneath them, station tokens and home
 * reservations, tile numbers, highlights, routes), and `names` the printed
 * city names and hex coordinates, drawn above the tiles. All three are <g>
 * fragments in the same frame; stacked base, live, names.
 */
export function mapLayers(
  board: Board,
  opts: MapSvgOptions = {},
): { base: string; live: string; names: string; height: number } {
  minText = opts.minText ?? 0;
  try {
    return layers(board, opts);
  } finally {
    minText = 0;
  }
}

function layers(board: Board, opts: MapSvgOptions): { base: string; live: string; names: string; height: number } {
  const phase = opts.phase ?? '2';
  const colors = { ...CORP_COLORS, ...(opts.colors ?? {}) };
  const width = opts.width ?? 960;
  const { s, margin, height } = mapFrame(width);
  const highlight = new Set(opts.highlight ?? []);
  const mail = opts.minText !== undefined;
  // Where the map sits in the whole document (live groups carry it, so each stands alone).
  const dy = opts.top ?? 0;
  const dx = opts.left ?? 0;
  const at = dy || dx ? ` transform="translate(${dx},${dy})"` : '';
  const box = (x0: number, y0: number, x1: number, y1: number) =>
    [x0 + dx, y0 + dy, x1 + dx, y1 + dy].map((n) => n.toFixed(1)).join(' ');
  const base: string[] = [];
  const live: string[] = [];
  const names: string[] = [];
  const rows = new Map<string, { x: number; y: number }>();
  const cols = new Map<string, { x: number; y: number }>();
  for (const id of HEX_IDS) {
    const h = hexDef(id);
    if (opts.only && !opts.only(h)) continue;
    const [x0, y0] = hexCenter(h, s, margin);
    const row = rows.get(id[0]!);
    if (!row || x0 < row.x) rows.set(id[0]!, { x: x0, y: y0 });
    const col = cols.get(id.slice(1));
    if (!col || y0 < col.y) cols.set(id.slice(1), { x: x0, y: y0 });
    const basePart = drawFace(
      {
        tile: h.printed,
        track: rotatedTrack(h.printed, 0),
        tokens: [],
        reserved: [],
        phase,
        hiddenRevenue: h.hiddenRevenue,
        colors,
      },
      x0,
      y0,
      s,
    );
    if (h.cost) {
      const mark = h.terrain === 'river' ? '≈' : '▲';
      basePart.push(
        text(
          x0,
          y0 + s * 0.62,
          s * 0.22,
          `${mark}$${h.cost}`,
          ` text-anchor="middle" fill="${h.terrain === 'river' ? '#1f5fbf' : '#6b4a2b'}"`,
        ),
      );
    }
    base.push(`<g data-hex="${h.id}">${basePart.join('')}</g>`);
    if (h.name)
      names.push(
        mail
          ? text(
              x0,
              y0 + s * 0.8,
              s * 0.2,
              esc(shortName(h.name)),
              ' text-anchor="middle" fill="#222" stroke="#fff" stroke-width="2.5" paint-order="stroke"',
            )
          : text(x0, y0 + s * 0.82, s * 0.15, esc(h.name), ' text-anchor="middle" fill="#333"'),
      );
    if (opts.hexIds !== false && !mail) names.push(hexIdLabel(h, s, margin));

    const laid = board.tiles[h.id];
    const { tile } = faceAt(board, h.id);
    const reserved: string[][] = tile.nodes.map(() => []);
    for (const [corp, r] of Object.entries(board.homes)) {
      if (r.hex === h.id && tile.cityCount) item(reserved, r.city ?? 0, `cities of ${h.id}`).push(corp);
    }
    const tokens = tile.cityCount ? cityTokens(board, h.id) : [];
    const parts: string[] = [];
    const tokenParts: string[] = [];
    if (laid || tokens.some((t) => t.length) || reserved.some((r) => r.length)) {
      const face = drawFace(
        { tile, track: trackAt(board, h.id), tokens, reserved, phase, hiddenRevenue: h.hiddenRevenue, colors },
        x0,
        y0,
        s,
        tokenParts,
      );
      if (laid) parts.push(...face, text(x0 + s * 0.45, y0 + s * 0.55, s * 0.16, `#${laid.tile}`, ' fill="#333"'));
      parts.push(...tokenParts);
    }
    if (highlight.has(h.id)) {
      const corners = [0, 1, 2, 3, 4, 5].map((i) => {
        const a = (Math.PI / 180) * (60 * i - 90);
        return `${f(x0 + s * 0.92 * Math.cos(a))},${f(y0 + s * 0.92 * Math.sin(a))}`;
      });
      parts.push(`<polygon points="${corners.join(' ')}" fill="none" stroke="#d4007a" stroke-width="3"/>`);
    }
    // Each changed hex is a group that says where it paints (within the hex,
    // with room for its tokens and tile number), in the document's units: a
    // mail draws it once and keeps it until it changes (server/mail/lift.ts).
    if (parts.length)
      live.push(
        `<g data-hex="${h.id}" data-box="${box(x0 - 1.1 * s, y0 - 1.1 * s, x0 + 1.1 * s, y0 + 1.1 * s)}"${at}>${parts.join('')}</g>`,
      );
  }
  if (mail) {
    // Coordinates at the edges, as on a printed map: row letters at the left, column numbers on top.
    const w = (Math.sqrt(3) * s) / 2;
    for (const [letter, r] of rows)
      names.push(text(r.x - w + 2, r.y + 4, s * 0.2, letter, ' font-weight="bold" fill="#555"'));
    for (const [n, c] of cols)
      names.push(text(c.x, c.y - s + 1, s * 0.2, n, ' text-anchor="middle" font-weight="bold" fill="#555" dy="0.9em"'));
  }
  const routes = routeParts(opts.routes ?? [], s, margin).join('');
  if (routes) live.push(`<g data-box="${box(-8, -8, width + 8, height + 8)}"${at}>${routes}</g>`);
  return {
    base: `<g class="map-1830">${base.join('')}</g>`,
    live: live.join(''),
    names: `<g>${names.join('')}</g>`,
    height,
  };
}

function routeParts(routes: NonNullable<MapSvgOptions['routes']>, s: number, margin: number): string[] {
  const out: string[] = [];
  routes.forEach((route, k) => {
    const color = item(ROUTE_COLORS, k % ROUTE_COLORS.length);
    const offset = (k - (routes.length - 1) / 2) * s * 0.12;
    for (const chain of route.connections) {
      const pts = chain.flatMap((id) => {
        const h = HEXES[id];
        return h ? [hexCenter(h, s, margin)] : [];
      });
      if (pts.length < 2) continue;
      out.push(
        `<polyline points="${pts.map(([x, y]) => `${f(x + offset)},${f(y + offset)}`).join(' ')}" fill="none" stroke="${color}" stroke-opacity="0.75" stroke-width="${f(s * 0.12)}" stroke-linecap="round" stroke-linejoin="round"/>`,
      );
    }
    const first = route.connections[0]?.[0];
    const start = first ? HEXES[first] : undefined;
    if (start) {
      const [x, y] = hexCenter(start, s, margin);
      out.push(
        text(
          x + offset + s * 0.15,
          y + offset - s * 0.3,
          s * 0.22,
          esc(route.train),
          ` font-weight="bold" fill="${color}"`,
        ),
      );
    }
  });
  return out;
}

/** A single tile turned by `rotation`, as a small standalone SVG (for picking and turning a tile). */
export function tileSvg(tile: string, rotation: number, size = 90): string {
  const t = TILES[tile];
  if (!t) return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"/>`;
  const s = size / 2 - 2;
  const parts = drawFace(
    {
      tile: t,
      track: rotatedTrack(t, ((rotation % 6) + 6) % 6),
      tokens: [],
      reserved: [],
      phase: '2',
      hiddenRevenue: false,
      colors: CORP_COLORS,
    },
    size / 2,
    size / 2,
    s,
  );
  parts.push(text(size / 2 + s * 0.35, size / 2 + s * 0.6, s * 0.2, `#${t.id}`, ' fill="#333"'));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${parts.join('')}</svg>`;
}
