// PNG writing for the mail's board picture: 8-bit RGB, no row filter, deflate
// level 1 (for flat board colours both smaller and several times faster than
// resvg's own encoder).
//
// The picture's image data may be compressed in pieces ("segments"): each is
// a raw deflate stream of whole rows that ends with a full flush, so it is
// byte-aligned and refers to nothing before it. Segments laid end to end are
// one valid deflate stream; pngFromSegments closes it with an empty final
// block and the zlib header and checksum (the Adler-32 of the whole is
// combined from the segments' own). snapshot.ts uses this to compress the
// unchanging bands of a board once and only the bands a mail changes anew.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflate = promisify(zlib.deflate);

/**
 * zlib's output buffer. Every time it fills, the work goes back from the
 * thread pool to JavaScript and out again; a board's picture compresses to
 * around 100 KiB, which zlib's default 16 KiB would split into many trips.
 */
const CHUNK = 256 * 1024;

/** Compressed rows that can be laid next to other segments. */
export interface Segment {
  data: Buffer;
  /** Adler-32 of the uncompressed bytes. */
  adler: number;
  /** Uncompressed length in bytes. */
  length: number;
}

const MOD = 65521;
/** Bytes that can be summed before the running sums must be reduced (zlib's NMAX). */
const NMAX = 5552;

export function adler32(buf: Uint8Array, start = 0, end = buf.length): number {
  let a = 1;
  let b = 0;
  for (let i = start; i < end; ) {
    const stop = Math.min(end, i + NMAX);
    for (; i < stop; i++) {
      a += buf[i]!;
      b += a;
    }
    a %= MOD;
    b %= MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two byte runs one after the other, from each one's checksum (zlib's adler32_combine). */
export function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % MOD;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % MOD;
  sum1 += (second & 0xffff) + MOD - 1;
  sum2 += (first >>> 16) + (second >>> 16) + MOD - rem;
  if (sum1 >= MOD) sum1 -= MOD;
  if (sum1 >= MOD) sum1 -= MOD;
  if (sum2 >= 2 * MOD) sum2 -= 2 * MOD;
  if (sum2 >= MOD) sum2 -= MOD;
  return ((sum2 << 16) | sum1) >>> 0;
}

/**
 * Compresses bytes as one segment, here and now: segments are bands of a few
 * rows (tens of KiB, a tenth of a millisecond each), for which a trip to the
 * thread pool would cost more than the work.
 */
export function deflateSegment(bytes: Uint8Array): Segment {
  const data = zlib.deflateRawSync(bytes, { level: 1, finishFlush: zlib.constants.Z_FULL_FLUSH });
  return { data, adler: adler32(bytes), length: bytes.length };
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
/** zlib header: deflate with a 32 KiB window, "fastest" level; a multiple of 31 as the format asks. */
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
/** An empty final fixed-Huffman block: ends the stream the segments began. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

function png(width: number, height: number, idat: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** A PNG from RGB rows (each led by its filter byte 0) compressed as segments, in order. */
export function pngFromSegments(width: number, height: number, segments: Segment[]): Buffer {
  let adler = 1;
  for (const s of segments) adler = adler32Combine(adler, s.adler, s.length);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(adler, 0);
  return png(width, height, Buffer.concat([ZLIB_HEADER, ...segments.map((s) => s.data), FINAL_BLOCK, tail]));
}

/** A PNG from RGB rows (each led by its filter byte 0), compressed in one go. */
export async function pngFromRows(width: number, height: number, rows: Buffer): Promise<Buffer> {
  return png(width, height, await deflate(rows, { level: 1, chunkSize: CHUNK }));
}

/** Bytes per PNG row of an RGB picture: the filter byte, then three per pixel. */
export function rowBytes(width: number): number {
  return 1 + 3 * width;
}

/**
 * Opaque premultiplied RGBA pixels (as resvg draws on a background) as PNG
 * RGB rows with filter byte 0. With alpha 255, premultiplied is plain colour.
 */
export function rgbRows(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = rowBytes(width);
  const out = Buffer.alloc(stride * height);
  let i = 0;
  for (let y = 0; y < height; y++) {
    let o = y * stride + 1;
    for (let x = 0; x < width; x++, i += 4, o += 3) {
      out[o] = rgba[i]!;
      out[o + 1] = rgba[i + 1]!;
      out[o + 2] = rgba[i + 2]!;
    }
  }
  return out;
}
