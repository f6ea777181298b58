// The picture of a view: the stock market chart above the map (the map drawn by ./track).
import type { View } from '../types.ts';
import { mapLayers, type Board, type PhaseName } from './track/index.ts';
import { CORPS, DATA } from './data.ts';
import { escapeMarkup as esc } from '../escape.ts';
import { MAIL_MIN_TEXT, MAIL_WIDTH, type PictureTarget } from '../picture.ts';

const ZONE_FILL: Record<string, string> = {
  white: '#ffffff',
  par: '#f4c7c3',
  yellow: '#fff3a0',
  orange: '#ffc77a',
  brown: '#c9a27e',
};

const WIDTH = 960;

/**
 * The market chart: `grid` is the printed chart (cells and prices, the same
 * all game), `body` the status line and the corporations' markers on it.
 */
export function marketSvgBody(
  view: View,
  target: PictureTarget = 'page',
): { body: string; grid: string; height: number } {
  const market = view.market as ({ price: number; zone: string; corps: string[] } | null)[][];
  const mail = target === 'mail';
  const cols = Math.max(...market.map((r) => r.length));
  const cw = Math.floor(((mail ? MAIL_WIDTH : WIDTH) - 16) / cols);
  // A mail: room for three lines of markers, one a line.
  const ch = mail ? 50 : 34;
  const out: string[] = [];
  const grid: string[] = [];
  out.push(`<text x="8" y="16" font-size="14" font-weight="bold">${esc(String(view.status))}</text>`);
  // A mail names what the seat holds under the status line.
  const you = mail && typeof view.seat === 'number' ? holdings(view, view.seat) : null;
  if (you) out.push(`<text x="8" y="34" font-size="13">${esc(you)}</text>`);
  const top = mail ? 44 : 24;
  market.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (!cell) return;
      const x = 8 + c * cw,
        y = top + r * ch;
      grid.push(
        `<rect x="${x}" y="${y}" width="${cw}" height="${ch}" fill="${ZONE_FILL[cell.zone] ?? '#fff'}" stroke="#888" stroke-width="0.5"/>`,
      );
      grid.push(
        `<text x="${x + (mail ? 2 : 3)}" y="${y + 11}" font-size="${mail ? MAIL_MIN_TEXT : 10}" fill="#333">${cell.price}</text>`,
      );
      if (mail) {
        cell.corps.forEach((sym, i) => {
          const d = CORPS[sym]!;
          const ty = y + 13 + i * 12;
          out.push(
            `<rect x="${x + 1}" y="${ty}" width="${cw - 2}" height="11.5" rx="2" fill="${d.color}" stroke="#000" stroke-width="0.4"/>`,
          );
          out.push(
            `<text x="${x + cw / 2}" y="${ty + 10}" font-size="${MAIL_MIN_TEXT}" text-anchor="middle" fill="${d.textColor}">${esc(sym)}</text>`,
          );
        });
        return;
      }
      cell.corps.forEach((sym, i) => {
        const d = CORPS[sym]!;
        const tw = (cw - 6) / 2;
        const tx = x + 2 + (i % 2) * (tw + 2),
          ty = y + 13 + Math.floor(i / 2) * 10;
        out.push(
          `<rect x="${tx}" y="${ty}" width="${tw}" height="9.5" rx="2" fill="${d.color}" stroke="#000" stroke-width="0.4"/>`,
        );
        out.push(
          `<text x="${tx + tw / 2}" y="${ty + 7.8}" font-size="8" font-weight="bold" text-anchor="middle" fill="${d.textColor}">${esc(sym)}</text>`,
        );
      });
    });
  });
  return { body: out.join(''), grid: grid.join(''), height: top + market.length * ch + 8 };
}

/** "You: $420 · PRR 60% (president) · NYC 10% · privates SV, CS" (a mail's picture). */
function holdings(view: View, seat: number): string | null {
  const p = (
    view.players as
      | { seat: number; cash: number; shares: Record<string, number>; presidencies: string[]; privates: string[] }[]
      | undefined
  )?.find((x) => x.seat === seat);
  if (!p) return null;
  const line = (pres: string) =>
    [
      `You: $${p.cash}`,
      ...Object.entries(p.shares).map(([sym, pc]) => `${sym} ${pc}%${p.presidencies.includes(sym) ? pres : ''}`),
      ...(p.privates.length ? [`privates ${p.privates.join(', ')}`] : []),
    ].join(' · ');
  // one line of 13 px words fits about 90 characters in the column
  return line(' (president)').length <= 90 ? line(' (president)') : line(' pres.');
}

export function svg1830(view: View, target: PictureTarget = 'page'): string {
  if (target === 'mail') return mailSvg(view);
  const market = marketSvgBody(view);
  const board = view.board as Board | null;
  const phase = String(view.phase ?? '2') as PhaseName;
  const colors = Object.fromEntries(DATA.corporations.map((c) => [c.sym, { fill: c.color, text: c.textColor }]));
  const map = board ? mapLayers(board, { phase, colors, width: WIDTH, top: market.height }) : null;
  const height = market.height + (map ? Math.ceil(map.height) : 0);
  // The printed parts are marked static: server/mail/snapshot.ts draws them
  // once. Public and the same for every seat (the map's off-board values change
  // with the phase, so that layer is keyed by phase). Stacked: the printed
  // market chart and map; the status line, market markers, laid tiles (each
  // covers the printed face beneath it) and tokens; then the printed names and
  // hex coordinates over the tiles. One changing layer between two static ones,
  // made of plain top-level elements and groups that say where they paint,
  // which the mail keeps from one mail to the next (server/mail/lift.ts).
  const size = `${WIDTH}x${height}`;
  const at = `transform="translate(0,${market.height})"`;
  const printed = map ? `<g ${at}>${map.base}</g>` : '';
  const board_ = `<g data-static="1830/board/${phase}/${size}">${market.grid}${printed}</g>`;
  const names = map ? `<g data-static="1830/names/${size}" pointer-events="none"><g ${at}>${map.names}</g></g>` : '';
  const live = map ? map.live : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${board_}${market.body}${live}${names}</svg>`;
}

/**
 * Width of the whole map drawn for a mail: hexes about 100 px across, so that the map is drawn in
 * two halves (west and east, sharing a column), one above the other, each MAIL_WIDTH wide.
 */
const MAIL_MAP_WIDTH = 1120;
/** Half-steps: the west half shows columns 1-13, the east half 12-24. */
const WEST_LAST = 12;
const EAST_FIRST = 11;

/**
 * The picture for a mail's 360-640 px column: the market chart, then the map in two halves, so
 * that tokens, revenues and names are drawn large enough to read (MAIL_MIN_TEXT and up).
 */
function mailSvg(view: View): string {
  const market = marketSvgBody(view, 'mail');
  const board = view.board as Board | null;
  const phase = String(view.phase ?? '2') as PhaseName;
  const colors = Object.fromEntries(DATA.corporations.map((c) => [c.sym, { fill: c.color, text: c.textColor }]));
  const halves = board
    ? (() => {
        const common = { phase, colors, width: MAIL_MAP_WIDTH, minText: MAIL_MIN_TEXT };
        const west = mapLayers(board, { ...common, top: market.height, only: (h) => h.x <= WEST_LAST });
        const s = (MAIL_MAP_WIDTH - 16) / (Math.sqrt(3) * 12.5);
        const left = -Math.floor((EAST_FIRST * Math.sqrt(3) * s) / 2);
        const east = mapLayers(board, {
          ...common,
          top: market.height + west.height,
          left,
          only: (h) => h.x >= EAST_FIRST,
        });
        return [
          { layers: west, top: market.height, left: 0 },
          { layers: east, top: market.height + west.height, left },
        ];
      })()
    : [];
  const height = market.height + halves.reduce((t, h) => t + Math.ceil(h.layers.height), 0);
  const size = `${MAIL_WIDTH}x${height}`;
  const at = (h: (typeof halves)[number]) => `transform="translate(${h.left},${h.top})"`;
  const printed = halves.map((h) => `<g ${at(h)}>${h.layers.base}</g>`).join('');
  const board_ = `<g data-static="1830/mail-board/${phase}/${size}">${market.grid}${printed}</g>`;
  const names = halves.length
    ? `<g data-static="1830/mail-names/${size}" pointer-events="none">${halves.map((h) => `<g ${at(h)}>${h.layers.names}</g>`).join('')}</g>`
    : '';
  const live = halves.map((h) => h.layers.live).join('');
  const rule = halves[1]
    ? `<line x1="0" y1="${halves[1].top}" x2="${MAIL_WIDTH}" y2="${halves[1].top}" stroke="#999" stroke-dasharray="6 4"/>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${MAIL_WIDTH}" height="${height}" viewBox="0 0 ${MAIL_WIDTH} ${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${board_}${market.body}${live}${names}${rule}</svg>`;
}
