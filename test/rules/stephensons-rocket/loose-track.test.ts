// A line is its locomotive's hex and the track joined to it. The SDR, running
// east along N14-N15, merges next to Norwich while the NR locomotive still stands
// there: the joining tile on N16 touches only Norwich. Once the NR leaves Norwich,
// the start town is no longer part of the NR, so the old SDR track is joined to
// no line. Each consequence on a hand-set board.
import { describe, expect, it } from 'vitest';
import { game, H, L, P, passVotes, putLoco, putStation, putTile, R } from './helpers.ts';

/** Seat 0 merges the SDR into the NR at Norwich; seat 1 has a station on the SDR track (N14). */
function mergedAtNorwich(version?: number) {
  const s = version === undefined ? game(3) : R.setup(3, 'hand-set', { rulesVersion: version });
  putTile(s, 'SDR', 'N14', [3, 0]);
  putLoco(s, 'SDR', 'N15', 0);
  putStation(s, 1, 'N14');
  R.apply(s, 0, { type: 'extend', line: 'SDR', to: 'N16' });
  passVotes(s);
  return s;
}
const nrStations = (s: ReturnType<typeof game>) =>
  (R.view(s, null).lines as { id: string; stations: number[] }[]).find((l) => l.id === 'NR')!.stations;
const reasons = (s: ReturnType<typeof game>) => s.ledger.map((p) => `${p.seat}: ${p.reason}`);

describe('track joined to the NR only through its start town', () => {
  it('is part of the NR while the NR locomotive stands in Norwich', () => {
    const s = mergedAtNorwich();
    expect(s.lines[L('SDR')]!.absorbedInto).toBe(L('NR'));
    expect(s.tiles.map((t) => [t.hex, t.line])).toEqual([
      [H('N14'), L('NR')],
      [H('N15'), L('NR')],
      [H('N16'), L('NR')],
    ]);
    expect(nrStations(s)).toEqual([0, 1, 0]);
    expect(s.lines[L('NR')]!.connected).toEqual([P('norwich'), P('stockton')]);
  });

  it('joins no line once the NR leaves Norwich: its station no longer counts in a railway-town scoring', () => {
    const s = mergedAtNorwich();
    const paidBefore = s.ledger.length;
    R.apply(s, 0, { type: 'extend', line: 'NR', to: 'P17' }); // next to Ipswich, away from N14-N16
    passVotes(s);
    expect(s.tiles.every((t) => t.line !== L('NR'))).toBe(true);
    expect(nrStations(s)).toEqual([0, 0, 0]);
    // Stockton came with the SDR track and leaves with it; Ipswich joins
    expect(s.lines[L('NR')]!.connected).toEqual([P('norwich'), P('ipswich')]);
    expect(s.ledger.slice(paidBefore)).toEqual([]); // seat 1's station stood on the old SDR track
    expect(R.check!(s)).toEqual([]);
  });

  it('pays its stations nothing in the final station scoring', () => {
    const s = mergedAtNorwich();
    // every other line has run out of shares: the NR's next extension ends the game
    s.lines.forEach((l, i) => {
      if (i !== L('NR')) l.exhausted = true;
    });
    R.apply(s, 0, { type: 'extend', line: 'NR', to: 'P17' });
    passVotes(s);
    expect(s.finished).toBe(true);
    expect(s.finalScoring).toContain('final NR stations (2 towns and cities): nobody');
    expect(reasons(s).filter((r) => r.startsWith('1: final'))).toEqual([]);
  });

  it('merges nothing: a line moving next to it stays a line of its own', () => {
    const s = mergedAtNorwich();
    R.apply(s, 0, { type: 'extend', line: 'NR', to: 'P17' });
    passVotes(s);
    putLoco(s, 'GWR', 'L13', 1); // south-east from L13 is M13, next to N14
    R.apply(s, 1, { type: 'extend', line: 'GWR', to: 'M13' });
    passVotes(s);
    expect(s.lines[L('GWR')]!.absorbedInto).toBe(-1);
    expect(s.lines[L('GWR')]!.loco).toBe(H('M13'));
  });

  it('is no second line: moving next to it and one line is allowed, and merges into that line', () => {
    const s = mergedAtNorwich();
    R.apply(s, 0, { type: 'extend', line: 'NR', to: 'P17' });
    passVotes(s);
    putTile(s, 'LMR', 'N13', [4, 1]); // N13 lies next to M13 too
    putLoco(s, 'GWR', 'L13', 1);
    R.apply(s, 1, { type: 'extend', line: 'GWR', to: 'M13' });
    passVotes(s);
    expect(s.lines[L('GWR')]!.absorbedInto).toBe(L('LMR'));
  });

  it("stays the NR's in a game set up under rules version 1", () => {
    const s = mergedAtNorwich(1);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: 'P17' });
    passVotes(s);
    expect(s.tiles.every((t) => t.line === L('NR'))).toBe(true);
    expect(nrStations(s)).toEqual([0, 1, 0]);
  });

  it('still merged into the NR before the NR left Norwich', () => {
    const s = mergedAtNorwich();
    R.apply(s, 0, { type: 'token', city: 'manchester', good: 'steel' });
    putLoco(s, 'GWR', 'L13', 1);
    R.apply(s, 1, { type: 'extend', line: 'GWR', to: 'M13' });
    passVotes(s);
    expect(s.lines[L('GWR')]!.absorbedInto).toBe(L('NR'));
  });
});
