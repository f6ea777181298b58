// Sprites: the lifted elements of a board's per-mail parts (see lift.ts),
// each drawn once and kept, so a mail draws only what no mail before it drew.
//
// A sprite covers the rows of the picture its element can reach, drawn with
// the same root attributes to inherit and the same scale as the whole
// document, moved up by a whole number of pixel rows, then cut to the
// columns it paints. (resvg places anti-aliased edges, glyphs above all, a
// little differently when moved; at whole-pixel scales the pixels are the
// same.) All sprites a mail lacks are drawn in one resvg call, stacked in one
// tall canvas: a canvas the size of the picture alone costs a few
// milliseconds.
import { Kept } from './kept.ts';
import { cropRows, layerOf, raster, type Fit, type Layer } from './raster.ts';
import type { Box, Lifted } from './lift.ts';

/** How a document's user units map to the picture's pixels. */
export interface Frame {
  /** Identifies the mapping and what texts inherit, for the cache. */
  key: string;
  /** Root attributes other than the viewport's (font-family and the like). */
  inherit: string;
  viewBox: [number, number, number, number];
  /** Pixels per user unit. */
  scale: number;
  /** The picture's width and (at most) height in pixels. */
  width: number;
  height: number;
  /** The font size a text with none of its own may inherit (for lift.ts's boxes). */
  fontSize: number;
}

const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const VIEWPORT = new Set(['xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'x', 'y', 'version']);

/** The mapping for a document's root element as drawn with `fit`, or null if it is not a plain, evenly scaled one. */
export function frameOf(rootTag: string, fit: Fit): Frame | null {
  const attrs = new Map<string, string>();
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(rootTag); m; m = ATTR.exec(rootTag)) attrs.set(m[1]!, m[2] ?? m[3] ?? '');
  const size = (v: string | undefined) =>
    v !== undefined && /^\s*\d+(\.\d+)?\s*(px)?\s*$/.test(v) ? parseFloat(v) : null;
  const w = size(attrs.get('width'));
  const h = size(attrs.get('height'));
  const vb = (attrs.get('viewBox') ?? (w && h ? `0 0 ${w} ${h}` : ''))
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (!w || !h || vb.length !== 4 || !vb.every(Number.isFinite) || vb[2]! <= 0 || vb[3]! <= 0) return null;
  if (attrs.has('preserveAspectRatio') || Math.abs(w / h - vb[2]! / vb[3]!) > 1e-9 * (w / h)) return null;
  if (attrs.has('style') || attrs.has('class') || attrs.has('transform')) return null;
  const width = fit.mode === 'width' ? fit.value : w;
  if (!Number.isInteger(width)) return null;
  const inherit = [...attrs]
    .filter(([k]) => !VIEWPORT.has(k))
    .map(([k, v]) => `${k}="${v.replace(/"/g, '&quot;')}"`)
    .join(' ');
  const fontSize = Number(attrs.get('font-size'));
  const scale = width / vb[2]!;
  return {
    key: `${width} ${vb.join(' ')} ${inherit}`,
    inherit,
    viewBox: vb as Frame['viewBox'],
    scale,
    width,
    height: Math.ceil(vb[3]! * scale),
    fontSize: Number.isFinite(fontSize) && fontSize > 0 ? fontSize : 16, // resvg's own default is smaller
  };
}

// Sprites by frame and markup.
const sprites = new Kept<Promise<Sprite>>(32 * 1024 * 1024);
let spriteRenders = 0;

/** Forgets every sprite (for the bench's cold figures and for tests). */
export function clearSprites(): void {
  sprites.clear();
}

/** How many sprites were drawn since start (tests check the cache with it). */
export function spriteRenderCount(): number {
  return spriteRenders;
}

/** A drawn sprite; `clipped` when it paints on the edge rows of its box, which may have cut some of it off. */
export interface Sprite extends Layer {
  clipped: boolean;
}

/**
 * The picture rows [from, to) a box can reach, a row of margin each side;
 * rows above or below the picture included, so that what an element paints
 * off the picture stays in its own rows of the sheet.
 */
export function rowsOf(box: Box, f: Frame): [number, number] {
  const y = f.viewBox[1];
  const from = Math.floor((box[1] - y) * f.scale) - 1;
  const to = Math.ceil((box[3] - y) * f.scale) + 1;
  return [from, Math.max(from, to)];
}

interface Pending {
  item: Lifted;
  key: string;
  rows: [number, number];
  resolve: (l: Sprite) => void;
  reject: (e: unknown) => void;
}

/**
 * The sprite of every lifted element, in the order given: from the cache,
 * or drawn, all the missing ones in one resvg call.
 */
export async function drawSprites(items: Lifted[], f: Frame): Promise<Sprite[]> {
  const pending: Pending[] = [];
  const layers = items.map((item) => {
    const key = `${f.key}\n${item.markup}`;
    const hit = sprites.get(key);
    if (hit) return hit;
    spriteRenders++;
    let resolve!: (l: Sprite) => void;
    let reject!: (e: unknown) => void;
    const layer = new Promise<Sprite>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    pending.push({ item, key, rows: rowsOf(item.box, f), resolve, reject });
    return sprites.setMaking(key, layer, (l) => l.pixels.length + 8 * l.height + key.length + 64);
  });
  if (pending.length) drawSheet(pending, f);
  return Promise.all(layers);
}

/**
 * Draws sprites stacked in one canvas, each moved to its own rows (a group
 * transform, not a nested viewport: resvg would clip each with a mask the
 * size of the canvas), then cuts each out to the columns it paints. Paint
 * that strays beyond a sprite's rows shows on an edge row, of its own rows
 * and of a neighbour's, and marks both clipped.
 */
function drawSheet(list: Pending[], f: Frame): void {
  const [vx, vy] = f.viewBox;
  let total = 0;
  const slots = list.map((m) => {
    const at = total;
    total += m.rows[1] - m.rows[0];
    return at;
  });
  const body = list
    .map((m, i) => {
      if (m.rows[1] === m.rows[0]) return '';
      // user point p lands on sheet row slot + (p.y - vy) * scale - rows[0]
      return `<g transform="translate(${-vx * f.scale} ${slots[i]! - m.rows[0] - vy * f.scale}) scale(${f.scale})">${m.item.markup}</g>`;
    })
    .join('');
  const height = Math.max(1, total);
  const doc = `<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${height}" viewBox="0 0 ${f.width} ${height}" ${f.inherit}>${body}</svg>`;
  raster(doc, { mode: 'original' }, false)
    .then((drawn) => {
      if (drawn.width !== f.width) throw new Error('sprites drawn at another width');
      const sheet = layerOf(drawn);
      list.forEach((m, i) => {
        const rows = m.rows[1] - m.rows[0];
        const cut = cropRows(sheet, slots[i]!, slots[i]! + rows);
        const edge = (r: number) => rows > 0 && sheet.spans[2 * (slots[i]! + r) + 1]! > 0;
        m.resolve({ ...cut, top: m.rows[0], key: m.key, clipped: edge(0) || edge(rows - 1) });
      });
    })
    .catch((err) => {
      for (const m of list) m.reject(err);
    });
}
