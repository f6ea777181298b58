// The turn mail's close-up, drawn for a phone. The mail's board picture is drawn for a 640 px
// column; a 360 px phone shows it about 344 px wide, where its 11 px words come out at 6 px. So
// the turn mail opens with a picture drawn PHONE_WIDTH (340) units wide, a unit a pixel there:
// what changed on the board since the seat's last turn, cut out of the mail picture at one unit
// a pixel (its words keep their 11 px and up), and the seat's card (the rules' `holdings`, drawn
// by rules/picture.ts). Everything in it comes from the seat's own views (its picture then and
// now, its view now), so it can show nothing the seat may not see.
import { drawCard, PHONE_WIDTH, type CardRow } from '../../rules/picture.ts';
import { changedShapes, type Box } from '../http/page-parts.ts';
import { cutOut, cuttable } from './lift.ts';

/** The close-up is rasterised this many pixels wide (about twice its width: sharp on a phone's screen). */
export const PHONE_PNG_WIDTH = 640;

/** How tall one cut-out of the board may be (units): with its width, most of a phone's screen. */
const CROP_MAX_HEIGHT = 300;
const CROP_MIN_HEIGHT = 170;
/** Room kept around the changed shapes in a cut-out. */
const CROP_PAD = 18;

const r1 = (n: number) => Math.round(n * 10) / 10;

interface Crop {
  x: number;
  y: number;
  w: number;
  h: number;
  parts: Box[];
}

/**
 * Where to cut the board: bunches of the shapes drawn now that were not drawn then, each bunch
 * no larger than a cut-out, the bunches with the most changes first (at most `most`).
 */
function crops(view: [number, number, number, number], boxes: Box[], most: number): Crop[] {
  const [vx, vy, vw, vh] = view;
  const maxW = PHONE_WIDTH - 2 * CROP_PAD;
  const maxH = CROP_MAX_HEIGHT - 2 * CROP_PAD;
  const bunches: { box: Box; parts: Box[] }[] = [];
  const sorted = [...boxes].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  for (const box of sorted) {
    const fits = bunches.find((g) => {
      const w = Math.max(g.box[2], box[2]) - Math.min(g.box[0], box[0]);
      const h = Math.max(g.box[3], box[3]) - Math.min(g.box[1], box[1]);
      return w <= maxW && h <= maxH;
    });
    if (fits) {
      fits.box = [
        Math.min(fits.box[0], box[0]),
        Math.min(fits.box[1], box[1]),
        Math.max(fits.box[2], box[2]),
        Math.max(fits.box[3], box[3]),
      ];
      fits.parts.push(box);
    } else bunches.push({ box: [...box], parts: [box] });
  }
  return bunches
    .sort((a, b) => b.parts.length - a.parts.length)
    .slice(0, most)
    .map(({ box, parts }) => {
      const w = Math.min(PHONE_WIDTH, vw);
      const h = Math.min(vh, Math.max(CROP_MIN_HEIGHT, Math.min(CROP_MAX_HEIGHT, box[3] - box[1] + 2 * CROP_PAD)));
      const cx = (box[0] + box[2]) / 2;
      const cy = (box[1] + box[3]) / 2;
      return {
        x: Math.min(Math.max(cx - w / 2, vx), vx + vw - w),
        y: Math.min(Math.max(cy - h / 2, vy), vy + vh - h),
        w,
        h,
        parts,
      };
    });
}

/** The root element's inherited text attributes (font family and size), for a cut-out nested in another document. */
function inherited(head: string): string {
  return ['font-family', 'font-size']
    .map((name) => new RegExp(`\\s${name}="([^"]*)"`).exec(head))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => m[0])
    .join('');
}

/** The board's area a picture declares (x, y, width, height), or null. */
function boardOf(head: string | undefined): [number, number, number, number] | null {
  const v = /\sdata-board="([^"]*)"/
    .exec(head ?? '')?.[1]
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  return v && v.length === 4 && v.every(Number.isFinite) && v[2]! > 0 && v[3]! > 0
    ? (v as [number, number, number, number])
    : null;
}

/** `{seat:N}` in a card's words as the players' names. */
export function nameRows(rows: readonly CardRow[], name: (text: string) => string): CardRow[] {
  return rows.map((r) => ({
    ...r,
    ...(r.label !== undefined ? { label: name(r.label) } : {}),
    ...(r.text !== undefined ? { text: name(r.text) } : {}),
    ...(r.chips ? { chips: r.chips.map((c) => ({ ...c, text: name(c.text) })) } : {}),
  }));
}

/**
 * The close-up: the cut-outs of what changed between the seat's mail pictures `before` (at its
 * last move; null before it has moved) and `after` (now), then its card `rows`. Undefined when it would show
 * nothing.
 */
export function phoneCloseUp(o: {
  rows: readonly CardRow[] | null | undefined;
  before: string | null;
  after: string | undefined;
  /** How many cut-outs at most. */
  most?: number;
  /** changedShapes(before, after), when the caller has it already (it also rings them on the board). */
  changed?: ReturnType<typeof changedShapes>;
}): string | undefined {
  const out: string[] = [];
  let y = 0;
  const changed = o.changed !== undefined ? o.changed : o.before && o.after ? changedShapes(o.before, o.after) : null;
  // Only what changed on the board itself (data-board, rules/picture.ts boardArea), if the picture says where it is.
  const area = boardOf(changed?.a.head) ?? changed?.view;
  const boxes = area
    ? (changed?.boxes ?? []).filter(
        (b) => b[0] <= area[0] + area[2] && b[2] >= area[0] && b[1] <= area[1] + area[3] && b[3] >= area[1],
      )
    : [];
  if (changed && area && boxes.length > 0) {
    // The printed board's layers are plain groups here: the cut-outs are drawn in one piece.
    const font = Number(/font-size="([\d.]+)"/.exec(changed.a.head)?.[1] ?? 16);
    const body = cuttable(changed.a.body.replace(/\sdata-static="[^"]*"/g, ''), font);
    const attrs = inherited(changed.a.head);
    y += 20;
    out.push(`<text x="8" y="${y}" font-size="15" font-weight="bold">What changed since your last turn</text>`);
    y += 8;
    for (const c of crops(area, boxes, o.most ?? 2)) {
      const rings = c.parts
        .map(
          (p) =>
            `<rect x="${r1(p[0] - 4)}" y="${r1(p[1] - 4)}" width="${r1(p[2] - p[0] + 8)}" height="${r1(p[3] - p[1] + 8)}" fill="none" stroke="#e06000" stroke-width="3" stroke-dasharray="6 3" rx="3"/>`,
        )
        .join('');
      out.push(
        `<svg x="0" y="${y}" width="${PHONE_WIDTH}" height="${r1(c.h)}" viewBox="${r1(c.x)} ${r1(c.y)} ${r1(c.w)} ${r1(c.h)}"${attrs}>${cutOut(body, [c.x, c.y, c.x + c.w, c.y + c.h])}<g class="changed">${rings}</g></svg>`,
        `<rect x="0.5" y="${y + 0.5}" width="${PHONE_WIDTH - 1}" height="${r1(c.h - 1)}" fill="none" stroke="#e06000" stroke-width="1"/>`,
      );
      y += c.h + 8;
    }
  }
  if (o.rows?.length) {
    const card = drawCard(o.rows, y);
    out.push(card.body);
    y += card.height;
  }
  if (out.length === 0) return undefined;
  const height = Math.ceil(y);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PHONE_PNG_WIDTH}" height="${Math.round((PHONE_PNG_WIDTH * height) / PHONE_WIDTH)}" viewBox="0 0 ${PHONE_WIDTH} ${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${out.join('')}</svg>`;
}
