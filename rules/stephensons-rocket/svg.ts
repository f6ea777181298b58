// The board as a standalone SVG document (pure): hexes, towns and cities with
// the goods they still hold, track, locomotives with their facing, stations.
import type { View } from '../types.ts';
import { board } from './board.ts';
import { escapeMarkup as esc } from '../escape.ts';
import { boardArea, MAIL_MIN_TEXT, MAIL_WIDTH, type PictureTarget } from '../picture.ts';

const ROOT3 = Math.sqrt(3);
/** Track joined to no line (left behind when a line that absorbed others leaves its start town). */
const LOOSE_TRACK = '#8a8a8a';

/**
 * Where the hexes go. A page: hexes of 21 px with the legend beside the map. A mail: the map as
 * wide as the mail's column (the legend below it), hex coordinates at the rows' and columns' ends
 * instead of in every hex, and the words at least MAIL_MIN_TEXT px.
 */
interface Frame {
  mail: boolean;
  S: number;
  X: number[];
  Y: number[];
  mapW: number;
  mapH: number;
  width: number;
  height: number;
  /** Font sizes: place names, hex coordinates, legend text, legend headings. */
  name: number;
  hexId: number;
  small: number;
  heading: number;
}

function frameFor(target: PictureTarget): Frame {
  const mail = target === 'mail';
  const span = (q: number[]) => Math.max(...q) - Math.min(...q);
  const qx = board.q.map((q, i) => q + board.r[i]! / 2);
  const pad = mail ? 24 : 30;
  const S = mail ? (MAIL_WIDTH - 2 * pad) / (ROOT3 * span(qx) + 2) : 21;
  const rawX = qx.map((x) => S * ROOT3 * x);
  const rawY = board.r.map((r) => S * 1.5 * r);
  const minX = Math.min(...rawX) - S;
  const minY = Math.min(...rawY) - S;
  const X = rawX.map((x) => x - minX + pad);
  const Y = rawY.map((y) => y - minY + pad);
  const mapW = Math.max(...X) + S + pad;
  const mapH = Math.max(...Y) + S + pad;
  return mail
    ? {
        mail,
        S,
        X,
        Y,
        mapW,
        mapH,
        width: MAIL_WIDTH,
        height: mapH,
        name: 12,
        hexId: MAIL_MIN_TEXT,
        small: 13,
        heading: 15,
      }
    : {
        mail,
        S,
        X,
        Y,
        mapW,
        mapH,
        width: mapW + 230,
        height: Math.max(mapH, 520),
        name: 8.5,
        hexId: 7,
        small: 11,
        heading: 13,
      };
}

const frames: Partial<Record<PictureTarget, Frame>> = {};
const frameOf = (target: PictureTarget) => (frames[target] ??= frameFor(target));

/** A mail's place name: the first word of a long name of several ("Merthyr", "Burton"). */
function shortName(name: string): string {
  const words = name.split(/\s+/);
  return name.length > 10 && words.length > 1 ? words[0]! : name;
}

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
function corner(fr: Frame, h: number, k: number): [number, number] {
  const a = (Math.PI / 180) * (60 * k - 30);
  return [fr.X[h]! + fr.S * Math.cos(a), fr.Y[h]! + fr.S * Math.sin(a)];
}
/** Midpoint of the side of hex h facing direction d. */
function side(fr: Frame, h: number, d: number): [number, number] {
  const a = (Math.PI / 180) * (60 * d);
  const m = (fr.S * ROOT3) / 2;
  return [fr.X[h]! + m * Math.cos(a), fr.Y[h]! + m * Math.sin(a)];
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

export function renderSvg(view: View, target: PictureTarget = 'page'): string {
  const fr = frameOf(target);
  const { X, Y, S } = fr;
  const lines = view.lines as ViewLine[];
  const colourOf = new Map(lines.map((l) => [l.id, l.colour]));
  const tiles = view.tiles as { hex: string; line: string | null; sides: number[] }[];
  const cities = view.cities as { id: string; goods: string[] }[];
  const players = view.players as ViewPlayer[];
  const you = typeof view.seat === 'number' ? view.seat : null;
  const legend = fr.mail ? mailLegend(view, lines, players, you, fr) : null;
  const WIDTH = Math.round(fr.width);
  const HEIGHT = Math.round(legend ? fr.mapH + legend.height : fr.height);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif"${legend ? boardArea(0, 0, WIDTH, Math.round(fr.mapH)) : ''}>`,
  );
  out.push(`<rect width="100%" height="100%" fill="#cfe3f3"/>`);
  // The printed board is marked static (server/mail/snapshot.ts draws it once a
  // game): the hexes here, the places and their names in a second group after
  // the track, which passes under them.
  const size = `${WIDTH}x${HEIGHT}`;
  out.push(`<g data-static="stephensons-rocket/hexes/${size}">`);
  board.hexIds.forEach((id, h) => {
    const pts = [0, 1, 2, 3, 4, 5].map((k) => corner(fr, h, k).map(f).join(',')).join(' ');
    out.push(`<polygon points="${pts}" fill="#eef3df" stroke="#b9c2a0" stroke-width="0.8"/>`);
    if (board.placeAt[h]! < 0 && !fr.mail)
      out.push(
        `<text x="${f(X[h]!)}" y="${f(Y[h]! + S * 0.75)}" font-size="${fr.hexId}" fill="#7d866c" text-anchor="middle">${id}</text>`,
      );
  });
  if (fr.mail) out.push(edgeLabels(fr));
  out.push('</g>');
  for (const t of tiles) {
    const h = board.hexIndex.get(t.hex)!;
    const [a, b] = [side(fr, h, t.sides[0]!), side(fr, h, t.sides[1]!)];
    out.push(
      `<path d="M${f(a[0])},${f(a[1])} Q${f(X[h]!)},${f(Y[h]!)} ${f(b[0])},${f(b[1])}" fill="none" stroke="${(t.line && colourOf.get(t.line)) || LOOSE_TRACK}" stroke-width="${fr.mail ? f(S * 0.29) : 6}" stroke-linecap="round"/>`,
    );
  }
  const goodsLeft = new Map(cities.map((c) => [c.id, c.goods]));
  out.push(`<g data-static="stephensons-rocket/places/${size}">`);
  const names: string[] = [];
  board.places.forEach((p) => {
    const h = p.hex;
    const x = X[h]!,
      y = Y[h]!;
    if (p.kind === 'city') {
      out.push(
        `<circle cx="${f(x)}" cy="${f(y)}" r="${fr.mail ? f(S * 0.72) : S * 0.72}" fill="#fff2c4" stroke="#333" stroke-width="1.5"/>`,
      );
    } else if (p.kind === 'start') {
      const line = board.lines.find((l) => board.places[l.start]!.id === p.id)!;
      out.push(
        `<rect x="${f(x - S * 0.55)}" y="${f(y - S * 0.55)}" width="${f(S * 1.1)}" height="${f(S * 1.1)}" fill="#fff" stroke="${line.colour}" stroke-width="3"/>`,
      );
    } else {
      out.push(
        `<circle cx="${f(x)}" cy="${f(y)}" r="${fr.mail ? f(S * 0.42) : S * 0.42}" fill="#fff" stroke="#333" stroke-width="1.2"/>`,
      );
    }
    const west = board.neighbour[h]![3]!;
    const below = west >= 0 && board.placeAt[west]! >= 0; // a place just west: write this name below
    // a mail writes every name after every place, so that no circle covers a neighbour's name
    (fr.mail ? names : out).push(
      `<text x="${f(x)}" y="${f(below ? y + (fr.mail ? S * 0.8 + fr.name : S * 1.15) : y - S * 0.8)}" font-size="${fr.name}" text-anchor="middle" fill="#111" stroke="#eef3df" stroke-width="${fr.mail ? 3 : 2}" paint-order="stroke">${esc(fr.mail ? shortName(p.name) : p.name)}</text>`,
    );
  });
  out.push(...names, '</g>');
  // The goods a city still holds, on its circle.
  const g = fr.mail ? 8 : 6;
  board.places.forEach((p) => {
    if (p.kind !== 'city') return;
    const x = X[p.hex]!,
      y = Y[p.hex]!;
    const goods = goodsLeft.get(p.id) ?? [];
    goods.forEach((good, k) => {
      out.push(
        `<rect x="${f(fr.mail ? x - ((g + 1) * goods.length - 1) / 2 + k * (g + 1) : x - 10 + k * 7)}" y="${f(y - g / 2)}" width="${g}" height="${g}" fill="${GOOD_COLOURS[good]}" stroke="#222" stroke-width="0.5"/>`,
      );
    });
  });
  const st = fr.mail ? 14 : 12;
  for (const pl of players) {
    for (const id of pl.stations) {
      const h = board.hexIndex.get(id)!;
      const mine = fr.mail && pl.seat === you;
      out.push(
        `<rect x="${f(X[h]! - st / 2)}" y="${f(Y[h]! - st / 2)}" width="${st}" height="${st}" fill="${STATION_COLOURS[pl.colour] ?? '#fff'}" stroke="#000" stroke-width="${mine ? 3 : 1.2}"/>`,
      );
    }
  }
  const k = fr.mail ? S / 21 : 1;
  for (const l of lines) {
    if (!l.running || !l.loco) continue;
    const h = board.hexIndex.get(l.loco)!;
    const x = X[h]!,
      y = Y[h]!;
    if (l.atStart) {
      out.push(
        `<circle cx="${f(x)}" cy="${f(y)}" r="${fr.mail ? f(8 * k) : 8}" fill="${l.colour}" stroke="#fff" stroke-width="1.5"/>`,
      );
      continue;
    }
    const a = (Math.PI / 180) * 60 * l.facingDir;
    const tip = [x + 12 * k * Math.cos(a), y + 12 * k * Math.sin(a)];
    const l1 = [x + 8 * k * Math.cos(a + 2.3), y + 8 * k * Math.sin(a + 2.3)];
    const l2 = [x + 8 * k * Math.cos(a - 2.3), y + 8 * k * Math.sin(a - 2.3)];
    out.push(
      `<polygon points="${[tip, l1, l2].map((p) => p.map(f).join(',')).join(' ')}" fill="${l.colour}" stroke="#fff" stroke-width="1.5"/>`,
    );
  }
  if (legend) out.push(legend.svg);
  else out.push(pageLegend(view, lines, players, fr));
  out.push('</svg>');
  return out.join('');
}

/** Row letters at both ends of every row, column numbers above and below the map (a mail's coordinates). */
function edgeLabels(fr: Frame): string {
  const rows = new Map<string, { x0: number; x1: number; y: number }>();
  const cols = new Map<string, number>();
  board.hexIds.forEach((id, h) => {
    const letter = id[0]!;
    const row = rows.get(letter) ?? { x0: Infinity, x1: -Infinity, y: fr.Y[h]! };
    row.x0 = Math.min(row.x0, fr.X[h]!);
    row.x1 = Math.max(row.x1, fr.X[h]!);
    rows.set(letter, row);
    const n = id.slice(1);
    cols.set(n, Math.max(cols.get(n) ?? -Infinity, fr.X[h]!));
  });
  const out: string[] = [];
  const label = (x: number, y: number, t: string, anchor = 'middle') =>
    `<text x="${f(x)}" y="${f(y)}" font-size="${fr.hexId}" fill="#4d5a3a" text-anchor="${anchor}">${t}</text>`;
  const w = (fr.S * ROOT3) / 2;
  for (const [letter, r] of rows) {
    out.push(label(r.x0 - w - 2, r.y + 4, letter, 'end'));
    out.push(label(r.x1 + w + 2, r.y + 4, letter, 'start'));
  }
  for (const [n, x] of cols) {
    // a column zigzags by half a hex: its number sits between its two lines of hexes
    const cx = x - w / 2;
    out.push(label(cx, 14, n));
    out.push(label(cx, fr.mapH - 4, n));
  }
  return out.join('');
}

function pageLegend(view: View, lines: ViewLine[], players: ViewPlayer[], fr: Frame): string {
  const out: string[] = [];
  let ly = 30;
  const lx = fr.mapW + 5;
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
      `<rect x="${f(lx)}" y="${ly - 10}" width="10" height="10" fill="${STATION_COLOURS[pl.colour] ?? '#fff'}" stroke="#000"/><text x="${f(lx + 16)}" y="${ly}" font-size="11">{seat:${pl.seat}} (${pl.colour})</text>`,
    );
  }
  ly += 28;
  out.push(`<text x="${f(lx)}" y="${ly}" font-size="11">Track tiles left: ${view.tilesLeft}</text>`);
  ly += 16;
  out.push(`<text x="${f(lx)}" y="${ly}" font-size="11">${esc(String(view.status))}</text>`);
  return out.join('');
}

/** The legend below a mail's map, in two columns: lines and shares; goods, stations (yours marked), tiles, status. */
function mailLegend(
  view: View,
  lines: ViewLine[],
  players: ViewPlayer[],
  you: number | null,
  fr: Frame,
): { svg: string; height: number } {
  const out: string[] = [];
  const top = fr.mapH;
  const t = fr.small;
  const row = t + 8;
  const mine = you !== null ? players.find((p) => p.seat === you) : undefined;
  const shares = (mine as { shares?: Record<string, number> } | undefined)?.shares ?? {};
  let y = top + 22;
  out.push(`<text x="12" y="${y}" font-size="${fr.heading}" font-weight="bold">${esc(String(view.status))}</text>`);
  y += 10;
  let ly = y + 20;
  out.push(`<text x="12" y="${ly}" font-size="${fr.heading}" font-weight="bold">Lines (shares left)</text>`);
  for (const l of lines) {
    ly += row;
    const note = l.running ? `${l.supply}${l.isolated ? ', isolated' : ''}` : `absorbed by ${l.absorbedInto}`;
    const held = shares[l.id] ? `, you ${shares[l.id]}` : '';
    out.push(`<rect x="12" y="${ly - t + 2}" width="16" height="${t - 2}" fill="${l.colour}"/>`);
    out.push(
      `<text x="34" y="${ly}" font-size="${t}"${held ? ' font-weight="bold"' : ''}>${esc(l.id)} (${esc(note + held)})</text>`,
    );
  }
  const rx = 330;
  let ry = y + 20;
  out.push(`<text x="${rx}" y="${ry}" font-size="${fr.heading}" font-weight="bold">Stations</text>`);
  for (const pl of players) {
    ry += row;
    const me = pl.seat === you;
    out.push(
      `<rect x="${rx}" y="${ry - t + 1}" width="${t}" height="${t}" fill="${STATION_COLOURS[pl.colour] ?? '#fff'}" stroke="#000" stroke-width="${me ? 3 : 1}"/><text x="${rx + t + 8}" y="${ry}" font-size="${t}"${me ? ' font-weight="bold"' : ''}>{seat:${pl.seat}} (${pl.colour})${me ? ', you' : ''}</text>`,
    );
  }
  ry += row + 12;
  out.push(`<text x="${rx}" y="${ry}" font-size="${fr.heading}" font-weight="bold">Goods</text>`);
  Object.entries(GOOD_COLOURS).forEach(([g, c], i) => {
    const gx = rx + (i % 2) * 140;
    const gy = ry + row * (1 + Math.floor(i / 2));
    out.push(
      `<rect x="${gx}" y="${gy - t + 2}" width="${t - 2}" height="${t - 2}" fill="${c}" stroke="#222" stroke-width="0.5"/><text x="${gx + t + 4}" y="${gy}" font-size="${t}">${g}</text>`,
    );
  });
  ry += row * 3 + 4;
  out.push(`<text x="${rx}" y="${ry}" font-size="${t}">Track tiles left: ${esc(String(view.tilesLeft))}</text>`);
  const bottom = Math.max(ly, ry) + 16;
  return { svg: out.join(''), height: bottom - top };
}
