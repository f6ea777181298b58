// The picture of a view: the stock market chart above the map (the map drawn by ./track).
import type { View } from '../types.ts';
import { mapLayers, type Board, type PhaseName } from './track/index.ts';
import { CORPS, DATA } from './data.ts';

const ZONE_FILL: Record<string, string> = {
  white: '#ffffff',
  par: '#f4c7c3',
  yellow: '#fff3a0',
  orange: '#ffc77a',
  brown: '#c9a27e',
};
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const WIDTH = 960;

/**
 * The market chart: `grid` is the printed chart (cells and prices, the same
 * all game), `body` the status line and the corporations' markers on it.
 */
export function marketSvgBody(view: View): { body: string; grid: string; height: number } {
  const market = view.market as ({ price: number; zone: string; corps: string[] } | null)[][];
  const cols = Math.max(...market.map((r) => r.length));
  const cw = Math.floor((WIDTH - 16) / cols);
  const ch = 34;
  const out: string[] = [];
  const grid: string[] = [];
  out.push(`<text x="8" y="16" font-size="14" font-weight="bold">${esc(String(view.status))}</text>`);
  const top = 24;
  market.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (!cell) return;
      const x = 8 + c * cw,
        y = top + r * ch;
      grid.push(
        `<rect x="${x}" y="${y}" width="${cw}" height="${ch}" fill="${ZONE_FILL[cell.zone] ?? '#fff'}" stroke="#888" stroke-width="0.5"/>`,
      );
      grid.push(`<text x="${x + 3}" y="${y + 11}" font-size="10" fill="#333">${cell.price}</text>`);
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

export function svg1830(view: View): string {
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
