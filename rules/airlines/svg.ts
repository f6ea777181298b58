// The picture of a view: the map (routes in their five patterns, circles with
// values, markers in airline colours, sabotage markers with their black sticker
// dot, home airports), and below it the airlines, the open stock row and the
// points. Pure: built only from the view, no fonts or images from outside.
import type { View } from '../types.ts';
import { escapeMarkup as esc } from '../escape.ts';
import { boardArea, MAIL_MIN_TEXT, MAIL_WIDTH, textAtLeast, type PictureTarget } from '../picture.ts';

interface CircleV {
  label: string;
  value: number;
  x: number;
  y: number;
  company: string | null;
  colour: string | null;
  sabotage: boolean;
}
interface RouteV {
  id: string;
  pattern: string;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  circles: CircleV[];
}
interface CityV {
  code: string;
  name: string;
  x: number;
  y: number;
  label: string;
  home: string | null;
}
interface CompanyV {
  code: string;
  name: string;
  colour: string;
  home: string;
  homeName: string;
  patterns: string[];
  founded: boolean;
  value: number;
  markersLeft: number;
  laidOut: number;
}
interface PlayerV {
  seat: number;
  points: number;
  bonus: number;
  stockInHand: number;
  routeCardsInHand: number;
  played: { code: string; count: number }[];
}

const ROW = 46;

/** The players' table: where each column starts, and the characters a name may take before them. */
const COL = { points: 180, bonus: 228, stock: 272, routes: 340, laid: 420 };
const NAME_ROOM = 20;
/** Characters of a status line that fit the picture's width at its narrowest (a mail's 640). */
const STATUS_LINE = 84;

const STYLE: Record<string, string> = {
  solid: 'stroke-width="3"',
  dashed: 'stroke-width="3" stroke-dasharray="11 6"',
  dotted: 'stroke-width="4" stroke-dasharray="0.1 7" stroke-linecap="round"',
  dashdot: 'stroke-width="3" stroke-dasharray="13 5 2 5"',
};

function line(x1: number, y1: number, x2: number, y2: number, pattern: string): string {
  if (pattern === 'double') {
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ox = ((y2 - y1) / len) * 2.5,
      oy = (-(x2 - x1) / len) * 2.5;
    return [1, -1]
      .map(
        (k) =>
          `<line x1="${(x1 + k * ox).toFixed(1)}" y1="${(y1 + k * oy).toFixed(1)}" x2="${(x2 + k * ox).toFixed(1)}" y2="${(y2 + k * oy).toFixed(1)}" stroke="#555" stroke-width="1.6"/>`,
      )
      .join('');
  }
  return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#555" ${STYLE[pattern] ?? STYLE.solid}/>`;
}

function circle(c: CircleV): string {
  if (!c.company) {
    return (
      `<circle cx="${c.x}" cy="${c.y}" r="9" fill="#fff" stroke="#333" stroke-width="1.5"/>` +
      `<text x="${c.x}" y="${c.y + 4}" text-anchor="middle" font-size="11" font-weight="bold" fill="#222">${c.value}</text>`
    );
  }
  if (c.sabotage) {
    return (
      `<circle cx="${c.x}" cy="${c.y}" r="9" fill="${c.colour}" stroke="#000" stroke-width="3"/>` +
      `<circle cx="${c.x}" cy="${c.y}" r="3.5" fill="#000"/>`
    );
  }
  return (
    `<circle cx="${c.x}" cy="${c.y}" r="9" fill="${c.colour}" stroke="#222" stroke-width="1"/>` +
    `<text x="${c.x}" y="${c.y + 4}" text-anchor="middle" font-size="11" font-weight="bold" fill="#fff">${c.value}</text>`
  );
}

/** A city's dot (unless it is a home) and name: printed on the board, the same all game. */
function cityPrint(c: CityV, companies: Map<string, CompanyV>): string {
  const d = c.home ? 16 : 7;
  const dx = c.label.includes('e') ? d : c.label.includes('w') ? -d : 0;
  const dy = c.label.includes('n') ? -d + 3 : c.label.includes('s') ? d + 6 : 4;
  const anchor = dx > 0 ? 'start' : dx < 0 ? 'end' : 'middle';
  const label = `<text x="${c.x + dx}" y="${c.y + dy}" text-anchor="${anchor}" font-size="11" fill="#111" stroke="#eef4f8" stroke-width="3" paint-order="stroke">${esc(c.name)}</text>`;
  const home = c.home ? companies.get(c.home) : undefined;
  return home ? label : `<circle cx="${c.x}" cy="${c.y}" r="4.5" fill="#333"/>${label}`;
}

/** A home city's airline box: filled once the airline is founded. */
function cityHome(c: CityV, companies: Map<string, CompanyV>): string {
  const home = c.home ? companies.get(c.home) : undefined;
  if (!home) return '';
  const fill = home.founded ? home.colour : '#fff';
  const text = home.founded ? '#fff' : home.colour;
  return (
    `<rect x="${c.x - 14}" y="${c.y - 8}" width="28" height="16" rx="3" fill="${fill}" stroke="${home.colour}" stroke-width="2"/>` +
    `<text x="${c.x}" y="${c.y + 4}" text-anchor="middle" font-size="10" font-weight="bold" fill="${text}">${home.code}</text>`
  );
}

/**
 * The picture. For a mail: the map drawn MAIL_WIDTH wide (positions scaled, markers and words kept
 * at their size, so they read at 640 px), the airlines in two columns, no word under MAIL_MIN_TEXT.
 */
export function renderSvg(view: View, target: PictureTarget = 'page'): string {
  if (target !== 'mail') return draw(view, 3);
  // room at the left for the western cities' names, at the top for the title and the status line
  const dx = 34;
  const dy = 34;
  const k = (MAIL_WIDTH - dx - 8) / (view.mapWidth as number);
  const X = (x: number) => r1(dx + x * k);
  const Y = (y: number) => r1(dy + y * k);
  const at = <T extends { x: number; y: number }>(p: T): T => ({ ...p, x: X(p.x), y: Y(p.y) });
  const scaled: View = {
    ...view,
    mapWidth: MAIL_WIDTH,
    mapHeight: Math.round(dy + (view.mapHeight as number) * k),
    cities: (view.cities as CityV[]).map(at),
    routes: (view.routes as RouteV[]).map((r) => ({
      ...r,
      x1: X(r.x1),
      y1: Y(r.y1),
      x2: X(r.x2),
      y2: Y(r.y2),
      circles: r.circles.map(at),
    })),
  };
  return textAtLeast(draw(scaled, 2), MAIL_MIN_TEXT);
}

const r1 = (n: number) => Math.round(n * 10) / 10;

function draw(view: View, columns: number): string {
  const width = view.mapWidth as number;
  const mapHeight = view.mapHeight as number;
  const routes = view.routes as RouteV[];
  const cities = view.cities as CityV[];
  const companies = view.companies as CompanyV[];
  const players = view.players as PlayerV[];
  const open = view.open as string[];
  const byCode = new Map(companies.map((c) => [c.code, c]));
  // Where an airline's figures go after their captions: a mail's captions are drawn at
  // MAIL_MIN_TEXT, wider than a page's.
  const fig =
    columns === 3
      ? { markersCaption: 80, stockCaption: 165, value: 64, markers: 149, stock: 242 }
      : { markersCaption: 86, stockCaption: 182, value: 72, markers: 166, stock: 282 };
  const parts: string[] = [];
  const legendTop = mapHeight + 10;
  const hand = view.hand as {
    stock: { code: string; count: number }[];
    routes: { pattern: string; value: number }[];
  } | null;
  const height =
    legendTop + 40 + Math.ceil(companies.length / columns) * ROW + 68 + players.length * 18 + (hand ? 40 : 0);
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif"${columns === 2 ? boardArea(0, 0, width, mapHeight) : ''}>`,
  );
  parts.push(
    `<rect width="${width}" height="${height}" fill="#fff"/><rect width="${width}" height="${mapHeight}" fill="#eef4f8"/>`,
  );
  // The printed board, the same for every seat all game long, is marked static:
  // server/mail/snapshot.ts draws it once (every circle as a free one; the
  // markers on the board are drawn over it below).
  parts.push(`<g data-static="airlines/map/${width}x${height}">`);
  parts.push(`<text x="16" y="24" font-size="16" font-weight="bold" fill="#234">Airlines — North America</text>`);
  for (const r of routes) parts.push(line(r.x1, r.y1, r.x2, r.y2, r.pattern));
  for (const c of cities) parts.push(cityPrint(c, byCode));
  for (const r of routes) for (const c of r.circles) parts.push(circle({ ...c, company: null }));

  // Pattern legend.
  let x = 16;
  const py = legendTop + 14;
  for (const p of view.patterns as { id: string; name: string }[]) {
    parts.push(line(x, py, x + 44, py, p.id));
    parts.push(`<text x="${x + 50}" y="${py + 4}" font-size="12">${esc(p.id)}</text>`);
    x += columns === 3 ? 120 : 105;
  }
  parts.push(
    `<circle cx="${x + 8}" cy="${py}" r="8" fill="#888" stroke="#000" stroke-width="3"/><circle cx="${x + 8}" cy="${py}" r="3" fill="#000"/>` +
      `<text x="${x + 22}" y="${py + 4}" font-size="12">sabotage</text>`,
  );
  // The airlines' names, homes and patterns, and the open row's caption, are printed too.
  companies.forEach((c, i) => {
    const cx = 16 + (i % columns) * 315,
      cy = legendTop + 36 + Math.floor(i / columns) * ROW;
    parts.push(`<text x="${cx + 36}" y="${cy + 9}" font-size="11">${esc(c.name)} · ${esc(c.homeName)}</text>`);
    parts.push(`<text x="${cx + 36}" y="${cy + 34}" font-size="10" fill="#444">flies ${c.patterns.join(', ')}</text>`);
  });
  const by = legendTop + 36 + Math.ceil(companies.length / columns) * ROW + 8;
  parts.push(`<text x="16" y="${by + 12}" font-size="12" font-weight="bold">Open stock:</text>`);
  // Fixed captions of the changing figures (the figures are drawn per picture in the gaps).
  companies.forEach((_, i) => {
    const cx = 16 + (i % columns) * 315,
      cy = legendTop + 36 + Math.floor(i / columns) * ROW;
    parts.push(
      `<text y="${cy + 22}" font-size="10" fill="#444"><tspan x="${cx + 36}">value</tspan><tspan x="${cx + fig.markersCaption}">· markers left</tspan><tspan x="${cx + fig.stockCaption}">· stock laid out</tspan></text>`,
    );
  });
  parts.push(
    `<text y="${by + 13}" font-size="12"><tspan x="316">pile</tspan><tspan x="366">· scoring cards left</tspan><tspan x="526">· route cards</tspan></text>`,
  );
  // The players' table: its headings are printed; the rows (names and figures) are drawn below.
  parts.push(
    `<text y="${by + 40}" font-size="11" fill="#444"><tspan x="16">player</tspan><tspan x="${COL.points}">points</tspan><tspan x="${COL.bonus}">bonus</tspan><tspan x="${COL.stock}">stock held</tspan><tspan x="${COL.routes}">route cards</tspan><tspan x="${COL.laid}">stock laid out</tspan></text>`,
  );
  parts.push('</g>');
  // The status line names a player (cut to fit); a long one goes on in a second line over the map.
  const status = String(view.status).replace(/\{seat:(\d+)\}/g, `{seat:$1:${NAME_ROOM}}`);
  const lines = status.length > STATUS_LINE ? status.split(/(?<=;) /) : [status];
  lines.forEach((l, i) => {
    parts.push(
      `<text x="16" y="${42 + i * 15}" font-size="12" fill="#345" stroke="#eef4f8" stroke-width="3" paint-order="stroke">${esc(l)}</text>`,
    );
  });
  for (const c of cities) parts.push(cityHome(c, byCode));
  for (const r of routes) for (const c of r.circles) if (c.company) parts.push(circle(c));

  // Airlines: colour, code, home, value (markers on the board), markers left, patterns.
  companies.forEach((c, i) => {
    const cx = 16 + (i % columns) * 315,
      cy = legendTop + 36 + Math.floor(i / columns) * ROW;
    parts.push(
      `<rect x="${cx}" y="${cy}" width="30" height="18" rx="3" fill="${c.founded ? c.colour : '#fff'}" stroke="${c.colour}" stroke-width="2"/>`,
    );
    parts.push(
      `<text x="${cx + 15}" y="${cy + 13}" text-anchor="middle" font-size="10" font-weight="bold" fill="${c.founded ? '#fff' : c.colour}">${c.code}</text>`,
    );
    parts.push(
      `<text y="${cy + 22}" font-size="10" fill="#444"><tspan x="${cx + fig.value}">${c.value}</tspan><tspan x="${cx + fig.markers}">${c.markersLeft}</tspan><tspan x="${cx + fig.stock}">${c.laidOut}</tspan></text>`,
    );
  });

  // Open stock row, piles and points.
  open.forEach((code, i) => {
    const c = byCode.get(code);
    parts.push(
      `<rect x="${100 + i * 40}" y="${by}" width="34" height="18" rx="3" fill="${c?.colour ?? '#999'}"/>` +
        `<text x="${117 + i * 40}" y="${by + 13}" text-anchor="middle" font-size="10" font-weight="bold" fill="#fff">${code}</text>`,
    );
  });
  parts.push(
    `<text y="${by + 13}" font-size="12"><tspan x="346">${view.pileSize}</tspan><tspan x="508">${view.scoringCardsLeft}</tspan><tspan x="612">${view.routePileSize}</tspan></text>`,
  );
  let y = by + 58;
  for (const p of players) {
    // a mail's narrower column: "GGA3 SWX1" rather than "GGA 3  SWX 1"
    const laid =
      p.played
        .map((x) => (columns === 3 ? `${x.code} ${x.count}` : `${x.code}${x.count}`))
        .join(columns === 3 ? '  ' : ' ') || 'none';
    // The name as the server writes it in, cut to the room before the figures.
    parts.push(
      `<text y="${y}" font-size="12"><tspan x="16" font-weight="bold">{seat:${p.seat}:${NAME_ROOM}}</tspan><tspan x="${COL.points}" font-weight="bold">${p.points}</tspan><tspan x="${COL.bonus}">${p.bonus}</tspan><tspan x="${COL.stock}">${p.stockInHand}</tspan><tspan x="${COL.routes}">${p.routeCardsInHand}</tspan><tspan x="${COL.laid}">${esc(laid)}</tspan></text>`,
    );
    y += 18;
  }
  if (hand) {
    const stock = hand.stock.map((x) => `${x.code} ${x.count}`).join('  ') || 'none';
    const routes = hand.routes.map((r) => `${r.pattern} ${r.value}`).join(', ') || 'none';
    parts.push(
      `<text x="16" y="${y + 6}" font-size="12"><tspan font-weight="bold">Your stock:</tspan> ${esc(stock)}</text>`,
    );
    parts.push(
      `<text x="16" y="${y + 24}" font-size="12"><tspan font-weight="bold">Your route cards:</tspan> ${esc(routes)}</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}
