// Where things go, in the history and the quick links: places a player finds on the picture (a
// station whose name is drawn there, or a part of the table), not bare millimetres.
import { describe, expect, it } from 'vitest';
import { paperclipRailways as R } from '../../../rules/paperclip-railways/index.ts';

describe('Paperclip Railways places in words', () => {
  it('names the part of the table, or the face-up station next to the spot, with the millimetres after', () => {
    const s = R.setup(2, 'places', {});
    const seat = R.toAct(s)[0]!;
    const move = R.moves(s, seat).find((m: any) => m.type === 'obstacle') as any;
    expect(move).toBeDefined();
    const far = { ...move, x: 300, y: -300 };
    expect(R.describe(far, s, seat)).toMatch(/^placed the .+ in the top right of the table \(300,-300\)/);
    const middle = { ...move, x: 0, y: 10 };
    const line = R.describe(middle, s, seat);
    expect(line).toMatch(/(next to [A-Z][a-z]+.*|in the middle of the table) \(0,10\)/);
    // Nothing face down is named: its name is not on the picture (and would give the card away).
    for (const st of s.stations.filter((x: any) => x.faceDown)) {
      const near = R.describe({ ...move, x: st.x, y: st.y }, s, seat);
      expect(near).not.toMatch(/next to .*(face|\?)/);
    }
    for (const m of R.moves(s, seat).slice(0, 30)) expect(R.describe(m, s, seat)).not.toMatch(/ at -?\d+,-?\d+/);
  });
});
