// Strips: parts of a board's per-mail markup drawn only over the rows of the
// picture they paint, instead of on a canvas the size of the whole picture
// (whose cost alone is a few milliseconds a mail).
//
// A strip is full width and covers the rows its markup can reach (boxes from
// text-lift.ts), drawn with the same root attributes to inherit and the same
// scale as the whole document, moved up by a whole number of pixel rows.
// (resvg places anti-aliased edges, glyphs above all, a little differently
// when moved; the shapes are the same.) All strips a mail needs are drawn in
// one resvg call, stacked in one tall canvas.
//
// Text sprites are strips of one plain text each, kept between mails: most
// of a board's per-mail text reads the same from one mail to the next, and
// filling glyphs is most of what drawing costs.
import { layerOf, raster, type Fit, type Layer } from './raster';
import type { Box, Lifted } from './text-lift';

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
  /** The font size a text with none of its own may inherit (for text-lift's boxes). */
  fontSize: number;
}

const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const VIEWPORT = new Set(['xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'x', 'y', 'version']);

/** The mapping for a document's root element as drawn with `fit`, or null if it is not a plain, evenly scaled one. */
export function frameOf(rootTag: string, fit: Fit): Frame | null {
  const attrs = new Map<string, string>();
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(rootTag); m; m = ATTR.exec(rootTag)) attrs.set(m[1]!, m[2] ?? m[3] ?? '');
  const size = (v: string | undefined) => (v !== undefined && /^\s*\d+(\.\d+)?\s*(px)?\s*$/.test(v) ? parseFloat(v) : null);
  const w = size(attrs.get('width'));
  const h = size(attrs.get('height'));
  const vb = (attrs.get('viewBox') ?? (w && h ? `0 0 ${w} ${h}` : '')).trim().split(/[\s,]+/).map(Number);
  if (!w || !h || vb.length !== 4 || !vb.every(Number.isFinite) || vb[2]! <= 0 || vb[3]! <= 0) return null;
  if (attrs.has('preserveAspectRatio') || Math.abs(w / h - vb[2]! / vb[3]!) > 1e-9 * (w / h)) return null;
  if (attrs.has('style') || attrs.has('class') || attrs.has('transform')) return null;
  const width = fit.mode === 'width' ? fit.value : w;
  if (!Number.isInteger(width)) return null;
  const inherit = [...attrs].filter(([k]) => !VIEWPORT.has(k)).map(([k, v]) => `${k}="${v.replace(/"/g, '&quot;')}"`).join(' ');
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

// Sprites, most recently used last, bounded by their total size.
const SPRITE_BYTES = 16 * 1024 * 1024;
const sprites = new Map<string, { bytes: number; layer: Promise<StripLayer> }>();
let spriteBytes = 0;
let spriteRenders = 0;

/** Forgets every sprite (for the bench's cold figures and for tests). */
export function clearSprites(): void {
  sprites.clear();
  spriteBytes = 0;
}

/** How many sprites were drawn since start (tests check the cache with it). */
export function spriteRenderCount(): number {
  return spriteRenders;
}

/** Markup drawn into a strip of the picture's rows. */
export interface Strip {
  markup: string;
  /** Where it paints, in user units (see text-lift.ts). */
  box: Box;
  /** Keep it for later mails (a text sprite) or draw it for this mail only. */
  keep: boolean;
  /** The picture rows it covers, when already known (else from its box). */
  rows?: [number, number];
}

/** A drawn strip; `clipped` when it paints on its edge rows, so its box may have cut some of it off. */
export interface StripLayer extends Layer {
  clipped: boolean;
}

/** The picture rows [from, to) a box can reach, a row of margin each side. */
function rowsOf(box: Box, f: Frame): [number, number] {
  const y = f.viewBox[1];
  const from = Math.max(0, Math.floor((box[1] - y) * f.scale) - 1);
  const to = Math.min(f.height, Math.ceil((box[3] - y) * f.scale) + 1);
  return [from, Math.max(from, to)];
}

/**
 * Elements with known boxes as strips whose rows do not meet: each holds the
 * elements whose rows meet, in document order. Elements in different strips
 * paint different rows, so the strips may be stacked in any order.
 */
export function stripsOf(elements: Lifted[], f: Frame): Strip[] {
  const spans = elements.map((e, i) => ({ i, rows: rowsOf(e.box, f) })).sort((a, b) => a.rows[0] - b.rows[0]);
  const groups: { rows: [number, number]; members: number[] }[] = [];
  for (const s of spans) {
    const last = groups[groups.length - 1];
    if (last && s.rows[0] < last.rows[1]) {
      last.rows[1] = Math.max(last.rows[1], s.rows[1]);
      last.members.push(s.i);
    } else groups.push({ rows: [...s.rows], members: [s.i] });
  }
  const y = f.viewBox[1];
  return groups.map((g) => ({
    markup: g.members.sort((a, b) => a - b).map((i) => elements[i]!.markup).join(''),
    box: [f.viewBox[0], y + g.rows[0] / f.scale, f.viewBox[0] + f.viewBox[2], y + g.rows[1] / f.scale],
    keep: false,
    rows: g.rows,
  }));
}

interface Pending {
  strip: Strip;
  rows: [number, number];
  resolve: (l: StripLayer) => void;
  reject: (e: unknown) => void;
}

/**
 * Every strip as a layer, in the order given: kept sprites from the cache,
 * all the others drawn in one resvg call. `defs` are the document's
 * definitions (gradients and the like) the strips may refer to.
 */
export async function drawStrips(strips: Strip[], f: Frame, defs: string): Promise<StripLayer[]> {
  const pending: Pending[] = [];
  const seen = new Map<string, Promise<StripLayer>>();
  const draw = (strip: Strip) => {
    let resolve!: (l: StripLayer) => void;
    let reject!: (e: unknown) => void;
    const layer = new Promise<StripLayer>((res, rej) => ((resolve = res), (reject = rej)));
    pending.push({ strip, rows: strip.rows ?? rowsOf(strip.box, f), resolve, reject });
    return layer;
  };
  const layers = strips.map((strip) => {
    if (!strip.keep) return draw(strip);
    const key = `${f.key}\n${strip.markup}`;
    const known = seen.get(key);
    if (known) return known;
    const hit = sprites.get(key);
    if (hit) {
      sprites.delete(key);
      sprites.set(key, hit);
      seen.set(key, hit.layer);
      return hit.layer;
    }
    spriteRenders++;
    const layer = draw(strip);
    const entry = { bytes: 0, layer };
    sprites.set(key, entry);
    seen.set(key, layer);
    layer.then(
      (l) => {
        if (sprites.get(key) !== entry) return;
        entry.bytes = l.pixels.length + 64;
        spriteBytes += entry.bytes;
        for (const [k, v] of sprites) {
          if (spriteBytes <= SPRITE_BYTES || k === key) break;
          sprites.delete(k);
          spriteBytes -= v.bytes;
        }
      },
      () => {
        if (sprites.get(key) === entry) sprites.delete(key);
      },
    );
    return layer;
  });
  if (pending.length) drawSheet(pending, f, defs);
  return Promise.all(layers);
}

/**
 * Draws strips stacked in one canvas, each moved to its own rows (a group
 * transform, not a nested viewport: resvg would clip each with a mask the
 * size of the canvas). Paint that strays beyond a strip's rows shows on an
 * edge row, of its own strip and of a neighbour, and marks both clipped.
 */
function drawSheet(list: Pending[], f: Frame, defs: string): void {
  const [vx, vy] = f.viewBox;
  let total = 0;
  const slots = list.map((m) => {
    const at = total;
    total += m.rows[1] - m.rows[0];
    return at;
  });
  const body = list
    .map((m, i) => {
      const rows = m.rows[1] - m.rows[0];
      if (rows === 0) return '';
      // user point p lands on sheet row slot + (p.y - vy) * scale - rows[0]
      return `<g transform="translate(${-vx * f.scale} ${slots[i]! - m.rows[0] - vy * f.scale}) scale(${f.scale})">${m.strip.markup}</g>`;
    })
    .join('');
  const height = Math.max(1, total);
  const doc = `<svg xmlns="http://www.w3.org/2000/svg" width="${f.width}" height="${height}" viewBox="0 0 ${f.width} ${height}" ${f.inherit}>${defs}${body}</svg>`;
  raster(doc, { mode: 'original' }, false)
    .then((sheet) => {
      if (sheet.width !== f.width) throw new Error('strips drawn at another width');
      const stride = f.width * 4;
      list.forEach((m, i) => {
        const rows = m.rows[1] - m.rows[0];
        const pixels = Buffer.from(sheet.pixels.subarray(slots[i]! * stride, (slots[i]! + rows) * stride));
        const layer = layerOf({ pixels, width: f.width, height: rows }, m.rows[0]);
        // paint on the first or last row may go on beyond it: the box was too small
        const edge = (r: number) => rows > 0 && layer.spans[2 * r + 1]! > 0;
        m.resolve({ ...layer, clipped: (m.rows[0] > 0 && edge(0)) || (m.rows[1] < f.height && edge(rows - 1)) });
      });
    })
    .catch((err) => list.forEach((m) => m.reject(err)));
}
