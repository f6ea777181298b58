// Which text of a board's per-mail part can be drawn from a cache.
//
// Filling glyphs is most of what resvg spends on a mail's picture, and most
// of a board's per-mail text (labels on markers, table cells, captions) reads
// the same from one mail to the next. snapshot.ts therefore lifts plain
// top-level <text> elements out of a per-mail part, draws each once as a
// strip of rows ("sprite"), keeps it, and paints the sprites over the rest of
// the part in document order.
//
// Painting a text after the rest is only right when nothing after it in the
// document paints where it does. This module decides that conservatively,
// from boxes it can bound from the markup alone: a text is lifted only when
// every later element that stays behind has a known box clear of the text's
// own (generous) box. Anything it does not understand (groups, transforms,
// styles, relative paths, references) has no known box and keeps every text
// before it in the document.
//
// Pure string work: no drawing here.

/** A box in the document's user units: [left, top, right, bottom]. */
export type Box = [number, number, number, number];

export interface Lifted {
  /** The element exactly as written. */
  markup: string;
  /** A box that surely holds every pixel the text paints. */
  box: Box;
}

export interface Lift {
  /** The part without the lifted texts (empty when nothing stays). */
  rest: string;
  /** The lifted texts, in document order. */
  lifted: Lifted[];
  /** The elements of `rest` with their boxes, in document order; null when one has no known box. */
  kept: Lifted[] | null;
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

/** Attributes that change where or whether shapes paint in ways the boxes below do not model. */
const OPAQUE_ATTRS = ['transform', 'style', 'class', 'filter', 'mask', 'clip-path', 'marker-start', 'marker-mid', 'marker-end'];

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
    box = [Math.min(box[0], values[i]!), Math.min(box[1], values[i + 1]!), Math.max(box[2], values[i]!), Math.max(box[3], values[i + 1]!)];
  }
  return grow(box, reach);
}

function grow(b: Box, by: number): Box {
  return [b[0] - by - 1, b[1] - by - 1, b[2] + by + 1, b[3] + by + 1];
}

function numbers(s: string): number[] | null {
  const parts = s.trim().split(/[\s,]+/).filter(Boolean);
  const out = parts.map(Number);
  return out.every(Number.isFinite) ? out : null;
}

/** A box holding everything a shape paints, or null when it cannot be bounded from its markup. */
function shapeBox(e: Element): Box | null {
  const a = e.attrs;
  if (OPAQUE_ATTRS.some((k) => a.has(k)) || e.inner.length) return null;
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
      return cx === null || cy === null || rx === null || ry === null ? null : grow([cx - rx, cy - ry, cx + rx, cy + ry], reach);
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

const TEXT_ATTRS = new Set(['x', 'y', 'font-size', 'font-weight', 'font-style', 'font-family', 'fill', 'fill-opacity', 'text-anchor']);
const TSPAN_ATTRS = new Set(['x', 'font-weight', 'font-style', 'fill', 'fill-opacity', 'font-size']);

/**
 * A box surely holding a plain text: one line at one baseline, each glyph
 * at most 1.05 em wide with 0.2 em of overhang at either end, reaching at
 * most 1.2 em above the baseline and 0.45 em below (a sans-serif face's
 * accented capitals and descenders stay well inside). Null for anything
 * richer (own y or dy on a part, rotation, spacing, references, styles).
 * snapshot.ts checks every sprite against its box and stops lifting a text
 * that paints to the edge of it.
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
  return [Math.min(...xs) - reach[0]! - 0.2 * size, y - 1.2 * size, Math.max(...xs) + reach[1]! + 0.2 * size, y + 0.45 * size];
}

function overlaps(a: Box, b: Box): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

/**
 * Splits a run of top-level markup into the texts that may be drawn from
 * a cache (over everything else) and the rest. `rootFontSize` is the font
 * size a text without its own inherits; texts in `skip` stay.
 */
export function liftTexts(run: string, rootFontSize: number, skip: ReadonlySet<string> = new Set()): Lift {
  const elements = topLevel(run);
  if (!elements) return { rest: run, lifted: [], kept: null };
  const stays: Box[] = []; // boxes of the later elements that stay
  const lifted: Lifted[] = [];
  const boxes: (Box | null)[] = elements.map(() => null);
  const keep: boolean[] = elements.map(() => true);
  let known = true;
  for (let i = elements.length - 1; i >= 0; i--) {
    const e = elements[i]!;
    const tbox = textBox(e, rootFontSize);
    if (known && tbox && !skip.has(e.markup) && !stays.some((b) => overlaps(b, tbox))) {
      lifted.unshift({ markup: e.markup, box: tbox });
      keep[i] = false;
      continue;
    }
    boxes[i] = tbox ?? shapeBox(e);
    if (!boxes[i]) known = false; // unknown extent: nothing before it may move above it
    else stays.push(boxes[i]!);
  }
  const rest = elements.filter((_, i) => keep[i]);
  return {
    rest: lifted.length ? rest.map((e) => e.markup).join('') : run,
    lifted,
    kept: known ? elements.flatMap((e, i) => (keep[i] ? [{ markup: e.markup, box: boxes[i]! }] : [])) : null,
  };
}
