// The geometry of the virtual table on hand-set tables: lengths to clips,
// each kind of crossing and touch, and the links the table refuses.
import { describe, expect, it } from 'vitest';
import { RuleError } from '../../../rules/types.ts';
import {
  clipsFor,
  exitPoint,
  pointInPolygon,
  polylineIsSimple,
  rectAt,
  segmentContact,
  segmentsTouch,
} from '../../../rules/paperclip-railways/geometry.ts';
import { planBuild } from '../../../rules/paperclip-railways/build.ts';
import { measureLink } from '../../../rules/paperclip-railways/link.ts';
import type { Station } from '../../../rules/paperclip-railways/state.ts';
import { obstacleShape } from '../../../rules/paperclip-railways/table.ts';
import { card, R, start, table } from './table.ts';

/** A polyline 960 mm and 1.65e-8 mm long. */
const OVER_960: [number, number][] = [
  [-367, -305],
  [-180, -208],
  [215, 154],
  [367, 304],
];

const HAND = [['dent', 'settle', 'rannoch', 'bath', 'corrour', 'ealing']];

function link(from: string, to: string, bends: [number, number][] = []) {
  return { type: 'build' as const, from, to, bends };
}

describe('segments', () => {
  it('tells a crossing, a touch at an end, an overlap and a miss apart, exactly', () => {
    expect(segmentContact([0, 0], [10, 10], [0, 10], [10, 0])).toEqual({ kind: 'cross', x: 5, y: 5 });
    expect(segmentContact([0, 0], [10, 0], [5, 0], [5, 7]).kind).toBe('touch'); // T: an end on the other's middle
    expect(segmentContact([0, 0], [10, 0], [10, 0], [20, 5]).kind).toBe('touch'); // end to end
    expect(segmentContact([0, 0], [10, 0], [4, 0], [20, 0]).kind).toBe('overlap');
    expect(segmentContact([0, 0], [10, 0], [11, 0], [20, 0]).kind).toBe('none');
    expect(segmentContact([0, 0], [10, 0], [0, 1], [10, 1]).kind).toBe('none');
    // A near miss one millimetre off, far out: integers keep it exact.
    expect(segmentsTouch([0, 0], [3000, 1], [1500, 1], [1500, 2])).toBe(false);
    expect(segmentsTouch([0, 0], [3000, 2], [1500, 1], [1500, 2])).toBe(true);
  });

  it('gives the same point for a crossing reached from different segments', () => {
    const a = segmentContact([0, 0], [7, 3], [0, 3], [7, 0]);
    const b = segmentContact([7, 3], [0, 0], [7, 0], [0, 3]);
    expect(a.kind).toBe('cross');
    expect(b).toEqual(a);
  });

  it('rounds a length up to whole clips of 30 mm, exactly at the boundary', () => {
    expect(
      clipsFor(
        [
          [0, 0],
          [90, 0],
        ],
        30,
      ),
    ).toBe(3);
    expect(
      clipsFor(
        [
          [0, 0],
          [54, 72],
        ],
        30,
      ),
    ).toBe(3); // 90 mm on the slant: a whole length, compared in integers
    expect(
      clipsFor(
        [
          [0, 0],
          [90, 1],
        ],
        30,
      ),
    ).toBe(4); // 90.0056 mm
    expect(
      clipsFor(
        [
          [0, 0],
          [1, 0],
        ],
        30,
      ),
    ).toBe(1);
    // 960 mm plus 1.65e-8 mm: 33 clips, not 32 (a float with a tolerance said 32)
    expect(clipsFor(OVER_960, 30)).toBe(33);
    expect(
      clipsFor(
        [
          [0, 0],
          [480, 0],
          [960, 0],
        ],
        30,
      ),
    ).toBe(32);
  });

  it('knows closed polygons, simple polylines and where a ray leaves a card', () => {
    const L = obstacleShape('ridge', 0, 0, 0);
    expect(pointInPolygon([-40, 0], L)).toBe(true);
    expect(pointInPolygon([30, -30], L)).toBe(false); // the notch of the L
    expect(pointInPolygon([-10, -70], L)).toBe(true); // a corner counts as inside
    expect(
      polylineIsSimple([
        [0, 0],
        [10, 0],
        [10, 10],
        [5, -5],
      ]),
    ).toBe(false);
    expect(
      polylineIsSimple([
        [0, 0],
        [10, 0],
        [5, 0],
      ]),
    ).toBe(false); // doubling back
    expect(
      polylineIsSimple([
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 10],
      ]),
    ).toBe(true);
    expect(exitPoint(rectAt(0, 0, 64, 44), [300, 0])).toEqual([32, 0]);
    expect(exitPoint(rectAt(0, 0, 64, 44), [0, -300])).toEqual([0, -22]);
    expect(exitPoint(rectAt(0, 0, 64, 44), [100, 100])).toEqual([22, 22]);
  });
});

describe('links on a hand-set table', () => {
  it('measures a straight link from card edge to card edge and rounds it to clips', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: HAND });
    const p = planBuild(s, 0, link('S1', 'york'));
    expect(p.geometry.points).toEqual([
      [-268, 0],
      [-32, 0],
    ]);
    expect(p.geometry.clips).toBe(8); // 236 mm / 30
    expect(p.pay).toHaveLength(3); // one card per 3 clips
  });

  it('charges a link 960 mm and a hair long 33 clips', () => {
    const hand = ['london', 'birmingham', 'manchester', 'liverpool', 'leeds', 'glasgow', 'edinburgh', 'bristol'];
    const s = table({ stations: [start(0, -399, -322), card('york', 389, 326)], hands: [[...hand, ...HAND[0]!]] });
    const p = planBuild(s, 0, link('S1', 'york', OVER_960.slice(1, 3)));
    expect(p.geometry.points).toEqual(OVER_960);
    expect(p.geometry.clips).toBe(33);
    s.version = 1; // a game set up before: a float with a tolerance, as it was played
    expect(planBuild(s, 0, link('S1', 'york', OVER_960.slice(1, 3))).geometry.clips).toBe(32);
  });

  it('measures a bent link along its bends', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: HAND });
    const p = planBuild(s, 0, link('S1', 'york', [[-150, 120]]));
    // The ray from S1's centre towards the bend leaves its lower edge at x = -272.5, kept on the edge as -272.
    expect(p.geometry.points[0]).toEqual([-272, 22]);
    expect(p.geometry.points).toHaveLength(3);
    const [a, b, c] = p.geometry.points as [number, number][];
    const len = Math.hypot(b![0] - a![0], b![1] - a![1]) + Math.hypot(c![0] - b![0], c![1] - b![1]);
    expect(p.geometry.clips).toBe(Math.ceil(len / 30));
  });

  it("counts each crossing of another player's link once, even through its bend, and pays that player", () => {
    const s = table({
      stations: [start(0, -300, 0), card('york', 0, 0), card('dent', -150, -200), card('settle', -150, 200)],
      hands: HAND,
    });
    // Seat 1's link runs from dent to settle with a bend right on seat 0's line.
    s.links.push({
      owner: 1,
      from: 'dent',
      to: 'settle',
      points: [
        [-150, -178],
        [-150, 0],
        [-150, 178],
      ],
      clips: 12,
      score: 0,
    });
    const p = planBuild(s, 0, link('S1', 'york'));
    expect(p.geometry.crossings).toEqual([0, 1, 0, 0]);
    const before = [...s.scores];
    R.apply(s, 0, link('S1', 'york'));
    expect(s.scores[1]).toBe(before[1]! + 1);
  });

  it('counts a stretch run along together once, even where the other link bends without turning', () => {
    const s = table({
      stations: [start(0, -300, 0), card('york', 0, 0), card('dent', -250, -200), card('settle', -60, -200)],
      hands: HAND,
    });
    // Seat 1's link comes down onto y = 0, runs along seat 0's line from -220 to -100 with a
    // straight-on bend at -150, and leaves again.
    s.links.push({
      owner: 1,
      from: 'dent',
      to: 'settle',
      points: [
        [-250, -178],
        [-220, 0],
        [-150, 0],
        [-100, 0],
        [-60, -178],
      ],
      clips: 15,
      score: 0,
    });
    expect(planBuild(s, 0, link('S1', 'york')).geometry.crossings).toEqual([0, 1, 0, 0]);
    s.version = 1; // games set up under rules version 1 counted the two pieces
    expect(planBuild(s, 0, link('S1', 'york')).geometry.crossings).toEqual([0, 2, 0, 0]);
  });

  it('keeps the ends of a link from a station on the border inside the play area', () => {
    // Two players: york on the rhombus's west corner; the ray towards bath leaves york's card on
    // its lower edge at x = -489.75. The nearest whole millimetre, -490, lies 0.1 mm outside the
    // area (whose edge crosses y = 22 at x = -489.9); -489 lies inside.
    const s = table({ seats: 2, stations: [card('york', -520, 0), card('bath', -432, 64)] });
    const [york, bath] = s.stations as [Station, Station];
    expect(measureLink(s, 0, york, bath, []).points[0]).toEqual([-489, 22]);
    s.version = 1;
    expect(() => measureLink(s, 0, york, bath, [])).toThrow(/leaves the play area at -490,22/);
  });

  it('sets every border and starting station inside the play area, for every player count', () => {
    for (const n of [2, 3, 4, 5]) {
      const s = R.setup(n, 'spots', {});
      for (const st of s.stations.filter((x) => x.kind !== 'metro'))
        expect(pointInPolygon([st.x, st.y], s.area), `${n} players, ${st.x},${st.y}`).toBe(true);
    }
    // rules version 1 rounded 268.5 up: a three-player starting station half a millimetre out
    const old = R.setup(3, 'spots', { rulesVersion: 1 });
    expect(old.stations.filter((x) => x.kind === 'start' && !pointInPolygon([x.x, x.y], old.area))).toHaveLength(1);
  });

  it('counts a touch of another link as a contact, and a link crossed twice twice', () => {
    const s = table({
      stations: [start(0, -300, 0), card('york', 0, 0), card('dent', -200, 200), card('settle', -100, 200)],
      hands: HAND,
    });
    s.links.push({
      owner: 2,
      from: 'dent',
      to: 'settle',
      points: [
        [-200, 178],
        [-200, 0],
        [-100, 0],
        [-100, 178],
      ],
      clips: 15,
      score: 0,
    });
    expect(planBuild(s, 0, link('S1', 'york')).geometry.crossings[2]).toBe(1); // runs along the top: one overlap
    s.links[0]!.points = [
      [-200, 178],
      [-200, -30],
      [-100, -30],
      [-100, 178],
    ];
    expect(planBuild(s, 0, link('S1', 'york')).geometry.crossings[2]).toBe(2); // crossed twice
    s.links[0]!.points = [
      [-200, 178],
      [-150, 0],
      [-100, 178],
    ];
    expect(planBuild(s, 0, link('S1', 'york')).geometry.crossings[2]).toBe(1); // touched by a bend
    s.links[0]!.points = [
      [-200, 178],
      [-200, 0],
      [-150, 50],
      [-100, 0],
      [-100, 178],
    ];
    expect(planBuild(s, 0, link('S1', 'york')).geometry.crossings[2]).toBe(2); // touches twice (two bends on the line)
  });

  it('costs nothing to cross your own link', () => {
    const s = table({
      stations: [start(0, -300, 0), card('york', 0, 0), card('dent', -150, -200), card('settle', -150, 200)],
      hands: HAND,
    });
    s.links.push({
      owner: 0,
      from: 'dent',
      to: 'settle',
      points: [
        [-150, -178],
        [-150, 178],
      ],
      clips: 12,
      score: 0,
    });
    expect(planBuild(s, 0, link('S1', 'york')).crossingCost).toBe(0);
  });

  it('does not count two links meeting at the edge of a station both serve', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0), card('dent', 100, -250)], hands: HAND });
    const mine = planBuild(s, 0, link('S1', 'york', [[-100, -150]])).geometry.points;
    expect(mine[mine.length - 1]).toEqual([-15, -22]);
    // Seat 1's link leaves york from the very point where seat 0's arrives.
    s.links.push({
      owner: 1,
      from: 'york',
      to: 'dent',
      points: [
        [-15, -22],
        [100, -228],
      ],
      clips: 8,
      score: 0,
    });
    expect(planBuild(s, 0, link('S1', 'york', [[-100, -150]])).geometry.crossings[1]).toBe(0);
  });

  it('counts each obstacle touched or crossed once, and the river as one more', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: HAND });
    s.obstacles.push({ id: 'lake', x: -150, y: 0, rot: 0, by: 1, shape: obstacleShape('lake', -150, 0, 0) });
    let p = planBuild(s, 0, link('S1', 'york'));
    expect(p.geometry.obstacles).toBe(1);
    expect(p.obstaclePenalty).toBe(2);
    // Only touching a corner of the mountain counts too.
    s.obstacles = [{ id: 'mountain', x: -150, y: 40, rot: 0, by: 1, shape: obstacleShape('mountain', -150, 40, 0) }];
    p = planBuild(s, 0, link('S1', 'york'));
    expect(p.geometry.obstacles).toBe(1);
    s.obstacles = [{ id: 'mountain', x: -150, y: 41, rot: 0, by: 1, shape: obstacleShape('mountain', -150, 41, 0) }];
    expect(planBuild(s, 0, link('S1', 'york')).geometry.obstacles).toBe(0);
    // The river crossed twice is one obstacle.
    s.river = [
      [-200, -100],
      [-200, 100],
      [-100, 100],
      [-100, -100],
    ];
    p = planBuild(s, 0, link('S1', 'york'));
    expect(p.geometry.riverTouched).toBe(true);
    expect(p.geometry.obstacles).toBe(1);
    expect(p.obstaclePenalty).toBe(2);
  });

  it('refuses a link through another station, or touching one', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0), card('dent', -150, 0)], hands: HAND });
    expect(() => R.apply(s, 0, link('S1', 'york'))).toThrow(/Dent/);
    s.stations[2]!.y = 22 + 22; // dent's lower edge... its top edge now at y = 22: the link at y = 0 misses it
    s.stations[2]!.y = 22;
    expect(() => planBuild(s, 0, link('S1', 'york'))).toThrow(RuleError); // touching the edge at y = 0
    s.stations[2]!.y = 23;
    expect(() => planBuild(s, 0, link('S1', 'york'))).not.toThrow();
  });

  it('refuses a link that leaves the play area', () => {
    const s = table({ stations: [start(0, -150, 400), card('york', 150, 400)], hands: HAND });
    expect(() => R.apply(s, 0, link('S1', 'york', [[0, 490]]))).toThrow(/play area/);
    expect(() => planBuild(s, 0, link('S1', 'york', [[0, 480]]))).not.toThrow(); // on the edge is inside
  });

  it('refuses a link that crosses itself', () => {
    const s2 = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: HAND });
    expect(() =>
      R.apply(
        s2,
        0,
        link('S1', 'york', [
          [-150, -100],
          [-150, 100],
          [-200, 0],
          [-100, 0],
        ]),
      ),
    ).toThrow(/cross itself/);
  });

  it('refuses a link that runs back over its start station or touches it again', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: HAND });
    expect(() =>
      R.apply(
        s,
        0,
        link('S1', 'york', [
          [-250, 60],
          [-290, 60],
          [-290, -60],
          [-150, -60],
        ]),
      ),
    ).toThrow(/touch its start station/);
    expect(() => R.apply(s, 0, link('S1', 'york', [[-300, 10]]))).toThrow(/start station/);
  });
});
