// The mail's board picture with static layers (server/mail/snapshot.ts): the
// layered picture must look like the picture drawn in one piece, a static
// layer must never be served for changed content, and each game's static
// groups must be public and unchanging (the same for every seat at every move).
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index';
import { randomInt, seedRandom } from '../../rules/random';
import type { AnyRules } from '../../rules/types';
import { clearLayerCache, layerRenderCount, renderPixels, splitLayers, svgToPng, type Pixels } from '../../server/mail/snapshot';
import { defaultOptions } from '../support/playout';

function compare(a: Pixels, b: Pixels): { max: number; over8: number; total: number } {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let max = 0;
  let over8 = 0;
  for (let i = 0; i < a.pixels.length; i++) {
    const d = Math.abs(a.pixels[i]! - b.pixels[i]!);
    if (d > max) max = d;
    if (d > 8) over8++;
  }
  return { max, over8, total: a.pixels.length };
}

/** Decodes a PNG as snapshot.ts writes it (one IDAT, RGBA, filter 0 on every row). */
function decodeOwnPng(png: Buffer): Buffer {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  let at = 8;
  let idat = Buffer.alloc(0);
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') idat = Buffer.concat([idat, png.subarray(at + 8, at + 8 + len)]);
    at += 12 + len;
  }
  const raw = inflateSync(idat);
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(0);
    raw.copy(out, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
  }
  return out;
}

const doc = (inner: string, w = 400, h = 300) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif">${inner}</svg>`;

const SAMPLE = doc(
  '<rect width="100%" height="100%" fill="#cfe3f3"/>' +
    '<g data-static="test/a"><g><circle cx="100" cy="100" r="60" fill="#3a7" fill-opacity="0.6"/></g><text x="20" y="40" font-size="14">Printed name</text></g>' +
    '<path d="M0,0 L400,300" stroke="#d22" stroke-width="7" stroke-opacity="0.5"/>' +
    '<g data-static="test/b"><rect x="150" y="120" width="120" height="80" fill="#fa0" fill-opacity="0.7" stroke="#000"/><text x="160" y="160">Over the line</text></g>' +
    '<circle cx="200" cy="150" r="30" fill="#24c" fill-opacity="0.5"/><text x="20" y="280" font-size="12">status 42</text>',
);

describe('static layers', () => {
  it('splits a document at its top-level static groups', () => {
    const pieces = splitLayers(SAMPLE)!;
    expect(pieces.map((p) => `${p.kind}:${p.key}`)).toEqual(['static:test/a', 'dynamic:', 'static:test/b', 'dynamic:']);
    expect(pieces[0]!.svg).toContain('fill="#cfe3f3"'); // the background belongs to the first layer
    expect(pieces[1]!.svg).not.toContain('#cfe3f3');
    expect(pieces[1]!.svg).toContain('stroke="#d22"');
    expect(pieces[3]!.svg).toContain('status 42');
    for (const p of pieces) expect(p.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="400"')).toBe(true);
    expect(splitLayers(doc('<rect width="10" height="10"/>'))).toBeNull();
    expect(splitLayers(doc('<g data-static="x"><g>unclosed</g>'))).toBeNull();
  });

  it('draws the same picture as the document in one piece (semi-transparent paint across layers)', async () => {
    clearLayerCache();
    const plain = await renderPixels(SAMPLE, { layers: false });
    const layered = await renderPixels(SAMPLE);
    const d = compare(plain, layered);
    expect(d.max).toBeLessThanOrEqual(3);
  });

  it('reuses a static layer, and never serves one for changed content under the same key', async () => {
    clearLayerCache();
    await renderPixels(SAMPLE);
    const n = layerRenderCount();
    await renderPixels(SAMPLE.replace('status 42', 'status 43'));
    expect(layerRenderCount()).toBe(n); // both layers served from the cache
    const changed = SAMPLE.replace('Printed name', 'Another board');
    const layered = await renderPixels(changed);
    expect(layerRenderCount()).toBe(n + 1);
    expect(compare(await renderPixels(changed, { layers: false }), layered).max).toBeLessThanOrEqual(3);
    // and the PNG holds exactly that picture
    const png = await svgToPng(changed, { cache: false });
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(decodeOwnPng(png).equals(layered.pixels)).toBe(true);
  });
});

/** A digest of every static layer of a document (root element and background included), in order. */
function staticText(svg: string): string[] {
  return (splitLayers(svg) ?? []).filter((p) => p.kind === 'static').map((p) => `${p.key} ${createHash('sha1').update(p.svg).digest('hex')}`);
}

function midGame(rules: AnyRules, seats: number, steps: number): unknown {
  const state = rules.setup(seats, 'snapshot-test', defaultOptions(rules));
  const picker = seedRandom('snapshot-test-picker');
  for (let i = 0; i < steps; i++) {
    const toAct = rules.toAct(state);
    if (toAct.length === 0) break;
    const seat = toAct[randomInt(picker, toAct.length)]!;
    const moves = rules.moves(state, seat);
    if (moves.length === 0) break;
    rules.apply(state, seat, structuredClone(moves[randomInt(picker, moves.length)]));
  }
  return state;
}

const MARKED = ['airlines', 'airlines-europe', 'stephensons-rocket'];

describe.each(games.filter((g) => g.svg).map((g) => [g.id, g] as const))('%s board picture', (id, rules) => {
  const seats = Math.min(rules.players.max, Math.max(rules.players.min, 3));
  const start = rules.setup(seats, 'snapshot-test', defaultOptions(rules));
  const startSvg = rules.svg!(rules.view(start, 0));
  const marked = splitLayers(startSvg) !== null;

  it.runIf(MARKED.includes(id))('marks its printed board static', () => {
    expect(marked).toBe(true);
  });

  it.runIf(marked)('static layers are public and unchanging: the same for every seat, and from move to move', () => {
    const mid = midGame(rules, seats, 120);
    const later = midGame(rules, seats, 180);
    const expected = staticText(rules.svg!(rules.view(mid, 0)));
    expect(expected.length).toBeGreaterThan(0);
    for (const state of [start, mid, later]) {
      const own = staticText(rules.svg!(rules.view(state, 0)));
      for (let seat = 1; seat < seats; seat++) expect(staticText(rules.svg!(rules.view(state, seat)))).toEqual(own);
    }
    expect(staticText(rules.svg!(rules.view(later, 1)))).toEqual(expected);
    // a printed board (not one laid out during setup) is the same from the first move
    if (MARKED.includes(id)) expect(staticText(startSvg)).toEqual(expected);
  });

  it.runIf(marked)('the layered picture looks like the picture drawn in one piece', async () => {
    for (const state of [start, midGame(rules, seats, 120)]) {
      const svg = rules.svg!(rules.view(state, 1));
      const d = compare(await renderPixels(svg, { layers: false }), await renderPixels(svg));
      // anti-aliasing and 8-bit rounding only
      expect(d.max).toBeLessThanOrEqual(48);
      expect(d.over8 / d.total).toBeLessThan(0.0005);
    }
  });
});
