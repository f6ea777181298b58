// How big a picture's words come out where a mail shows it: every <text> (and <tspan> with a size
// of its own) with its font size, inherited from the elements around it and scaled by their
// transforms, then by the mail's scale (server/mail/raster.ts draws a document wider than
// MAX_PNG_WIDTH at that width, a narrower one as it is; the mail shows it at that width, or
// narrower in a narrower column).
import { MAX_PNG_WIDTH, svgWidth } from '../../server/mail/raster.ts';

export interface Word {
  text: string;
  /** Font size in pixels of the mail's picture. */
  px: number;
}

const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** The font size an element sets (attribute or style), in its own units, or undefined. */
function ownSize(attrs: string): number | undefined {
  const style = attr(attrs, 'style');
  const fromStyle = style ? /font-size\s*:\s*([\d.]+)/.exec(style)?.[1] : undefined;
  const v = fromStyle ?? attr(attrs, 'font-size');
  return v !== undefined && /^[\d.]+(px)?$/.test(v) ? Number.parseFloat(v) : undefined;
}

/** The uniform scale a transform attribute applies (the geometric mean of its axes' scales). */
function scaleOf(transform: string | undefined): number {
  if (!transform) return 1;
  let k = 1;
  for (const m of transform.matchAll(/(scale|matrix)\(([^)]*)\)/g)) {
    const n = m[2]!
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (m[1] === 'scale') k *= Math.sqrt(Math.abs(n[0]! * (n[1] ?? n[0]!)));
    else k *= Math.sqrt(Math.abs(n[0]! * n[3]! - n[1]! * n[2]!));
  }
  return k;
}

/** How much a nested <svg> scales its view box: its width over the box's (the smaller of both axes, as it meets). */
function nestedScale(attrs: string): number {
  const box = attr(attrs, 'viewBox')
    ?.split(/[\s,]+/)
    .map(Number);
  const w = Number(attr(attrs, 'width'));
  const h = Number(attr(attrs, 'height'));
  if (box?.length !== 4 || !(w > 0) || !(h > 0)) return 1;
  return Math.min(w / box[2]!, h / box[3]!);
}

/** The words of a document and their size in the mail's picture (its display width, at most MAX_PNG_WIDTH). */
export function wordsOf(svg: string, column = MAX_PNG_WIDTH): Word[] {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const viewBox = /viewBox\s*=\s*"([^"]+)"/
    .exec(root)?.[1]
    ?.split(/[\s,]+/)
    .map(Number);
  const width = svgWidth(svg) ?? viewBox?.[2] ?? column;
  const shown = Math.min(width, column, MAX_PNG_WIDTH);
  const unit = shown / (viewBox?.[2] ?? width);
  const stack: { name: string; size: number; scale: number }[] = [{ name: '#root', size: 16, scale: unit }];
  const out: Word[] = [];
  const texts: { word: Word; depth: number }[] = [];
  for (const m of svg.matchAll(TAG)) {
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      const named: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
      const words = m[5].replace(/&[a-z#0-9]+;/gi, (e) => named[e] ?? 'x').trim();
      const open = texts[texts.length - 1];
      if (words && open) open.word.text += words;
      continue;
    }
    const [, closing, name, attrs = '', selfClosing] = m;
    if (closing) {
      stack.pop();
      if ((name === 'text' || name === 'tspan') && texts.length) {
        const done = texts.pop()!;
        if (done.word.text) out.push(done.word);
      }
      continue;
    }
    const size = ownSize(attrs) ?? top.size;
    let scale = top.scale * scaleOf(attr(attrs, 'transform'));
    // A document nested in the picture (a cut-out of another picture) scales its own view box to its width.
    if (name === 'svg' && stack.length > 1) scale *= nestedScale(attrs);
    if (selfClosing) continue;
    stack.push({ name: name!, size, scale });
    if (name === 'text' || (name === 'tspan' && ownSize(attrs) !== undefined)) {
      texts.push({ word: { text: '', px: size * scale }, depth: stack.length });
    } else if (name === 'tspan') {
      // a tspan without a size of its own: its words belong to the text around it
      texts.push({ word: { text: '', px: size * scale }, depth: stack.length });
    }
  }
  return out;
}

/** The smallest words of a document as the mail shows it (the `n` smallest, smallest first). */
export function smallestWords(svg: string, n = 5, column = MAX_PNG_WIDTH): Word[] {
  return wordsOf(svg, column)
    .sort((a, b) => a.px - b.px)
    .slice(0, n);
}
