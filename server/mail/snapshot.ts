// The picture of the board in a mail: the game's SVG rasterised to PNG, since
// most mail clients drop inline SVG. Drawing is raster.ts (resvg on the
// thread pool), writing the PNG is png.ts. A small cache keyed by the SVG
// text serves the same picture to every seat that sees the same board, and
// to a reminder for a position already mailed.
//
// Most of a board looks the same from one mail to the next, and drawing is
// what costs, so a mail draws only what no mail before it drew:
//
// 1. Static layers. A game marks what never changes during a game (the
//    printed board) as top-level groups
//      <g data-static="airlines/map/980x812">...</g>
//    The first comes right after the background, which belongs to it. Each is
//    drawn once, on its own, at the mail's size, and kept under its key and a
//    hash of its whole text (root element included): a changed board never
//    gets a stale layer, and a layer is shared only by documents with exactly
//    the same text, so a seat's private view cannot leak through the cache.
//    Rules for a static group: a direct child of the root <svg>;
//    self-contained (no references to ids outside it, nothing outside
//    referring into it); public and the same for every seat at every move.
// 2. Sprites. The parts between static groups are drawn per mail, but their
//    elements mostly repeat (markers, labels, table cells). lift.ts finds the
//    elements that may be drawn alone and painted in order over the rest of
//    their part; sprites.ts keeps each one's pixels, cut to where it paints.
// 3. Bands. The picture is stacked (Porter-Duff over, in document order: the
//    picture of the whole document up to 8-bit rounding) and compressed in
//    bands of rows. A band's compressed bytes are kept under what was stacked
//    in it, so a mail composes and compresses only the bands where something
//    changed.
//
// Everything kept is bounded by size and forgotten oldest first; a restart
// only costs the first mail of each board its drawing.
import { createHash } from 'node:crypto';
import { deflateSegment, pngFromRows, pngFromSegments, rgbRows, rowBytes, type Segment } from './png.ts';
import { fitTo, layerOf, over, raster, type Fit, type Layer, type Pixels } from './raster.ts';
import { Kept } from './kept.ts';
import { liftElements, type Lifted } from './lift.ts';
import { clearSprites, drawSprites, frameOf, rowsOf, type Frame, type Sprite } from './sprites.ts';

export { MAX_PNG_WIDTH, svgWidth, type Pixels } from './raster.ts';

/** Whole pictures by their SVG text (a few MiB: a board's PNG is about 100 KiB). */
const pictures = new Kept<Buffer>(8 * 1024 * 1024);

/** One piece of the document in painting order: a cached static layer or a part drawn per mail. */
interface Piece {
  kind: 'static' | 'dynamic';
  /** The data-static key (static pieces). */
  key: string;
  /** A standalone document holding only this piece. */
  svg: string;
  /** The piece's own markup within that document. */
  body: string;
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
    pieces.push({ kind: 'static', key: g.key, svg: i === 0 ? `${rootTag}${prefix}${body}</svg>` : doc(body), body });
    const rest = svg.slice(g.end, i + 1 < groups.length ? groups[i + 1]!.start : close);
    if (rest.trim()) pieces.push({ kind: 'dynamic', key: '', svg: doc(rest), body: rest });
  });
  return pieces;
}

// Static layers as rendered pixels (the first one on white, the others
// transparent), most recently used last, bounded by their total size.
const layers = new Kept<Promise<Layer>>(64 * 1024 * 1024);
let layerRenders = 0;

function layerId(piece: Piece, fit: Fit, opaque: boolean): string {
  return `${piece.key}\n${opaque ? 'o' : 't'}${JSON.stringify(fit)}\n${createHash('sha1').update(piece.svg).digest('base64')}`;
}

function staticLayer(id: string, piece: Piece, fit: Fit, opaque: boolean): Promise<Layer> {
  const hit = layers.get(id);
  if (hit) return hit;
  layerRenders++;
  const drawn = raster(piece.svg, fit, opaque).then((p) => ({
    ...(opaque ? { ...p, spans: new Int32Array(0), top: 0, left: 0 } : layerOf(p)),
    key: id,
  }));
  return layers.setMaking(id, drawn, (l) => l.pixels.length);
}

/**
 * Rows per band. The picture is compressed band by band, and a band's bytes
 * are kept under what was stacked in it. Smaller bands redo less when one
 * thing changes and compress a little worse (each starts without the rows
 * above to match against).
 */
const BAND_ROWS = 16;

/** Static layers stacked, as PNG RGB rows, with their bands compressed once each when first needed. */
interface Composite {
  key: string;
  width: number;
  height: number;
  rows: Buffer;
  bands: (Segment | undefined)[];
}
const composites = new Kept<Composite>(48 * 1024 * 1024);

function composite(ids: string[], stack: Layer[]): Composite {
  const key = ids.join('\n\n');
  const hit = composites.get(key);
  if (hit) return hit;
  const base = stack[0]!;
  const rows = rgbRows(base.pixels, base.width, base.height);
  for (const layer of stack.slice(1)) over(rows, base.width, layer, 0, base.height);
  const made = {
    key: createHash('sha1').update(key).digest('base64'),
    width: base.width,
    height: base.height,
    rows,
    bands: [],
  };
  // the compressed bands, filled in later, are counted as a tenth of the rows
  return composites.set(key, made, rows.length * 1.1);
}

function bandSegment(c: Composite, band: number): Segment {
  const stride = rowBytes(c.width);
  const y0 = band * BAND_ROWS;
  const y1 = Math.min(c.height, y0 + BAND_ROWS);
  return (c.bands[band] ??= deflateSegment(c.rows.subarray(y0 * stride, y1 * stride)));
}

/** Forgets everything kept: static layers, sprites and bands (for the bench's cold figures and for tests). */
export function clearLayerCache(): void {
  clearSprites();
  bands.clear();
  layers.clear();
  composites.clear();
}

/** How many static layers were rasterised since start (tests check the cache with it). */
export function layerRenderCount(): number {
  return layerRenders;
}

/** A run of the picture's rows: its PNG rows and their compressed bytes, each made when first asked for. */
interface Part {
  rows: () => Buffer;
  segment: () => Segment;
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

// Compressed bands of mails' pictures, keyed by what was stacked in them (the
// static stack beneath and the kept layers painting there, in order): the
// same layers make the same bytes.
const bands = new Kept<Segment>(16 * 1024 * 1024);

function keptBand(key: string, make: () => Segment): Segment {
  const made = bands.get(key) ?? make();
  return bands.set(key, made, made.data.length + key.length);
}

interface Picture {
  width: number;
  height: number;
  parts: Part[];
}

async function drawWhole(svg: string, fit: Fit): Promise<Picture> {
  const p = await raster(svg, fit, true);
  const rows = rgbRows(p.pixels, p.width, p.height);
  return { width: p.width, height: p.height, parts: [{ rows: () => rows, segment: once(() => deflateSegment(rows)) }] };
}

/** Elements whose sprite painted to the edge of its box: their box was too small, so they stay in place. */
const tooTight = new Set<string>();

/** A per-mail part: the elements lifted as sprites, and the rest as a document drawn per mail (or null). */
interface PartPlan {
  lifted: Lifted[];
  rest: string | null;
}

function planPart(piece: Piece, frame: Frame | null): PartPlan {
  if (!frame) return { lifted: [], rest: piece.svg };
  const lift = liftElements(piece.body, frame.fontSize, tooTight);
  // An element reaching far beyond the picture (a box a few pictures tall)
  // would make a sheet as big: it stays, and so does everything before it.
  const far = lift.lifted.findLastIndex((e) => {
    const [from, to] = rowsOf(e.box, frame);
    return from < -frame.height || to > 2 * frame.height;
  });
  const lifted = lift.lifted.slice(far + 1);
  const rest =
    lift.rest +
    lift.lifted
      .slice(0, far + 1)
      .map((e) => e.markup)
      .join('');
  const prefix = piece.svg.slice(0, piece.svg.length - '</svg>'.length - piece.body.length);
  return { lifted, rest: rest.trim() ? `${prefix}${rest}</svg>` : null };
}

/**
 * The picture of a document with static layers: bands no per-mail part
 * paints on come from the cached stack of all static layers (compressed
 * once); the others are stacked afresh from the static layers below the
 * first per-mail part, then every layer above it in document order. A
 * per-mail part is what stays of it drawn on a whole canvas, then its
 * sprites in order.
 */
async function drawLayered(svg: string, pieces: Piece[], fit: Fit, useSprites: boolean): Promise<Picture | null> {
  const ids = pieces.map((p, i) => (p.kind === 'static' ? layerId(p, fit, i === 0) : ''));
  const frame = useSprites ? frameOf(/<svg\b[^>]*>/i.exec(svg)![0], fit) : null;
  const plans = pieces.map((p) => (p.kind === 'dynamic' ? planPart(p, frame) : null));
  const items = plans.flatMap((p) => p?.lifted ?? []);
  const sheet: Promise<Sprite[]> = frame && items.length ? drawSprites(items, frame) : Promise.resolve([]);
  let taken = 0;
  const stacks: Layer[][] = await Promise.all(
    pieces.map(async (p, i) => {
      if (p.kind === 'static') return [await staticLayer(ids[i]!, p, fit, i === 0)];
      const plan = plans[i]!;
      const from = taken;
      const to = (taken += plan.lifted.length);
      const [rest, sprites] = await Promise.all([
        plan.rest ? raster(plan.rest, fit, false) : null,
        sheet.then((s) => s.slice(from, to)),
      ]);
      if (sprites.some((s) => s.clipped)) {
        // A box was too small after all: this part in one piece, and those elements stay in place from now on.
        if (tooTight.size > 10_000) tooTight.clear(); // bounded; a forgotten one is only found again
        sprites.forEach((s, k) => {
          if (s.clipped) tooTight.add(plan.lifted[k]!.markup);
        });
        return [layerOf(await raster(p.svg, fit, false))];
      }
      return [...(rest ? [layerOf(rest)] : []), ...sprites];
    }),
  );
  const { width, height } = stacks[0]![0]!;
  if (stacks.some((s) => s.some((d) => !('clipped' in d) && (d.width !== width || d.height !== height)))) return null; // sprites are cut to size
  const isStatic = (_: unknown, i: number) => pieces[i]!.kind === 'static';
  let firstDynamic = pieces.findIndex((p) => p.kind === 'dynamic');
  if (firstDynamic < 0) firstDynamic = pieces.length;
  const statics = composite(
    ids.filter(isStatic),
    stacks.filter(isStatic).map((s) => s[0]!),
  );
  const under = pieces.slice(firstDynamic).every((p) => p.kind === 'dynamic')
    ? statics
    : composite(
        ids.slice(0, firstDynamic),
        stacks.slice(0, firstDynamic).map((s) => s[0]!),
      );
  const above = stacks.slice(firstDynamic).flat();
  const perMail = new Set(stacks.flatMap((s, i) => (isStatic(s, i) ? [] : s)));
  // Which layers of `above` paint in each band, in painting order.
  const bandCount = Math.ceil(height / BAND_ROWS);
  const members: number[][] = Array.from({ length: bandCount }, () => []);
  above.forEach((l, k) => {
    for (let r = Math.max(0, -l.top); r < l.height && l.top + r < height; r++) {
      if (l.spans[2 * r + 1]! === 0) continue;
      const band = members[((l.top + r) / BAND_ROWS) | 0]!;
      if (band[band.length - 1] !== k) band.push(k);
    }
  });
  const stride = rowBytes(width);
  const parts: Part[] = members.map((m, b) => {
    const y0 = b * BAND_ROWS;
    const y1 = Math.min(height, y0 + BAND_ROWS);
    // Nothing drawn per mail here: the static stack's band.
    if (!m.some((k) => perMail.has(above[k]!)))
      return { rows: () => statics.rows.subarray(y0 * stride, y1 * stride), segment: () => bandSegment(statics, b) };
    const rows = once(() => {
      const out = Buffer.from(under.rows.subarray(y0 * stride, y1 * stride));
      for (const k of m) over(out, width, above[k]!, y0, y1);
      return out;
    });
    const keys = m.map((k) => above[k]!.key);
    if (keys.some((k) => k === undefined)) return { rows, segment: once(() => deflateSegment(rows())) };
    const key = createHash('sha1')
      .update(`${under.key}\n${y0}\n${keys.join('\n')}`)
      .digest('base64');
    return { rows, segment: once(() => keptBand(key, () => deflateSegment(rows()))) };
  });
  return { width, height, parts };
}

/** How to draw: `layers` false draws the document in one piece; `sprites` false draws each per-mail part on a whole canvas. */
export interface DrawOptions {
  layers?: boolean;
  sprites?: boolean;
}

async function draw(svg: string, opts: DrawOptions): Promise<Picture> {
  const fit = fitTo(svg);
  const pieces = opts.layers !== false ? splitLayers(svg) : null;
  return (pieces && (await drawLayered(svg, pieces, fit, opts.sprites !== false))) ?? drawWhole(svg, fit);
}

/** The picture as packed RGBA pixels (for tests and tools; mail uses svgToPng). */
export async function renderPixels(svg: string, opts: DrawOptions = {}): Promise<Pixels> {
  const { width, height, parts } = await draw(svg, opts);
  const pixels = Buffer.alloc(width * height * 4, 255);
  const stride = rowBytes(width);
  let y = 0;
  for (const part of parts) {
    const rows = part.rows();
    for (let r = 0; r < rows.length / stride; r++, y++) {
      for (let x = 0; x < width; x++)
        rows.copy(pixels, (y * width + x) * 4, r * stride + 1 + 3 * x, r * stride + 4 + 3 * x);
    }
  }
  return { pixels, width, height };
}

/** Renders a standalone SVG document to PNG bytes. Rejects on an SVG resvg cannot parse. */
export async function svgToPng(svg: string, opts: DrawOptions & { cache?: boolean } = {}): Promise<Buffer> {
  const useCache = opts.cache !== false;
  const key = useCache ? createHash('sha1').update(svg).digest('base64') : '';
  const hit = useCache ? pictures.get(key) : undefined;
  if (hit) return hit;
  const picture = await draw(svg, opts);
  const png =
    picture.parts.length === 1
      ? await pngFromRows(picture.width, picture.height, picture.parts[0]!.rows())
      : pngFromSegments(
          picture.width,
          picture.height,
          picture.parts.map((p) => p.segment()),
        );
  if (useCache) pictures.set(key, png, png.length);
  return png;
}
