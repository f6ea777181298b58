// The picture of a view: the map with every airline's licences, the value
// track and the market. Plain SVG (no fonts, images or CSS files) so mail can
// carry it as a PNG.
import type { View } from '../types.ts';
import { board } from './board.ts';

interface SvgAirline {
  id: string;
  name: string;
  colour: string;
  home: string;
  track: number;
  row: number[];
  planes: number;
  blocked: boolean;
  bonus: { city: string; cityName: string; value: number; open: boolean } | null;
}
interface SvgView extends View {
  airlines: SvgAirline[];
  routes: { id: string; costs: number[]; holders: string[] }[];
  market: string[];
  deckSize: number;
  scoringsDone: number;
  trackLength: number;
}

export const MAP_W = 660;
export const MAP_H = 560;
const PAD = 24;
const LAT_MAX = 61.5;
const LAT_MIN = 37;
const LON_MIN = -10.5;
const LON_MAX = 38.5;
const K = Math.cos((50 * Math.PI) / 180);

const sx = (MAP_W - 2 * PAD) / ((LON_MAX - LON_MIN) * K);
const sy = (MAP_H - 2 * PAD) / (LAT_MAX - LAT_MIN);

/** Longitude scaled by the cosine of 50°N, then stretched a little to fill the map box. */
export function project(lat: number, lon: number): [number, number] {
  return [PAD + (lon - LON_MIN) * K * sx, PAD + (LAT_MAX - lat) * sy];
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const f = (n: number) => n.toFixed(1);

function colourOf(id: string): string {
  return board.airlineById[id]?.colour ?? board.abacus.colour;
}

export function renderSvg(raw: View): string {
  const view = raw as SvgView;
  const out: string[] = [];
  const width = 980;
  const height = 600;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  // The printed map, the same for every seat all game long, is marked static:
  // server/mail/snapshot.ts draws it once (every licence space as a free one;
  // the licences held are drawn over it below).
  out.push(`<g data-static="airlines-europe/map/${width}x${height}">`);
  out.push(`<rect x="4" y="4" width="${MAP_W - 8}" height="${MAP_H - 8}" fill="#e8f1f8" stroke="#9bb" rx="6"/>`);
  const pos: Record<string, [number, number]> = {};
  for (const c of board.cities) pos[c.id] = project(c.lat, c.lon);
  const held: string[] = [];
  // Routes with their licence spaces.
  view.routes.forEach((r) => {
    const data = board.routes[board.routeIndex[r.id]!]!;
    const [x1, y1] = pos[data.from]!;
    const [x2, y2] = pos[data.to]!;
    out.push(`<line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}" stroke="#7a8a99" stroke-width="1.5"/>`);
    const n = r.costs.length;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    r.costs.forEach((cost, k) => {
      const t = (k - (n - 1) / 2) * 13;
      const cx = (x1 + x2) / 2 + ux * t;
      const cy = (y1 + y2) / 2 + uy * t;
      const holder = r.holders[k];
      if (holder)
        held.push(
          `<circle cx="${f(cx)}" cy="${f(cy)}" r="6" fill="${colourOf(holder)}" stroke="#000" stroke-width="1"/>`,
        );
      out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="6" fill="#fff" stroke="#445" stroke-width="1"/>`);
      out.push(`<text x="${f(cx)}" y="${f(cy + 3)}" font-size="8" text-anchor="middle" fill="#223">${cost}</text>`);
    });
  });
  // Cities, homes and bonus targets.
  for (const c of board.cities) {
    const [x, y] = pos[c.id]!;
    out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="4" fill="#334"/>`);
    out.push(`<text x="${f(x + 6)}" y="${f(y - 5)}" font-size="10" fill="#112">${esc(c.name)}</text>`);
  }
  out.push(
    `<text x="8" y="${MAP_H + 24}" font-size="11" fill="#334">Circles on a route are its licences: a number is a free licence and its price, a colour the airline holding it. Squares mark home cities, diamonds the connection bonuses still to be won.</text>`,
  );
  out.push('</g>');
  out.push(...held);
  view.airlines.forEach((a) => {
    const [x, y] = pos[a.home]!;
    out.push(`<rect x="${f(x - 14)}" y="${f(y + 3)}" width="10" height="10" fill="${a.colour}" stroke="#000"/>`);
  });
  // Connection bonus markers beside their destination cities while still to be won.
  view.airlines.forEach((a) => {
    if (!a.bonus?.open) return;
    const [x, y] = pos[a.bonus.city]!;
    const bx = x + 8;
    const by = y + 8;
    out.push(
      `<path d="M${f(bx)} ${f(by - 7)} L${f(bx + 7)} ${f(by)} L${f(bx)} ${f(by + 7)} L${f(bx - 7)} ${f(by)} Z" fill="${a.colour}" stroke="#000"/>`,
    );
    out.push(
      `<text x="${f(bx + 9)}" y="${f(by + 4)}" font-size="9" font-weight="bold" fill="#112">+${a.bonus.value}</text>`,
    );
  });
  // Value track and airlines.
  const px = MAP_W + 10;
  out.push(`<text x="${px}" y="24" font-size="14" font-weight="bold">Value track (0-${view.trackLength})</text>`);
  const order = [...view.airlines].sort((a, b) => b.track - a.track);
  order.forEach((a, i) => {
    const y = 40 + i * 34;
    const barW = 300 * (a.track / Math.max(1, view.trackLength));
    out.push(`<rect x="${px}" y="${y}" width="300" height="12" fill="#eee" stroke="#bbb"/>`);
    out.push(
      `<rect x="${px}" y="${y}" width="${f(barW)}" height="12" fill="${a.colour}" stroke="#000" stroke-width="0.5"/>`,
    );
    const note =
      `${a.name} ${a.track}: ${a.row.join('-')}  planes ${a.planes}${a.blocked ? ' BLOCKED' : ''}` +
      (a.bonus?.open ? `  bonus ${a.bonus.cityName} +${a.bonus.value}` : '');
    out.push(`<text x="${px}" y="${y + 25}" font-size="10" fill="#112">${esc(note)}</text>`);
  });
  const my = 40 + order.length * 34 + 16;
  out.push(`<text x="${px}" y="${my}" font-size="13" font-weight="bold">Market</text>`);
  view.market.forEach((m, i) => {
    out.push(
      `<rect x="${px + i * 40}" y="${my + 8}" width="34" height="22" fill="${colourOf(m)}" stroke="#000" rx="3"/>`,
    );
  });
  out.push(
    `<text x="${px}" y="${my + 48}" font-size="11">Draw pile ${view.deckSize} cards; scorings done ${view.scoringsDone} of 3</text>`,
  );
  out.push('</svg>');
  return out.join('');
}

/** Projected city and route positions for the move form's map (rounded to tenths). */
export function mapGeometry(): {
  width: number;
  height: number;
  cities: { id: string; name: string; x: number; y: number }[];
  routes: { id: string; x1: number; y1: number; x2: number; y2: number }[];
} {
  const r1 = (n: number) => Math.round(n * 10) / 10;
  const at: Record<string, [number, number]> = {};
  const cities = board.cities.map((c) => {
    const [x, y] = project(c.lat, c.lon);
    at[c.id] = [r1(x), r1(y)];
    return { id: c.id, name: c.name, x: r1(x), y: r1(y) };
  });
  const routes = board.routes.map((r) => ({
    id: r.id,
    x1: at[r.from]![0],
    y1: at[r.from]![1],
    x2: at[r.to]![0],
    y2: at[r.to]![1],
  }));
  return { width: MAP_W, height: MAP_H, cities, routes };
}
