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

/** Encodes RGBA pixels as a PNG (8-bit RGBA, no row filter, deflate level 1). */
export async function encodePng(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const idat = await deflate(raw, { level: 1 });
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

const CACHE_SIZE = 64;
const cache = new Map<string, Buffer>();

/** Renders a standalone SVG document to PNG bytes. Rejects on an SVG resvg cannot parse. */
export async function svgToPng(svg: string, opts: { cache?: boolean } = {}): Promise<Buffer> {
  const useCache = opts.cache !== false;
  const key = useCache ? createHash('sha1').update(svg).digest('base64') : '';
  const hit = useCache ? cache.get(key) : undefined;
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const width = svgWidth(svg);
  const image = await renderAsync(svg, {
    font: fonts(),
    background: '#ffffff',
    fitTo: width !== null && width > MAX_PNG_WIDTH ? { mode: 'width', value: MAX_PNG_WIDTH } : { mode: 'original' },
  });
  const png = await encodePng(image.pixels, image.width, image.height);
  if (useCache) {
    cache.set(key, png);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return png;
}
