// The map picture: a standalone SVG with every hex, the laid tiles' track,
// station tokens in corporation colours and off-board values; it renders to PNG.
import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { layTile, mapSvg, newBoard, placeHomeToken, tileSvg } from '../../../../rules/1830/track/index.ts';

describe('1830 map svg', () => {
  it('draws hexes, track, tokens, reservations and off-board values', () => {
    const b = newBoard();
    placeHomeToken(b, 'B&O');
    layTile(b, { corp: 'B&O', phase: '2', layUsed: false, playerPrivates: [] }, { hex: 'I17', tile: '9', rotation: 1 });
    const svg = mapSvg(b, { phase: '5' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polygon /g)?.length).toBe(93);
    expect(svg).toContain('>B&amp;O</text>'); // the B&O station
    expect(svg).toContain('>NYC</text>'); // NYC's home slot, kept for it
    expect(svg).toContain('#9</text>'); // the laid tile's number
    expect(svg).toContain('40</tspan>/<tspan font-weight="bold">70</tspan>'); // Chicago pays 70 from phase 5
    expect(svg).not.toMatch(/undefined|NaN/);
    const png = new Resvg(svg).render().asPng();
    expect(png.length).toBeGreaterThan(10_000);
    expect(mapSvg(b, { standalone: false }).startsWith('<g')).toBe(true);
    expect(svg).toContain('<g data-hex="I17">');
  });

  it('draws routes over the map, outlines hexes, and previews a turned tile', () => {
    const b = newBoard();
    placeHomeToken(b, 'B&O');
    const svg = mapSvg(b, { routes: [{ train: '2-0', connections: [['I15', 'J14']] }], highlight: ['I17'] });
    expect(svg).toContain('<polyline');
    expect(svg).toContain('>2-0</text>');
    expect(svg).toContain('stroke="#d4007a"');
    const t = tileSvg('57', 1);
    expect(t).toContain('<polygon');
    expect(t).toContain('#57');
    expect(new Resvg(t).render().asPng().length).toBeGreaterThan(500);
  });
});
