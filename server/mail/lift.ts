// Which parts of a board's per-mail markup can be drawn from a cache.
//
// Most of what a board draws per mail (markers, labels, table cells,
// captions) looks the same from one mail to the next, and resvg's cost is in
// drawing it, glyphs above all. snapshot.ts therefore lifts top-level
// elements out of a per-mail part, draws each once as a sprite over only the
// rows (and then columns) it paints, keeps it, and paints the sprites in
// document order over whatever of the part stays.
//
// An element can be lifted when its box (where it can paint) is known from
// its markup alone, and everything after it in the part is lifted too: then
// painting the sprites in order is painting the document in order. An element
// whose box is unknown (groups that do not declare one, transforms, styles,
// references, relative paths, texts that move their own parts) stays, and so
// does everything before it. Boxes are generous; snapshot.ts checks every sprite against its
// box and stops lifting an element that paints to the edge of it.
//
// Pure string work: no drawing here.

/** A box in the document's user units: [left, top, right, bottom]. */
export type Box = [number, number, number, number];

export interface Lifted {
  /** The element exactly as written. */
  markup: string;
  /** A box that surely holds every pixel it paints. */
  box: Box;
}

export interface Lift {
  /** The part's elements that stay, drawn with the document per mail (empty when all are lifted). */
  rest: string;
  /** The lifted elements, in document order. */
  lifted: Lifted[];
}

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<[!?]/g;
const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

interface Element {
  name: string;
  attrs: Map<string, string>;
  markup: string;
  /** Tags inside it (for <text>: its tspans), with their attributes. */
  inner: { name: string; attrs: Map<string, string> }[];
  /** Characters of text inside it (entities counted as written: more, never fewer). */
  chars: number;
}

function attrsOf(s: string): Map<string, string> {
  const out = new Map<string, string>();
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(s); m; m = ATTR.exec(s)) out.set(m[1]!, m[2] ?? m[3] ?? '');
  return out;
}

/** The top-level elements of a run of markup, or null if it holds anything unusual. */
function topLevel(run: string): Element[] | null {
  const out: Element[] = [];
  let depth = 0;
  let start = 0;
  let current: Element | null = null;
  let textAt = 0;
  TAG.lastIndex = 0;
  for (let t = TAG.exec(run); t; t = TAG.exec(run)) {
    if (t[2] === undefined) return null; // comment, CDATA, processing instruction
    const closing = t[1] === '/';
    const selfClosing = t[4] === '/';
    if (depth === 0) {
      if (closing || run.slice(textAt, t.index).trim()) return null; // stray text or a stray end tag
      start = t.index;
      current = { name: t[2], attrs: attrsOf(t[3] ?? ''), markup: '', inner: [], chars: 0 };
    } else if (current) {
      current.chars += run.slice(textAt, t.index).length;
      if (!closing) current.inner.push({ name: t[2], attrs: attrsOf(t[3] ?? '') });
    }
    if (closing) depth--;
    else if (!selfClosing) depth++;
    if (depth < 0) return null;
    textAt = t.index + t[0].length;
    if (depth === 0 && current) {
      current.markup = run.slice(start, textAt);
      out.push(current);
      current = null;
    }
  }
  if (depth !== 0 || run.slice(textAt).trim()) return null;
  return out;
}

const NUMBER = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?\s*$/i;

function num(v: string | undefined): number | null {
  return v !== undefined && NUMBER.test(v) ? Number(v) : null;
}

/**
 * The attributes a shape may carry to be lifted: its geometry and plain
 * paint. Anything else (ids others may refer to, transforms, styles,
 * filters, masks, markers, blending) keeps it in place.
 */
const SHAPE_ATTRS = new Set([
  'x',
  'y',
  'width',
  'height',
  'rx',
  'ry',
  'cx',
  'cy',
  'r',
  'x1',
  'y1',
  'x2',
  'y2',
  'points',
  'd',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linejoin',
  'stroke-linecap',
  'stroke-miterlimit',
  'opacity',
  'shape-rendering',
]);

/** Half the reach of an element's stroke beyond its geometry, in user units (joins and caps included). */
function strokeReach(a: Map<string, string>): number | null {
  const stroke = a.get('stroke');
  if (stroke === undefined || stroke === 'none') return 0;
  const width = a.has('stroke-width') ? num(a.get('stroke-width')) : 1;
  if (width === null) return null;
  const miter = a.has('stroke-miterlimit') ? num(a.get('stroke-miterlimit')) : 4;
  if (miter === null) return null;
  return (width / 2) * Math.max(1, miter);
}

function pointsBox(values: number[], reach: number): Box | null {
  if (values.length < 2 || values.length % 2 !== 0) return null;
  let box: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < values.length; i += 2) {
    box = [
      Math.min(box[0], values[i]!),
      Math.min(box[1], values[i + 1]!),
      Math.max(box[2], values[i]!),
      Math.max(box[3], values[i + 1]!),
    ];
  }
  return grow(box, reach);
}

function grow(b: Box, by: number): Box {
  return [b[0] - by - 1, b[1] - by - 1, b[2] + by + 1, b[3] + by + 1];
}

function numbers(s: string): number[] | null {
  const parts = s
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const out = parts.map(Number);
  return out.every(Number.isFinite) ? out : null;
}

/** A box holding everything a shape paints, or null when it cannot be bounded from its markup. */
function shapeBox(e: Element): Box | null {
  const a = e.attrs;
  if (e.inner.length || e.markup.includes('url(') || [...a.keys()].some((k) => !SHAPE_ATTRS.has(k))) return null;
  const reach = strokeReach(a);
  if (reach === null) return null;
  switch (e.name) {
    case 'rect': {
      const [x, y, w, h] = [num(a.get('x') ?? '0'), num(a.get('y') ?? '0'), num(a.get('width')), num(a.get('height'))];
      return x === null || y === null || w === null || h === null ? null : grow([x, y, x + w, y + h], reach);
    }
    case 'circle': {
      const [cx, cy, r] = [num(a.get('cx') ?? '0'), num(a.get('cy') ?? '0'), num(a.get('r'))];
      return cx === null || cy === null || r === null ? null : grow([cx - r, cy - r, cx + r, cy + r], reach);
    }
    case 'ellipse': {
      const [cx, cy, rx, ry] = [num(a.get('cx') ?? '0'), num(a.get('cy') ?? '0'), num(a.get('rx')), num(a.get('ry'))];
      return cx === null || cy === null || rx === null || ry === null
        ? null
        : grow([cx - rx, cy - ry, cx + rx, cy + ry], reach);
    }
    case 'line': {
      const v = ['x1', 'y1', 'x2', 'y2'].map((k) => num(a.get(k) ?? '0'));
      return v.some((n) => n === null) ? null : pointsBox(v as number[], reach);
    }
    case 'polyline':
    case 'polygon': {
      const v = numbers(a.get('points') ?? '');
      return v ? pointsBox(v, reach) : null;
    }
    case 'path': {
      // Absolute moves, lines and Béziers only: a Bézier lies within its control points.
      const d = a.get('d') ?? '';
      if (!/^[\sMLCQZ\d.,eE+-]*$/.test(d)) return null;
      const v = numbers(d.replace(/[MLCQZ]/g, ' '));
      return v ? pointsBox(v, reach) : null;
    }
    default:
      return null;
  }
}

const TEXT_ATTRS = new Set([
  'x',
  'y',
  'font-size',
  'font-weight',
  'font-style',
  'font-family',
  'fill',
  'fill-opacity',
  'text-anchor',
  'opacity',
]);
const TSPAN_ATTRS = new Set(['x', 'font-weight', 'font-style', 'fill', 'fill-opacity', 'font-size']);

/**
 * A box surely holding a plain text: one line at one baseline, each glyph
 * at most 1.05 em wide with 0.2 em of overhang at either end, reaching at
 * most 1.2 em above the baseline and 0.45 em below (a sans-serif face's
 * accented capitals and descenders stay well inside). Null for anything
 * richer (own y or dy on a part, rotation, spacing, references, styles).
 */
function textBox(e: Element, rootFontSize: number): Box | null {
  if (e.name !== 'text' || e.markup.includes('url(')) return null;
  for (const k of e.attrs.keys()) if (!TEXT_ATTRS.has(k)) return null;
  if (e.inner.some((t) => t.name !== 'tspan' || [...t.attrs.keys()].some((k) => !TSPAN_ATTRS.has(k)))) return null;
  const x = num(e.attrs.get('x') ?? '0');
  const y = num(e.attrs.get('y') ?? '0');
  const own = e.attrs.has('font-size') ? num(e.attrs.get('font-size')) : rootFontSize;
  if (x === null || y === null || own === null) return null;
  const sizes = e.inner.map((t) => (t.attrs.has('font-size') ? num(t.attrs.get('font-size')) : own));
  if (sizes.some((v) => v === null)) return null;
  const size = Math.max(own, ...(sizes as number[]));
  const xs = [x];
  for (const t of e.inner) {
    if (!t.attrs.has('x')) continue;
    const tx = num(t.attrs.get('x'));
    if (tx === null) return null;
    xs.push(tx);
  }
  const width = e.chars * size * 1.05;
  const anchor = e.attrs.get('text-anchor') ?? 'start';
  const reach = anchor === 'middle' ? [width / 2, width / 2] : anchor === 'end' ? [width, 0] : [0, width];
  return [
    Math.min(...xs) - reach[0]! - 0.2 * size,
    y - 1.2 * size,
    Math.max(...xs) + reach[1]! + 0.2 * size,
    y + 0.45 * size,
  ];
}

/**
 * A group may say where it paints: <g data-box="left top right bottom">, in
 * the document's own units (after the group's own transform). Whatever it
 * holds is then drawn as one sprite; the game vouches for the box, and the
 * sprite's edge check catches a box that is too small.
 */
function declaredBox(e: Element): Box | null {
  if (e.attrs.has('id') || e.markup.includes('url(') || / id\s*=/.test(e.markup)) return null;
  const v = numbers(e.attrs.get('data-box') ?? '');
  return v && v.length === 4 && v[0]! <= v[2]! && v[1]! <= v[3]! ? (v as Box) : null;
}

/** A box for an element drawn by itself, or null when it cannot be bounded from its markup. */
function boxOf(e: Element, rootFontSize: number): Box | null {
  if (e.name === 'g') return declaredBox(e);
  return e.name === 'text' ? textBox(e, rootFontSize) : shapeBox(e);
}

/**
 * Splits a run of top-level markup into the elements after the last one
 * whose box is unknown (lifted) and the rest. `rootFontSize` is the font
 * size a text without its own inherits; elements in `skip` stay.
 */
export function liftElements(run: string, rootFontSize: number, skip: ReadonlySet<string> = new Set()): Lift {
  const elements = topLevel(run);
  if (!elements) return { rest: run, lifted: [] };
  const lifted: Lifted[] = [];
  let i = elements.length - 1;
  for (; i >= 0; i--) {
    const e = elements[i]!;
    const box = skip.has(e.markup) ? null : boxOf(e, rootFontSize);
    if (!box) break;
    lifted.unshift({ markup: e.markup, box });
  }
  return {
    rest:
      i < 0
        ? ''
        : lifted.length
          ? elements
              .slice(0, i + 1)
              .map((e) => e.markup)
              .join('')
          : run,
    lifted,
  };
}

const TRANSLATE = /^\s*translate\(\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+))?\s*\)\s*$/;

/** A run of markup read once for cutting out windows of it (cutOut): its elements with their boxes. */
export type Cuttable =
  | { markup: string; box: Box | null }
  | { open: string; close: string; dx: number; dy: number; inner: Cuttable[] };

/**
 * A run of markup as elements with their boxes (null where unknown), looking inside plain groups
 * (no transform but a translation, no declared box); the run as one element if it holds anything
 * unusual.
 */
export function cuttable(run: string, rootFontSize: number): Cuttable[] {
  const elements = topLevel(run);
  if (!elements) return [{ markup: run, box: null }];
  return elements.map((e): Cuttable => {
    if (e.name === 'g' && !e.attrs.has('data-box') && !e.attrs.has('id') && !e.markup.includes('url(')) {
      const t = e.attrs.get('transform');
      const shift = t === undefined ? ['0', '0'] : TRANSLATE.exec(t)?.slice(1);
      const open = e.markup.indexOf('>') + 1;
      const close = e.markup.lastIndexOf('</g>');
      if (shift && open > 0 && close >= open)
        return {
          open: e.markup.slice(0, open),
          close: e.markup.slice(close),
          dx: Number(shift[0]),
          dy: Number(shift[1] ?? 0),
          inner: cuttable(e.markup.slice(open, close), Number(e.attrs.get('font-size') ?? rootFontSize)),
        };
    }
    return { markup: e.markup, box: boxOf(e, rootFontSize) };
  });
}

/**
 * The markup of `parts` without the elements that surely paint nowhere in `window` (their box is
 * known and misses it): a cut-out of a picture (mail/closeup.ts) then costs what it shows, not
 * the whole picture. Anything whose box is unknown stays.
 */
export function cutOut(parts: readonly Cuttable[], window: Box): string {
  let out = '';
  for (const p of parts) {
    if ('inner' in p) {
      const inner = cutOut(p.inner, [window[0] - p.dx, window[1] - p.dy, window[2] - p.dx, window[3] - p.dy]);
      if (inner) out += p.open + inner + p.close;
    } else if (
      p.box === null ||
      (p.box[0] <= window[2] && p.box[2] >= window[0] && p.box[1] <= window[3] && p.box[3] >= window[1])
    )
      out += p.markup;
  }
  return out;
}

/** Every top-level element of a run whose box is known from its markup (in order; the others left out). */
export function boxedElements(run: string, rootFontSize: number): Lifted[] {
  const out: Lifted[] = [];
  for (const e of topLevel(run) ?? []) {
    const box = boxOf(e, rootFontSize);
    if (box) out.push({ markup: e.markup, box });
  }
  return out;
}
