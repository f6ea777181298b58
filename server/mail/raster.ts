// Drawing an SVG document to pixels with resvg, and the pixel work the mail
// picture needs: where a layer has paint, and painting one layer over
// another.
//
// Two builds of the same resvg (2.6.2: the same pixels, byte for byte; test/mail/picture-pool.test.ts
// checks a board and a close-up drawn both ways):
// - the native one (@resvg/resvg-js) parses and rasterises on libuv's thread pool (renderAsync),
//   so a big board never blocks the event loop that called it. It can only be given font
//   *files*, and it reads the whole file again for every glyph it shapes or outlines (its font
//   database keeps a path, not the bytes): a close-up card's few hundred glyphs read the 140 KB
//   font a few hundred times, more than half the card's CPU.
// - the WebAssembly one (@resvg/resvg-wasm) takes the font's bytes, read once per thread here, and
//   reads no file; it draws on the calling thread. A picture worker (picture-worker.ts), whose
//   thread does nothing else, draws with it (useInThreadRenderer): there a mid-game 1830 close-up
//   took about 21 ms of CPU instead of 29 (the whole picture, PNG included), its board a third
//   less (test/bench/figures/closeup-cpu.ts). The event loop keeps the native build: the
//   WebAssembly one would block it for the whole drawing.
// resvg has no system-font cache between renders, so it gets one small sans-serif font, found once.
// Boards wider than MAX_PNG_WIDTH are scaled down to the mail's 640 px column.
import { renderAsync } from '@resvg/resvg-js';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { rowBytes } from './png.ts';

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
let fontFound: { file: string; family: string } | null | undefined;

function font(): { file: string; family: string } | null {
  if (fontFound === undefined) fontFound = FONT_CANDIDATES.find((c) => existsSync(c.file)) ?? null;
  return fontFound;
}

function fonts(): FontOptions {
  if (fontOptions) return fontOptions;
  const found = font();
  fontOptions = found
    ? {
        loadSystemFonts: false,
        fontFiles: [found.file],
        defaultFontFamily: found.family,
        sansSerifFamily: found.family,
      }
    : { loadSystemFonts: true };
  return fontOptions;
}

type Wasm = typeof import('@resvg/resvg-wasm');
interface InThread {
  Resvg: Wasm['Resvg'];
  font: { fontBuffers: Uint8Array[]; defaultFontFamily: string; sansSerifFamily: string };
}
/** The WebAssembly build, once this thread asked for it and it loaded; null: draw with the native one. */
let inThread: Promise<InThread | null> | null = null;

/**
 * Draw on this thread from now on, with resvg's WebAssembly build and the font's bytes read once:
 * for a thread that does nothing but draw (a picture worker). Loads the build (once); where it
 * cannot (no font file to give it: the native build then looks for system fonts), the native
 * build goes on drawing.
 */
export function useInThreadRenderer(): Promise<boolean> {
  inThread ??= (async () => {
    const found = font();
    if (!found) return null;
    const wasm: Wasm = await import('@resvg/resvg-wasm');
    await wasm.initWasm(readFileSync(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')));
    return {
      Resvg: wasm.Resvg,
      font: { fontBuffers: [readFileSync(found.file)], defaultFontFamily: found.family, sansSerifFamily: found.family },
    };
  })();
  return inThread.then((w) => w !== null);
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

/** Rendered pixels: premultiplied RGBA, 8 bits a channel (as resvg gives them). */
export interface Pixels {
  pixels: Buffer;
  width: number;
  height: number;
}

export type Fit = { mode: 'width'; value: number } | { mode: 'original' };

/** How a document is scaled to the mail: wide boards to MAX_PNG_WIDTH, others as they are. */
export function fitTo(svg: string): Fit {
  const width = svgWidth(svg);
  return width !== null && width > MAX_PNG_WIDTH ? { mode: 'width', value: MAX_PNG_WIDTH } : { mode: 'original' };
}

/** Draws a document (on white when opaque, else on a transparent canvas). */
export async function raster(svg: string, fit: Fit, opaque: boolean): Promise<Pixels> {
  const background = opaque ? { background: '#ffffff' } : {};
  const here = inThread ? await inThread : null;
  if (here) {
    const resvg = new here.Resvg(svg, { font: here.font, fitTo: fit, ...background });
    try {
      const image = resvg.render();
      try {
        const { pixels } = image;
        return {
          pixels: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength),
          width: image.width,
          height: image.height,
        };
      } finally {
        image.free(); // its memory is the module's, not the garbage collector's
      }
    } finally {
      resvg.free();
    }
  }
  const image = await renderAsync(svg, { font: fonts(), fitTo: fit, ...background });
  return { pixels: image.pixels, width: image.width, height: image.height };
}

/**
 * Drawn pixels with, for each row, where it has paint; the layer's first
 * row and column sit at picture row `top` and column `left`.
 */
export interface Layer extends Pixels {
  spans: Int32Array;
  top: number;
  left: number;
  /** Names exactly what it holds, when it is kept (a static layer, a sprite): layers with keys can be cached together. */
  key?: string;
}

/** A drawing as a layer from picture row `top` down. */
export function layerOf(p: Pixels, top = 0): Layer {
  return { ...p, spans: rowSpans(p), top, left: 0 };
}

/** Rows [from, to) of a layer, cut down to the columns that have paint (a small copy to keep). */
export function cropRows(l: Layer, from: number, to: number): Layer {
  let x0 = l.width;
  let x1 = 0;
  for (let r = from; r < to; r++) {
    if (l.spans[2 * r + 1]! > 0) {
      x0 = Math.min(x0, l.spans[2 * r]!);
      x1 = Math.max(x1, l.spans[2 * r + 1]!);
    }
  }
  const width = Math.max(0, x1 - x0);
  const height = to - from;
  const pixels = Buffer.alloc(width * height * 4);
  const spans = new Int32Array(2 * height);
  for (let r = 0; r < height && width > 0; r++) {
    const src = ((from + r) * l.width + x0) * 4;
    l.pixels.copy(pixels, r * width * 4, src, src + width * 4);
    if (l.spans[2 * (from + r) + 1]! > 0) {
      spans[2 * r] = l.spans[2 * (from + r)]! - x0;
      spans[2 * r + 1] = l.spans[2 * (from + r) + 1]! - x0;
    }
  }
  return { pixels, width, height, spans, top: l.top + from, left: l.left + x0 };
}

/** Pixels as 32-bit words (copied when the bytes are not 4-aligned). */
function words(b: Buffer): Uint32Array {
  if (b.byteOffset % 4 !== 0) b = Buffer.from(Uint8Array.prototype.slice.call(b));
  return new Uint32Array(b.buffer, b.byteOffset, b.length >> 2);
}

/**
 * Where each row has paint: for row y, pixels [spans[2y], spans[2y+1]) (an
 * empty row has 0, 0). Empty rows are found by a native compare against a
 * row of zeros, so a sparse layer costs little to scan.
 */
export function rowSpans(p: Pixels): Int32Array {
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
 * Paints premultiplied `layer` over opaque PNG RGB rows `dst` in place
 * (Porter-Duff over; with the destination opaque it stays opaque), for
 * picture rows y0 <= y < y1; `dst` begins at row y0 and is `dstWidth`
 * pixels wide. Only where the layer's spans say it has paint.
 */
export function over(dst: Buffer, dstWidth: number, layer: Layer, y0: number, y1: number): void {
  const { width, spans, top, left } = layer;
  const src = layer.pixels;
  const w = words(src);
  const stride = rowBytes(dstWidth);
  const last = Math.min(y1, top + layer.height);
  for (let y = Math.max(y0, top); y < last; y++) {
    const r = y - top; // the layer's own row
    const from = spans[2 * r]!;
    const to = Math.min(spans[2 * r + 1]!, dstWidth - left);
    for (let x = from, j = r * width + from, o = (y - y0) * stride + 1 + 3 * (left + from); x < to; x++, j++, o += 3) {
      if (w[j] === 0) continue;
      const i = j << 2;
      const a = src[i + 3]!;
      if (a === 255) {
        dst[o] = src[i]!;
        dst[o + 1] = src[i + 1]!;
        dst[o + 2] = src[i + 2]!;
        continue;
      }
      const k = 255 - a;
      dst[o] = src[i]! + (((dst[o]! * k + 127) / 255) | 0);
      dst[o + 1] = src[i + 1]! + (((dst[o + 1]! * k + 127) / 255) | 0);
      dst[o + 2] = src[i + 2]! + (((dst[o + 2]! * k + 127) / 255) | 0);
    }
  }
}
