// The picture of a view: the map with every airline's licences, the value
// track and the market. Plain SVG (no fonts, images or CSS files) so mail can
// carry it as a PNG.
import type { View } from '../types.ts';
import { board } from './board.ts';
import { escapeMarkup as esc } from '../escape.ts';
import { boardArea, type PictureTarget } from '../picture.ts';

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

const f = (n: number) => n.toFixed(1);

function colourOf(id: string): string {
  return board.airlineById[id]?.colour ?? board.abacus.colour;
}

interface SvgPlayer {
  seat: number;
  money: number;
  handSize: number;
  portfolio: { airline: string; name: string; colour: string; count: number }[];
}

/**
 * Sizes: a page's picture is 980 wide with the value track beside the map; a mail's is the map's
 * width (660, drawn at 640 px) with everything else below it, its words and licences larger.
 */
const PAGE = { licence: 6, step: 13, cost: 8, city: 10, note: 11 };
const MAIL = { licence: 8.5, step: 18, cost: 12, city: 12, note: 12 };

export function renderSvg(raw: View, target: PictureTarget = 'page'): string {
  const view = raw as SvgView;
  const mail = target === 'mail';
  const z = mail ? MAIL : PAGE;
  const out: string[] = [];
  const below = mail ? mailPanel(view, MAP_H + 36) : null;
  const width = mail ? MAP_W : 980;
  const height = mail ? MAP_H + 36 + below!.height : 600;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif"${mail ? boardArea(0, 0, MAP_W, MAP_H) : ''}>`,
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
      const t = (k - (n - 1) / 2) * z.step;
      const cx = (x1 + x2) / 2 + ux * t;
      const cy = (y1 + y2) / 2 + uy * t;
      const holder = r.holders[k];
      if (holder)
        held.push(
          `<circle cx="${f(cx)}" cy="${f(cy)}" r="${z.licence}" fill="${colourOf(holder)}" stroke="#000" stroke-width="${mail ? 1.5 : 1}"/>`,
        );
      out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${z.licence}" fill="#fff" stroke="#445" stroke-width="1"/>`);
      out.push(
        `<text x="${f(cx)}" y="${f(cy + (mail ? z.cost * 0.37 : 3))}" font-size="${z.cost}" text-anchor="middle" fill="#223">${cost}</text>`,
      );
    });
  });
  // Cities, homes and bonus targets. A mail writes the names over the licences (a printed layer of their own).
  const names: string[] = [];
  for (const c of board.cities) {
    const [x, y] = pos[c.id]!;
    out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="4" fill="#334"/>`);
    if (mail) {
      const east = x > MAP_W - 70;
      names.push(
        `<text x="${f(east ? x - 6 : x + 6)}" y="${f(y - 6)}" font-size="${z.city}" fill="#112" stroke="#e8f1f8" stroke-width="3" paint-order="stroke"${east ? ' text-anchor="end"' : ''}>${esc(c.name)}</text>`,
      );
    } else out.push(`<text x="${f(x + 6)}" y="${f(y - 5)}" font-size="${z.city}" fill="#112">${esc(c.name)}</text>`);
  }
  if (mail)
    out.push(
      `<text x="8" y="${MAP_H + 14}" font-size="${z.note}" fill="#334">Circles on a route are licences: a number is a free one (its price), a colour the airline holding it.</text>`,
      `<text x="8" y="${MAP_H + 30}" font-size="${z.note}" fill="#334">Squares mark home cities, diamonds the connection bonuses still to be won.</text>`,
    );
  else
    out.push(
      `<text x="8" y="${MAP_H + 24}" font-size="11" fill="#334">Circles on a route are its licences: a number is a free licence and its price, a colour the airline holding it. Squares mark home cities, diamonds the connection bonuses still to be won.</text>`,
    );
  out.push('</g>');
  out.push(...held);
  const home = mail ? 12 : 10;
  view.airlines.forEach((a) => {
    const [x, y] = pos[a.home]!;
    out.push(
      `<rect x="${f(x - home - 4)}" y="${f(y + 3)}" width="${home}" height="${home}" fill="${a.colour}" stroke="#000"/>`,
    );
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
      `<text x="${f(bx + 9)}" y="${f(by + 4)}" font-size="${mail ? 12 : 9}" font-weight="bold" fill="#112">+${a.bonus.value}</text>`,
    );
  });
  if (below) {
    out.push(`<g data-static="airlines-europe/names/${width}x${height}">${names.join('')}</g>`);
    out.push(below.svg);
    out.push('</svg>');
    return out.join('');
  }
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

/**
 * Below a mail's map: the status, the seat's own shares (portfolio and hand), the value track
 * (an airline the seat holds shares in is marked "you N"), the market and the draw pile.
 */
function mailPanel(view: SvgView, top: number): { svg: string; height: number } {
  const out: string[] = [];
  const me = typeof view.seat === 'number' ? view.seat : null;
  const player = me !== null ? (view.players as SvgPlayer[] | undefined)?.find((p) => p.seat === me) : undefined;
  const hand = (view.hand as SvgPlayer['portfolio'] | null | undefined) ?? [];
  const mine = new Map((player?.portfolio ?? []).map((p) => [p.airline, p.count]));
  let y = top + 18;
  out.push(`<text x="8" y="${y}" font-size="14" font-weight="bold">${esc(String(view.status))}</text>`);
  // Each row of chips has room for two lines, so that the picture keeps its height all game
  // (its printed layers are drawn once a game: server/mail/snapshot.ts).
  const chips = (label: string, items: SvgPlayer['portfolio']) => {
    y += 26;
    const first = y;
    out.push(`<text x="8" y="${y}" font-size="13" font-weight="bold">${esc(label)}</text>`);
    let x = 8 + label.length * 7.5 + 8;
    if (items.length === 0) out.push(`<text x="${f(x)}" y="${y}" font-size="13">none</text>`);
    for (const it of items) {
      const w = 24 + it.name.length * 7.5;
      if (x + w > MAP_W - 8) {
        x = 8;
        y += 22;
      }
      const dark = it.airline !== 'white' && it.airline !== 'yellow';
      out.push(
        `<rect x="${f(x)}" y="${y - 14}" width="${f(w)}" height="19" rx="3" fill="${it.colour}" stroke="#000"/>`,
        `<text x="${f(x + w / 2)}" y="${y}" font-size="13" text-anchor="middle" fill="${dark ? '#fff' : '#000'}">${esc(it.name)} ×${it.count}</text>`,
      );
      x += w + 6;
    }
    y = Math.max(y, first + 22);
  };
  if (player) {
    chips('Your shares:', player.portfolio);
    chips('Your hand:', hand);
    y += 26;
    out.push(`<text x="8" y="${y}" font-size="13">Your money: ${player.money} million</text>`);
  } else y += 2 * (26 + 22) + 26;
  y += 30;
  out.push(`<text x="8" y="${y}" font-size="14" font-weight="bold">Value track (0-${view.trackLength})</text>`);
  const order = [...view.airlines].sort((a, b) => b.track - a.track);
  for (const a of order) {
    y += 22;
    const barW = 150 * (a.track / Math.max(1, view.trackLength));
    out.push(`<rect x="8" y="${y - 12}" width="150" height="14" fill="#eee" stroke="#bbb"/>`);
    out.push(
      `<rect x="8" y="${y - 12}" width="${f(barW)}" height="14" fill="${a.colour}" stroke="#000" stroke-width="0.5"/>`,
    );
    const held = mine.get(a.id);
    const note =
      `${a.name} ${a.track}: ${a.row.join('-')}, planes ${a.planes}${a.blocked ? ', BLOCKED' : ''}` +
      (a.bonus?.open ? `, bonus ${a.bonus.cityName} +${a.bonus.value}` : '') +
      (held ? `, you ${held}` : '');
    out.push(
      `<text x="166" y="${y}" font-size="12" fill="#112"${held ? ' font-weight="bold"' : ''}>${esc(note)}</text>`,
    );
  }
  y += 34;
  out.push(`<text x="8" y="${y}" font-size="14" font-weight="bold">Market</text>`);
  view.market.forEach((m, i) => {
    out.push(
      `<rect x="${70 + i * 40}" y="${y - 15}" width="34" height="20" fill="${colourOf(m)}" stroke="#000" rx="3"/>`,
    );
  });
  y += 26;
  out.push(
    `<text x="8" y="${y}" font-size="13">Draw pile ${view.deckSize} cards; scorings done ${view.scoringsDone} of 3</text>`,
  );
  return { svg: out.join(''), height: y + 12 - top };
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
