// The picture of the board in a mail: the game's SVG rasterised to PNG, since
// most mail clients drop inline SVG.
//
// Speed: resvg parses and rasterises on libuv's thread pool (renderAsync), so
// a big board never blocks the server's event loop; the PNG is encoded here
// with a fast deflate (level 1, no row filter), which for flat board colours
// is both smaller and several times faster than resvg's own encoder. Boards
// wider than MAX_PNG_WIDTH are scaled down to the mail's 640 px column.
// A small cache keyed by the SVG text serves the same picture to every seat
// that sees the same board, and to a reminder for a position already mailed.
// resvg has no system-font cache between renders, so it gets one small
// sans-serif font file, found once.
//
// Static layers: most of a board never changes during a game (hexes, city
// names, route lines, printed values), and drawing its text is most of the
// cost. A game may mark such parts as top-level groups
//   <g data-static="airlines/map/980x812">...</g>
// The first one comes right after the background; the document's children
// before it (the background) belong to it. Each static layer is rasterised
// once, on its own, at the mail's output size, and cached by its key and a
// hash of its whole text (root element included), so a changed board never
// serves a stale layer and a layer can only be shared by documents that
// contain exactly the same text: a seat's private view can never leak through
// the cache. The parts between static groups are rasterised per mail on a
// transparent canvas, and the layers are stacked with the "over" operator in
// document order. Over is associative, so the result is the picture of the
// whole document up to rounding of the 8-bit channels.
// Rules for a static group: a direct child of the root <svg>; self-contained
// (no references to ids outside it, nothing outside referring into it);
// only public things that are the same for every seat at every move.
import { renderAsync } from '@resvg/resvg-js';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflate = promisify(zlib.deflate);

const FONT_CANDIDATES = [
  // Small files shape fastest; any one sans-serif face will do for a board.
  { file: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', family: 'Liberation Sans' },
  { file: '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf', family: 'Liberation Sans' },
  { file: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', family: 'DejaVu Sans' },
  { file: '/usr/share/fonts/dejavu/DejaVuSans.ttf', family: 'DejaVu Sans' },
  { file: '/Library/Fonts/Arial.ttf', family: 'Arial' },
  { file: 'C:\\Windows\\Fonts\\arial.ttf', family: 'Arial' },
];

type FontOptions = NonNullable<NonNullable<Parameters<typeof renderAsync>[1]>['font']>;
let fontOptions: FontOptions | null = null;

function fonts(): FontOptions {
  if (fontOptions) return fontOptions;
  const found = FONT_CANDIDATES.find((c) => existsSync(c.file));
  fontOptions = found
    ? { loadSystemFonts: false, fontFiles: [found.file], defaultFontFamily: found.family, sansSerifFamily: found.family }
    : { loadSystemFonts: true };
  return fontOptions;
}

/**
 * Widest picture we put in a mail; wider boards are scaled down. The mail
 * layout's content column is 640 px, so a wider image would only be shrunk
 * by the mail client after costing more to draw, encode and download.
 */
export const MAX_PNG_WIDTH = 640;

/** The width the root <svg> element declares (px), or null. */
export function svgWidth(svg: string): number | null {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0];
  if (!root) return null;
  const w = /\swidth\s*=\s*["']\s*([\d.]+)\s*(px)?\s*["']/i.exec(root);
  if (w) return Number(w[1]);
  const vb = /\sviewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)/i.exec(root);
  return vb ? Number(vb[1]) : null;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** RGBA rows as a PNG's image data wants them: each row led by its filter byte (0, none). */
function pngRows(rgba: Buffer, width: number, height: number): Buffer {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return raw;
}

async function encodeRows(raw: Buffer, width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const idat = await deflate(raw, { level: 1 });
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** Encodes RGBA pixels as a PNG (8-bit RGBA, no row filter, deflate level 1). */
export async function encodePng(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  return encodeRows(pngRows(rgba, width, height), width, height);
}

const CACHE_SIZE = 64;
const cache = new Map<string, Buffer>();

/** Rendered pixels: premultiplied RGBA, 8 bits a channel (as resvg gives them). */
export interface Pixels {
  pixels: Buffer;
  width: number;
  height: number;
}

function fitTo(svg: string): { mode: 'width'; value: number } | { mode: 'original' } {
  const width = svgWidth(svg);
  return width !== null && width > MAX_PNG_WIDTH ? { mode: 'width', value: MAX_PNG_WIDTH } : { mode: 'original' };
}

async function raster(svg: string, fit: ReturnType<typeof fitTo>, opaque: boolean): Promise<Pixels> {
  const image = await renderAsync(svg, { font: fonts(), fitTo: fit, ...(opaque ? { background: '#ffffff' } : {}) });
  return { pixels: image.pixels, width: image.width, height: image.height };
}

/** One piece of the document in painting order: a cached static layer or a part drawn per mail. */
interface Piece {
  kind: 'static' | 'dynamic';
  /** The data-static key (static pieces). */
  key: string;
  /** A standalone document holding only this piece. */
  svg: string;
}

const STATIC_OPEN = /<g\s+data-static\s*=\s*"([^"]*)"[^>]*>/g;
const G_TAG = /<g\b[^>]*?(\/?)>|<\/g\s*>/g;

/**
 * Splits a document at its static groups; null when it has none (or they
 * are not well formed, in which case the document is drawn in one piece).
 */
export function splitLayers(svg: string): Piece[] | null {
  if (!svg.includes('data-static')) return null;
  const root = /<svg\b[^>]*>/i.exec(svg);
  const close = svg.lastIndexOf('</svg>');
  if (!root || close < 0) return null;
  const rootTag = root[0];
  const bodyStart = root.index + rootTag.length;
  // Paint servers, markers and the like declared before the first static
  // group are copied into every piece, so the parts drawn per mail keep them.
  const groups: { key: string; start: number; end: number }[] = [];
  STATIC_OPEN.lastIndex = bodyStart;
  for (let m = STATIC_OPEN.exec(svg); m && m.index < close; m = STATIC_OPEN.exec(svg)) {
    if (groups.length && m.index < groups[groups.length - 1]!.end) return null; // nested
    let depth = 1;
    G_TAG.lastIndex = m.index + m[0].length;
    let end = -1;
    for (let t = G_TAG.exec(svg); t; t = G_TAG.exec(svg)) {
      if (t[0][1] === '/') depth--;
      else if (t[1] !== '/') depth++;
      if (depth === 0) {
        end = t.index + t[0].length;
        break;
      }
    }
    if (end < 0 || end > close) return null;
    groups.push({ key: m[1]!, start: m.index, end });
    STATIC_OPEN.lastIndex = end;
  }
  if (!groups.length) return null;
  const prefix = svg.slice(bodyStart, groups[0]!.start);
  const defs = (prefix.match(/<defs\b[\s\S]*?<\/defs>/g) ?? []).join('');
  const doc = (inner: string) => `${rootTag}${defs}${inner}</svg>`;
  const pieces: Piece[] = [];
  groups.forEach((g, i) => {
    const body = svg.slice(g.start, g.end);
    pieces.push({ kind: 'static', key: g.key, svg: i === 0 ? `${rootTag}${prefix}${body}</svg>` : doc(body) });
    const rest = svg.slice(g.end, i + 1 < groups.length ? groups[i + 1]!.start : close);
    if (rest.trim()) pieces.push({ kind: 'dynamic', key: '', svg: doc(rest) });
  });
  return pieces;
}

// Static layers as rendered pixels (the first one on white, the others
// transparent), most recently used last, bounded by their total size.
const LAYER_BYTES = 64 * 1024 * 1024;
interface Layer extends Pixels {
  spans: Int32Array;
}
const layers = new Map<string, { bytes: number; pixels: Promise<Layer> }>();
let layerBytes = 0;
let layerRenders = 0;

function staticLayer(piece: Piece, fit: ReturnType<typeof fitTo>, opaque: boolean): Promise<Layer> {
  const id = `${piece.key}\n${opaque ? 'o' : 't'}${JSON.stringify(fit)}\n${createHash('sha1').update(piece.svg).digest('base64')}`;
  const hit = layers.get(id);
  if (hit) {
    layers.delete(id);
    layers.set(id, hit);
    return hit.pixels;
  }
  layerRenders++;
  const entry = { bytes: 0, pixels: raster(piece.svg, fit, opaque).then((p) => ({ ...p, spans: opaque ? new Int32Array(0) : rowSpans(p) })) };
  layers.set(id, entry);
  entry.pixels.then(
    (p) => {
      if (layers.get(id) !== entry) return;
      entry.bytes = p.pixels.length;
      layerBytes += entry.bytes;
      for (const [k, v] of layers) {
        if (layerBytes <= LAYER_BYTES || k === id) break;
        layers.delete(k);
        layerBytes -= v.bytes;
      }
    },
    () => {
      if (layers.get(id) === entry) layers.delete(id);
    },
  );
  return entry.pixels;
}

/** Forgets every cached static layer (for the bench's cold figures and for tests). */
export function clearLayerCache(): void {
  layers.clear();
  layerBytes = 0;
}

/** How many static layers were rasterised since start (tests check the cache with it). */
export function layerRenderCount(): number {
  return layerRenders;
}

/** Pixels as 32-bit words (copied when the bytes are not 4-aligned). */
function words(b: Buffer): Uint32Array {
  if (b.byteOffset % 4 !== 0) b = Buffer.from(Uint8Array.prototype.slice.call(b));
  return new Uint32Array(b.buffer, b.byteOffset, b.length >> 2);
}

/**
 * Where each row has paint: for row y, pixels [spans[2y], spans[2y+1]).
 * Empty rows are found by a native compare against a row of zeros, so a
 * sparse layer costs little to scan.
 */
function rowSpans(p: Pixels): Int32Array {
  const { width, height } = p;
  const stride = width * 4;
  const zero = Buffer.alloc(stride);
  const w = words(p.pixels);
  const spans = new Int32Array(2 * height);
  for (let y = 0; y < height; y++) {
    if (p.pixels.compare(zero, 0, stride, y * stride, (y + 1) * stride) === 0) continue;
    let from = y * width;
    let to = from + width;
    while (w[from] === 0) from++;
    while (w[to - 1] === 0) to--;
    spans[2 * y] = from - y * width;
    spans[2 * y + 1] = to - y * width;
  }
  return spans;
}

/**
 * Paints premultiplied `top` over `dst` in place (Porter-Duff over), only
 * where `spans` say it has paint. `dst` holds rows of `dstStride` bytes, each
 * starting `pad` bytes in (a PNG's rows have a filter byte first).
 */
function over(dst: Buffer, dstStride: number, pad: number, top: Pixels, spans: Int32Array = rowSpans(top)): void {
  const { width, height } = top;
  const src = top.pixels;
  const w = words(src);
  for (let y = 0; y < height; y++) {
    const end = y * width + spans[2 * y + 1]!;
    const shift = y * dstStride + pad - y * width * 4; // dst index - src index on this row
    for (let j = y * width + spans[2 * y]!; j < end; j++) {
      if (w[j] === 0) continue;
      const i = j << 2;
      const o = i + shift;
      const a = src[i + 3]!;
      if (a === 255) {
        dst[o] = src[i]!;
        dst[o + 1] = src[i + 1]!;
        dst[o + 2] = src[i + 2]!;
        dst[o + 3] = 255;
        continue;
      }
      const k = 255 - a;
      dst[o] = src[i]! + (((dst[o]! * k + 127) / 255) | 0);
      dst[o + 1] = src[i + 1]! + (((dst[o + 1]! * k + 127) / 255) | 0);
      dst[o + 2] = src[i + 2]! + (((dst[o + 2]! * k + 127) / 255) | 0);
      dst[o + 3] = a + (((dst[o + 3]! * k + 127) / 255) | 0);
    }
  }
}

/**
 * Rasterises a document on white at the mail's size, reusing its cached
 * static layers when it marks any (see the top of this file), straight into
 * a PNG's rows (no extra copy of the picture).
 */
async function renderRows(svg: string, layered: boolean): Promise<{ raw: Buffer; width: number; height: number }> {
  const fit = fitTo(svg);
  const pieces = layered ? splitLayers(svg) : null;
  const whole = async () => {
    const p = await raster(svg, fit, true);
    return { raw: pngRows(p.pixels, p.width, p.height), width: p.width, height: p.height };
  };
  if (!pieces) return whole();
  const drawn: (Pixels & { spans?: Int32Array })[] = await Promise.all(
    pieces.map((p, i) => (p.kind === 'static' ? staticLayer(p, fit, i === 0) : raster(p.svg, fit, false))),
  );
  const base = drawn[0]!;
  if (drawn.some((d) => d.width !== base.width || d.height !== base.height)) return whole();
  const raw = pngRows(base.pixels, base.width, base.height);
  for (const d of drawn.slice(1)) over(raw, base.width * 4 + 1, 1, d, d.spans);
  return { raw, width: base.width, height: base.height };
}

/** The picture as packed RGBA pixels (for tests and tools; mail uses svgToPng). */
export async function renderPixels(svg: string, opts: { layers?: boolean } = {}): Promise<Pixels> {
  const { raw, width, height } = await renderRows(svg, opts.layers !== false);
  const stride = width * 4;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) raw.copy(pixels, y * stride, y * (stride + 1) + 1, (y + 1) * (stride + 1));
  return { pixels, width, height };
}

/** Renders a standalone SVG document to PNG bytes. Rejects on an SVG resvg cannot parse. */
export async function svgToPng(svg: string, opts: { cache?: boolean; layers?: boolean } = {}): Promise<Buffer> {
  const useCache = opts.cache !== false;
  const key = useCache ? createHash('sha1').update(svg).digest('base64') : '';
  const hit = useCache ? cache.get(key) : undefined;
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const image = await renderRows(svg, opts.layers !== false);
  const png = await encodeRows(image.raw, image.width, image.height);
  if (useCache) {
    cache.set(key, png);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return png;
}
