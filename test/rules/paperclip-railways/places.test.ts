// Where things go, in the history and the quick links: places a player finds on the picture (a
// square of the grid drawn over the table, and a station whose name is drawn next to it), never
// millimetres, which the picture does not show. Typed commands take a square too.
import { describe, expect, it } from 'vitest';
import { paperclipRailways as R } from '../../../rules/paperclip-railways/index.ts';

describe('Paperclip Railways places in words', () => {
  it('names the grid square, and the face-up station next to the spot, without millimetres', () => {
    const s = R.setup(2, 'places', {});
    const seat = R.toAct(s)[0]!;
    const move = R.moves(s, seat).find((m: any) => m.type === 'obstacle') as any;
    expect(move).toBeDefined();
    // Two players play on the rhombus, -520 to 520 across and -380 to 380 down: eleven columns of
    // 100 mm from -550 (column A) and eight rows from -400 (row 1).
    const far = { ...move, x: 300, y: -300, rot: 0 };
    expect(R.describe(far, s, seat)).toMatch(/^placed the .+ at I2$/);
    expect(R.label!(far, s, seat)).toMatch(/^Place the .+ at I2$/);
    const middle = { ...move, x: 0, y: 10 };
    expect(R.describe(middle, s, seat)).toMatch(/ at F5(, next to [A-Z][a-z]+.*)?$/);
    // Nothing face down is named: its name is not on the picture (and would give the card away).
    for (const st of s.stations.filter((x: any) => x.faceDown)) {
      const near = R.describe({ ...move, x: st.x, y: st.y }, s, seat);
      expect(near).not.toMatch(/next to .*(face|\?)/);
    }
    for (const m of R.moves(s, seat).slice(0, 30)) expect(R.describe(m, s, seat)).not.toMatch(/-?\d+,-?\d+/);
  });

  it('takes a square of the grid where a typed command wants a point: its centre', () => {
    const s = R.setup(2, 'places', {});
    expect(R.parse!('obstacle lake J5 90', s, 0)).toEqual({
      type: 'obstacle',
      obstacle: 'lake',
      x: 400,
      y: 50,
      rot: 90,
    });
    expect(R.parse!('river b8 g8', s, 0)).toEqual({
      type: 'river',
      points: [
        [-400, 350],
        [100, 350],
      ],
    });
    expect(() => R.parse!('obstacle lake Z99', s, 0)).toThrow(/square of the picture's grid/);
  });
});
