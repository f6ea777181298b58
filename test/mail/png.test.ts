// The PNG writer (server/mail/png.ts): segments compressed apart make one
// valid stream, and the checksum combined from theirs is the whole's.
import { randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  adler32,
  adler32Combine,
  deflateSegment,
  pngFromRows,
  pngFromSegments,
  rowBytes,
} from '../../server/mail/png.ts';

function idat(png: Buffer): Buffer {
  let at = 8;
  const parts: Buffer[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  return Buffer.concat(parts);
}

describe('png writer', () => {
  it('computes Adler-32 as zlib does, and combines two runs into the checksum of both', () => {
    expect(adler32(Buffer.from('Wikipedia'))).toBe(0x11e60398);
    expect(adler32(Buffer.alloc(0))).toBe(1);
    const a = randomBytes(70_001); // longer than the reduction interval
    const b = Buffer.alloc(12_345, 255);
    expect(adler32Combine(adler32(a), adler32(b), b.length)).toBe(adler32(Buffer.concat([a, b])));
    expect(adler32Combine(adler32(a), adler32(Buffer.alloc(0)), 0)).toBe(adler32(a));
  });

  it('lays segments end to end into a PNG that inflates (checksum included) to the rows', async () => {
    const width = 5;
    const height = 7;
    const rows = Buffer.alloc(rowBytes(width) * height);
    for (let y = 0; y < height; y++)
      for (let i = 1; i < rowBytes(width); i++) rows[y * rowBytes(width) + i] = (y * 31 + i * 7) & 255;
    const cut = [0, 2, 3, 7].map((y) => y * rowBytes(width));
    const segments = cut.slice(1).map((end, k) => deflateSegment(rows.subarray(cut[k], end)));
    const png = pngFromSegments(width, height, segments);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([width, height, 8, 2]);
    expect(inflateSync(idat(png)).equals(rows)).toBe(true);
    expect(inflateSync(idat(await pngFromRows(width, height, rows))).equals(rows)).toBe(true);
  });
});
