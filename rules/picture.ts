// Pictures for a mail column (pure). A turn mail shows the board as a PNG in a column 360 to 640
// px wide (server/mail/raster.ts draws a wider document at 640 px; a phone shrinks it to its
// width). A game's `svg(view, 'mail')` is drawn for that column: MAIL_WIDTH units wide, so a unit
// is a pixel at 640, every word at least MAIL_MIN_TEXT units tall, the map filling the width
// (tables and legends below it, not beside it), fewer and shorter labels where they would crowd,
// and what the seat holds marked as its own.

/** Width (px) of the mail's column and of a mail picture (one unit a pixel at this width). */
export const MAIL_WIDTH = 640;

/** The smallest words in a mail picture, in px at MAIL_WIDTH (test/mail/picture.test.ts checks). */
export const MAIL_MIN_TEXT = 11;

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
