// The picture of the board in a mail: the game's SVG rasterised to PNG, since
// most mail clients drop inline SVG. resvg has no system-font cache between
// renders, so we hand it one small sans-serif font file found once.
import { Resvg } from '@resvg/resvg-js';
import { existsSync } from 'node:fs';

const FONT_CANDIDATES = [
  // Small files shape fastest; any one sans-serif face will do for a board.
  { file: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', family: 'Liberation Sans' },
  { file: '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf', family: 'Liberation Sans' },
  { file: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', family: 'DejaVu Sans' },
  { file: '/usr/share/fonts/dejavu/DejaVuSans.ttf', family: 'DejaVu Sans' },
  { file: '/Library/Fonts/Arial.ttf', family: 'Arial' },
  { file: 'C:\\Windows\\Fonts\\arial.ttf', family: 'Arial' },
];

let fontOptions: ConstructorParameters<typeof Resvg>[1] extends infer O ? (O extends { font?: infer F } ? F : never) : never;

function fonts() {
  if (fontOptions) return fontOptions;
  const found = FONT_CANDIDATES.find((c) => existsSync(c.file));
  fontOptions = found
    ? { loadSystemFonts: false, fontFiles: [found.file], defaultFontFamily: found.family, sansSerifFamily: found.family }
    : { loadSystemFonts: true };
  return fontOptions;
}

/** Widest picture we put in a mail; wider boards are scaled down. */
export const MAX_PNG_WIDTH = 1000;

/** Renders a standalone SVG document to PNG bytes. Throws on an SVG resvg cannot parse. */
export function svgToPng(svg: string): Buffer {
  const resvg = new Resvg(svg, { font: fonts(), background: '#ffffff' });
  const fit = resvg.width > MAX_PNG_WIDTH ? new Resvg(svg, { font: fonts(), background: '#ffffff', fitTo: { mode: 'width', value: MAX_PNG_WIDTH } }) : resvg;
  return fit.render().asPng();
}
