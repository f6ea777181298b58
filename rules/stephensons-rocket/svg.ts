// The board as a standalone SVG document (pure): hexes, towns and cities with
// the goods they still hold, track, locomotives with their facing, stations.
import type { View } from '../types.ts';
import { board } from './board.ts';

const S = 21; // hex size in pixels (centre to corner)
const ROOT3 = Math.sqrt(3);
const PAD = 30;
const LEGEND = 230;
/** Track joined to no line (left behind when a line that absorbed others leaves its start town). */
const LOOSE_TRACK = '#8a8a8a';

const rawX = board.q.map((q, i) => S * ROOT3 * (q + board.r[i]! / 2));
const rawY = board.r.map((r) => S * 1.5 * r);
const minX = Math.min(...rawX) - S;
const minY = Math.min(...rawY) - S;
const X = rawX.map((x) => x - minX + PAD);
const Y = rawY.map((y) => y - minY + PAD);
const MAP_W = Math.max(...X) + S + PAD;
const HEIGHT = Math.max(Math.max(...Y) + S + PAD, 520);
const WIDTH = MAP_W + LEGEND;

export const GOOD_COLOURS: Record<string, string> = {
  steel: '#78909c',
  textiles: '#ab47bc',
  brewing: '#d89a1e',
  leather: '#8d5524',
};
export const STATION_COLOURS: Record<string, string> = {
  white: '#ffffff',
  yellow: '#ffe14d',
  pink: '#ff6fb5',
  cyan: '#35d0e6',
};

const f = (n: number) => n.toFixed(1);
function esc(t: string): string {
  return t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function corner(h: number, k: number): [number, number] {
  const a = (Math.PI / 180) * (60 * k - 30);
  return [X[h]! + S * Math.cos(a), Y[h]! + S * Math.sin(a)];
}
/** Midpoint of the side of hex h facing direction d. */
function side(h: number, d: number): [number, number] {
  const a = (Math.PI / 180) * (60 * d);
  const m = (S * ROOT3) / 2;
  return [X[h]! + m * Math.cos(a), Y[h]! + m * Math.sin(a)];
}

interface ViewLine {
  id: string;
  name: string;
  colour: string;
  loco: string | null;
  facingDir: number;
  atStart: boolean;
  running: boolean;
  isolated: boolean;
  supply: number;
  absorbedInto: string | null;
}
interface ViewPlayer {
  seat: number;
  colour: string;
  stations: string[];
}

export function renderSvg(view: View): string {
  const lines = view.lines as ViewLine[];
  const colourOf = new Map(lines.map((l) => [l.id, l.colour]));
  const tiles = view.tiles as { hex: string; line: string | null; sides: number[] }[];
  const cities = view.cities as { id: string; goods: string[] }[];
  const players = view.players as ViewPlayer[];
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(WIDTH)}" height="${Math.round(HEIGHT)}" viewBox="0 0 ${Math.round(WIDTH)} ${Math.round(HEIGHT)}" font-family="sans-serif">`,
  );
  out.push(`<rect width="100%" height="100%" fill="#cfe3f3"/>`);
  // The printed board is marked static (server/mail/snapshot.ts draws it once a
  // game): the hexes here, the places and their names in a second group after
  // the track, which passes under them.
  const size = `${Math.round(WIDTH)}x${Math.round(HEIGHT)}`;
  out.push(`<g data-static="stephensons-rocket/hexes/${size}">`);
  board.hexIds.forEach((id, h) => {
    const pts = [0, 1, 2, 3, 4, 5].map((k) => corner(h, k).map(f).join(',')).join(' ');
    out.push(`<polygon points="${pts}" fill="#eef3df" stroke="#b9c2a0" stroke-width="0.8"/>`);
    if (board.placeAt[h]! < 0)
      out.push(
        `<text x="${f(X[h]!)}" y="${f(Y[h]! + S * 0.75)}" font-size="7" fill="#7d866c" text-anchor="middle">${id}</text>`,
      );
  });
  out.push('</g>');
  for (const t of tiles) {
    const h = board.hexIndex.get(t.hex)!;
    const [a, b] = [side(h, t.sides[0]!), side(h, t.sides[1]!)];
    out.push(
      `<path d="M${f(a[0])},${f(a[1])} Q${f(X[h]!)},${f(Y[h]!)} ${f(b[0])},${f(b[1])}" fill="none" stroke="${(t.line && colourOf.get(t.line)) || LOOSE_TRACK}" stroke-width="6" stroke-linecap="round"/>`,
    );
  }
  const goodsLeft = new Map(cities.map((c) => [c.id, c.goods]));
  out.push(`<g data-static="stephensons-rocket/places/${size}">`);
  board.places.forEach((p) => {
    const h = p.hex;
    const x = X[h]!,
      y = Y[h]!;
    if (p.kind === 'city') {
      out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${S * 0.72}" fill="#fff2c4" stroke="#333" stroke-width="1.5"/>`);
    } else if (p.kind === 'start') {
      const line = board.lines.find((l) => board.places[l.start]!.id === p.id)!;
      out.push(
        `<rect x="${f(x - S * 0.55)}" y="${f(y - S * 0.55)}" width="${f(S * 1.1)}" height="${f(S * 1.1)}" fill="#fff" stroke="${line.colour}" stroke-width="3"/>`,
      );
    } else {
      out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${S * 0.42}" fill="#fff" stroke="#333" stroke-width="1.2"/>`);
    }
    const west = board.neighbour[h]![3]!;
    const below = west >= 0 && board.placeAt[west]! >= 0; // a place just west: write this name below
    out.push(
      `<text x="${f(x)}" y="${f(below ? y + S * 1.15 : y - S * 0.8)}" font-size="8.5" text-anchor="middle" fill="#111" stroke="#eef3df" stroke-width="2" paint-order="stroke">${esc(p.name)}</text>`,
    );
  });
  out.push('</g>');
  // The goods a city still holds, on its circle.
  board.places.forEach((p) => {
    if (p.kind !== 'city') return;
    const x = X[p.hex]!,
      y = Y[p.hex]!;
    (goodsLeft.get(p.id) ?? []).forEach((g, k) => {
      out.push(
        `<rect x="${f(x - 10 + k * 7)}" y="${f(y - 3)}" width="6" height="6" fill="${GOOD_COLOURS[g]}" stroke="#222" stroke-width="0.5"/>`,
      );
    });
  });
  for (const pl of players) {
    for (const id of pl.stations) {
      const h = board.hexIndex.get(id)!;
      out.push(
        `<rect x="${f(X[h]! - 6)}" y="${f(Y[h]! - 6)}" width="12" height="12" fill="${STATION_COLOURS[pl.colour] ?? '#fff'}" stroke="#000" stroke-width="1.2"/>`,
      );
    }
  }
  for (const l of lines) {
    if (!l.running || !l.loco) continue;
    const h = board.hexIndex.get(l.loco)!;
    const x = X[h]!,
      y = Y[h]!;
    if (l.atStart) {
      out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="8" fill="${l.colour}" stroke="#fff" stroke-width="1.5"/>`);
      continue;
    }
    const a = (Math.PI / 180) * 60 * l.facingDir;
    const tip = [x + 12 * Math.cos(a), y + 12 * Math.sin(a)];
    const l1 = [x + 8 * Math.cos(a + 2.3), y + 8 * Math.sin(a + 2.3)];
    const l2 = [x + 8 * Math.cos(a - 2.3), y + 8 * Math.sin(a - 2.3)];
    out.push(
      `<polygon points="${[tip, l1, l2].map((p) => p.map(f).join(',')).join(' ')}" fill="${l.colour}" stroke="#fff" stroke-width="1.5"/>`,
    );
  }
  // legend
  let ly = PAD;
  const lx = MAP_W + 5;
  out.push(`<text x="${f(lx)}" y="${ly}" font-size="13" font-weight="bold">Lines (shares left)</text>`);
  for (const l of lines) {
    ly += 18;
    const note = l.running ? `${l.supply}${l.isolated ? ', isolated' : ''}` : `absorbed by ${l.absorbedInto}`;
    out.push(`<rect x="${f(lx)}" y="${ly - 10}" width="14" height="10" fill="${l.colour}"/>`);
    out.push(`<text x="${f(lx + 20)}" y="${ly}" font-size="11">${esc(l.id)} (${esc(note)})</text>`);
  }
  ly += 28;
  out.push(`<text x="${f(lx)}" y="${ly}" font-size="13" font-weight="bold">Goods</text>`);
  for (const [g, c] of Object.entries(GOOD_COLOURS)) {
    ly += 16;
    out.push(
      `<rect x="${f(lx)}" y="${ly - 9}" width="9" height="9" fill="${c}" stroke="#222" stroke-width="0.5"/><text x="${f(lx + 16)}" y="${ly}" font-size="11">${g}</text>`,
    );
  }
  ly += 28;
  out.push(`<text x="${f(lx)}" y="${ly}" font-size="13" font-weight="bold">Stations</text>`);
  for (const pl of players) {
    ly += 16;
    out.push(
      `<rect x="${f(lx)}" y="${ly - 10}" width="10" height="10" fill="${STATION_COLOURS[pl.colour] ?? '#fff'}" stroke="#000"/><text x="${f(lx + 16)}" y="${ly}" font-size="11">seat ${pl.seat + 1} (${pl.colour})</text>`,
    );
  }
  ly += 28;
  out.push(`<text x="${f(lx)}" y="${ly}" font-size="11">Track tiles left: ${view.tilesLeft}</text>`);
  ly += 16;
  out.push(`<text x="${f(lx)}" y="${ly}" font-size="11">${esc(String(view.status))}</text>`);
  out.push('</svg>');
  return out.join('');
}
