// The board data: checked by its schema, places on the hexes of their true latitude/longitude.
import { describe, expect, it } from 'vitest';
import { board, loadBoard } from '../../../rules/stephensons-rocket/board.ts';
import boardJson from '../../../rules/stephensons-rocket/data/board.json' with { type: 'json' };

function hexOf(lat: number, lon: number): string {
  const { lat0, lon0, xScale, hexSize } = board.data.projection;
  const x = (lon - lon0) * xScale;
  const y = lat0 - lat;
  const q = ((Math.sqrt(3) / 3) * x - y / 3) / hexSize;
  const r = ((2 / 3) * y) / hexSize;
  const s = -q - r;
  let rq = Math.round(q),
    rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q),
    dr = Math.abs(rr - r),
    ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  const h = board.data.hexes.find((x) => x.q === rq && x.r === rr);
  return h ? h.id : '?';
}

describe('board of England and Wales', () => {
  it('puts every town and city on the hex of its true latitude and longitude', () => {
    for (const p of board.data.places) expect(hexOf(p.lat, p.lon), p.name).toBe(p.hex);
  });

  it('has seven lines from seven start towns, twelve cities with 36 goods, railway towns', () => {
    expect(board.lines).toHaveLength(7);
    expect(board.places.filter((p) => p.kind === 'city')).toHaveLength(12);
    expect(board.places.flatMap((p) => p.goods)).toHaveLength(36);
    expect(board.places.filter((p) => p.kind === 'town').length).toBeGreaterThanOrEqual(15);
    // every start town has room to leave
    for (const l of board.lines) {
      const free = board.neighbour[board.places[l.start]!.hex]!.filter((n) => n >= 0 && board.placeAt[n]! < 0);
      expect(free.length, l.id).toBeGreaterThanOrEqual(2);
    }
  });

  it('refuses broken board data at load', () => {
    const bad = structuredClone(boardJson) as any;
    bad.places.find((p: any) => p.goods).goods[0] = 'steel';
    bad.places.find((p: any) => p.id === 'reading').goods = ['steel', 'steel', 'steel'];
    expect(() => loadBoard(bad)).toThrow(/tokens/);
    const twice = structuredClone(boardJson) as any;
    twice.places[1].hex = twice.places[0].hex;
    expect(() => loadBoard(twice)).toThrow(/two places/);
    const noStart = structuredClone(boardJson) as any;
    noStart.lines[0].start = 'leeds';
    expect(() => loadBoard(noStart)).toThrow(/start town/);
  });
});
