// Pictures for a mail column (pure). A turn mail shows the board as a PNG in a column 360 to 640
// px wide (server/mail/raster.ts draws a wider document at 640 px; a phone shrinks it to its
// width). A game's `svg(view, 'mail')` is drawn for that column: MAIL_WIDTH units wide, so a unit
// is a pixel at 640, every word at least MAIL_MIN_TEXT units tall, the map filling the width
// (tables and legends below it, not beside it), fewer and shorter labels where they would crowd,
// and what the seat holds marked as its own. On a phone that picture shows at about 344 px, too
// small to read, so the turn mail opens with a close-up drawn PHONE_WIDTH wide
// (server/mail/closeup.ts): what changed since the seat's last turn, cut from the mail picture at
// one unit a pixel, and the seat's card (`holdings`, drawn here by drawCard).
import { escapeMarkup as escapeText } from './escape.ts';
import type { View } from './types.ts';

/** Width (px) of the mail's column and of a mail picture (one unit a pixel at this width). */
export const MAIL_WIDTH = 640;

/** The smallest words in a mail picture, in px at MAIL_WIDTH (test/mail/picture.test.ts checks). */
export const MAIL_MIN_TEXT = 11;

/**
 * The root attribute by which a mail picture says where its board is (x, y, width, height): the
 * close-up cuts out what changed there only (tables and legends below it show what the seat's
 * card says better).
 */
export function boardArea(x: number, y: number, width: number, height: number): string {
  return ` data-board="${x} ${y} ${width} ${height}"`;
}

/** Who a picture is drawn for: a page (scales in a box of its own, may scroll) or a mail column. */
export type PictureTarget = 'page' | 'mail';

/**
 * Raises every font size below `min` (in the document's units) to `min`: for the small print of
 * tables and legends that are laid out with room to spare. Labels that would crowd are drawn
 * larger, fewer or shorter by the game itself.
 */
export function textAtLeast(svg: string, min: number): string {
  return svg.replace(/font-size="([\d.]+)"/g, (whole, n: string) =>
    Number(n) < min ? `font-size="${Number(min.toFixed(1))}"` : whole,
  );
}

/**
 * Width (units) of the turn mail's close-up, drawn for a phone: a 360 px screen shows a mail's
 * picture about 344 px wide, so a unit is a pixel there and no word is under PHONE_MIN_TEXT px.
 */
export const PHONE_WIDTH = 340;

/** The smallest words in the close-up, in px at PHONE_WIDTH (test/mail/picture.test.ts checks). */
export const PHONE_MIN_TEXT = 11;

/** A coloured label on the close-up's card (a share, a card in hand): its words and colours. */
export interface Chip {
  text: string;
  fill: string;
  /** The words' colour (default: black or white, whichever reads on `fill`). */
  ink?: string;
}

/**
 * One row of the seat's card (`holdings` in rules/types.ts): a label, words, coloured chips. The
 * rules write players as `{seat:N}`, as in history lines; the server puts their names in.
 */
export interface CardRow {
  label?: string;
  text?: string;
  chips?: Chip[];
  /** A heading row (the status line): larger and bold. */
  heading?: boolean;
}

const CARD_PAD = 8;
/**
 * Width of a sans-serif character, in ems, for wrapping words (Liberation Sans averages under 0.5
 * on English words; DejaVu Sans runs wider) and for sizing chips (wider: a chip's words must not
 * spill out of it).
 */
const EM_WIDTH = 0.5;
const CHIP_EM_WIDTH = 0.56;

/** Black or white words, whichever reads better on `fill` (#rgb or #rrggbb; black otherwise). */
export function inkOn(fill: string): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(fill)?.[1];
  if (!hex) return '#000000';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! < 140 ? '#ffffff' : '#000000';
}

/** `text` broken into lines of at most `chars` characters, at spaces (a longer word is cut). */
export function wrapWords(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let w = word;
    while (w.length > chars) {
      if (line) lines.push(line);
      lines.push(w.slice(0, chars));
      w = w.slice(chars);
      line = '';
    }
    if (!w) continue;
    if (!line) line = w;
    else if (line.length + 1 + w.length <= chars) line += ` ${w}`;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * How every game's holdings(view) begins: the status line as the card's heading, and the
 * viewing seat's own entry among the view's players (none for a spectator).
 */
export function cardStart<P extends { seat: number }>(
  view: View,
  players: readonly P[],
): { rows: CardRow[]; me: P | undefined } {
  const rows: CardRow[] = [{ heading: true, text: String(view.status ?? '') }];
  const me = typeof view.seat === 'number' ? players.find((p) => p.seat === view.seat) : undefined;
  return { rows, me };
}

/**
 * The card's rows drawn PHONE_WIDTH wide from `top` (an SVG fragment and its height): words
 * wrapped to the width, chips flowing onto as many lines as they need, nothing under 13 px.
 */
export function drawCard(rows: readonly CardRow[], top = 0): { body: string; height: number } {
  const out: string[] = [];
  const inner = PHONE_WIDTH - 2 * CARD_PAD;
  let y = top + CARD_PAD;
  const text = (x: number, size: number, words: string, extra = '') =>
    `<text x="${x}" y="${y}" font-size="${size}"${extra}>${escapeText(words)}</text>`;
  for (const row of rows) {
    const size = row.heading ? 15 : 14;
    const chars = Math.floor(inner / (size * EM_WIDTH));
    // The label and the words run on as one paragraph (the label bold).
    if (row.label || row.text) {
      const label = row.label ? `${row.label}${row.text || row.chips?.length ? ':' : ''}` : '';
      const lines = wrapWords([label, row.text ?? ''].filter(Boolean).join(' '), chars);
      lines.forEach((line, i) => {
        y += size + 5;
        if (i === 0 && label && line.startsWith(label)) {
          const rest = line.slice(label.length);
          out.push(
            `<text x="${CARD_PAD}" y="${y}" font-size="${size}"><tspan font-weight="bold">${escapeText(label)}</tspan>${escapeText(rest)}</text>`,
          );
        } else out.push(text(CARD_PAD, size, line, row.heading ? ' font-weight="bold"' : ''));
      });
    }
    if (row.chips?.length) {
      const chip = 13;
      let x = CARD_PAD;
      y += 6 + chip + 6;
      for (const c of row.chips) {
        const fit = Math.floor((inner - 12) / (chip * CHIP_EM_WIDTH));
        const words = c.text.length > fit ? `${c.text.slice(0, fit - 1)}…` : c.text;
        const w = Math.ceil(words.length * chip * CHIP_EM_WIDTH + 12);
        if (x > CARD_PAD && x + w > PHONE_WIDTH - CARD_PAD) {
          x = CARD_PAD;
          y += chip + 12;
        }
        out.push(
          `<rect x="${x}" y="${y - chip - 3}" width="${w}" height="${chip + 8}" rx="3" fill="${escapeText(c.fill)}" stroke="#000" stroke-width="0.8"/>`,
          `<text x="${x + w / 2}" y="${y}" font-size="${chip}" text-anchor="middle" fill="${escapeText(c.ink ?? inkOn(c.fill))}">${escapeText(words)}</text>`,
        );
        x += w + 6;
      }
      y += 5;
    }
    y += 4;
  }
  return { body: out.join(''), height: y - top + CARD_PAD };
}
