// Rules checked again on hand-set tables: the cases the first tests left open.
import { describe, expect, it } from 'vitest';
import { planBuild } from '../../../rules/paperclip-railways/build.ts';
import { segmentTouchesPolygon } from '../../../rules/paperclip-railways/geometry.ts';
import { obstacleShape } from '../../../rules/paperclip-railways/table.ts';
import { card, R, start, table } from './table.ts';

const H6 = ['dent', 'settle', 'rannoch', 'corrour', 'ealing', 'salford'];
const build = (from: string, to: string, extra: object = {}) => ({ type: 'build', from, to, ...extra });

describe('obstacles and the penalty track', () => {
  it('an obstacle touched by two stretches of one link still costs 2 once', () => {
    // S1 at -300,0 and York at 0,0; the lake spans x -205..-95, y -15..95; the bend lies just below it.
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    s.obstacles.push({ id: 'lake', x: -150, y: 40, rot: 0, by: 1, shape: obstacleShape('lake', -150, 40, 0) });
    const p = planBuild(s, 0, build('S1', 'york', { bends: [[-150, 100]] }) as never);
    const pts = p.geometry.points;
    expect(segmentTouchesPolygon(pts[0]!, pts[1]!, s.obstacles[0]!.shape)).toBe(true);
    expect(segmentTouchesPolygon(pts[1]!, pts[2]!, s.obstacles[0]!.shape)).toBe(true);
    expect(p.geometry.obstacles).toBe(1);
    expect(p.obstaclePenalty).toBe(2);
    // A second obstacle on the way is 2 more; the river one more obstacle on top.
    s.obstacles.push({
      id: 'mountain',
      x: -120,
      y: -40,
      rot: 0,
      by: 1,
      shape: obstacleShape('mountain', -120, -40, 0),
    }); // y -80..0
    s.river = [
      [-60, -200],
      [-60, 200],
    ];
    const q = planBuild(s, 0, build('S1', 'york', { bends: [[-150, 100]] }) as never);
    expect(q.geometry.obstacles).toBe(2); // the mountain lies clear of this link; the river counts
    expect(q.geometry.riverTouched).toBe(true);
    const straight = planBuild(s, 0, build('S1', 'york') as never);
    expect(straight.geometry.obstacles).toBe(3); // the lake, the mountain (run along its bottom edge) and the river
    expect(straight.obstaclePenalty).toBe(6);
  });

  it('the penalty goes up by one after each station placed on an obstacle or the river, to at most 6; elsewhere it stays', () => {
    const hand = ['york', 'dent', 'settle', 'rannoch', 'corrour', 'ealing'];
    const onLake = (penalty: number) => {
      const s = table({ stations: [start(0, -300, 0)], hands: [hand] });
      s.obstacles.push({ id: 'lake', x: 87, y: 0, rot: 0, by: 1, shape: obstacleShape('lake', 87, 0, 0) }); // edge at x = 32
      s.penalty = penalty;
      return s;
    };
    const a = onLake(5);
    R.apply(a, 0, { type: 'build', from: 'S1', card: 'york', at: [0, 0] });
    expect(a.lastBuild!.placementPenalty).toBe(5);
    expect(a.penalty).toBe(6);
    const b = onLake(6);
    R.apply(b, 0, { type: 'build', from: 'S1', card: 'york', at: [0, 0] });
    expect(b.lastBuild!.placementPenalty).toBe(6);
    expect(b.penalty).toBe(6);
    const c = onLake(3);
    R.apply(c, 0, { type: 'build', from: 'S1', card: 'york', at: [0, -120] }); // clear of the lake
    expect(c.lastBuild!.placementPenalty).toBe(0);
    expect(c.penalty).toBe(3);
  });
});

describe('running out', () => {
  it('a player down to only cubes (no clips) draws a last card, can then only pass, and the game ends', () => {
    const s = table({
      seats: 2,
      stations: [start(0, -300, 0), card('york', 0, 0), card('bath', 0, 250)],
      hands: [H6, H6],
    });
    s.clips[0] = 8;
    R.apply(s, 0, build('S1', 'york'));
    expect(s.clips[0]).toBe(0);
    expect(s.lastOrders).toBe(0);
    // The other player still has their turn.
    expect(s.turn).toBe(1);
    R.apply(s, 1, { type: 'draw' });
    R.apply(s, 1, R.moves(s, 1)[0]!);
    expect(R.outcome(s)).toBeNull();
    expect(R.moves(s, 0)).toEqual([{ type: 'draw' }]);
    const n = s.hands[0]!.length;
    R.apply(s, 0, { type: 'draw' });
    expect(s.hands[0]).toHaveLength(n + 1);
    expect(R.moves(s, 0)).toEqual([{ type: 'pass' }]);
    expect(() => R.apply(s, 0, { type: 'draw' })).toThrow(/last card/);
    R.apply(s, 0, { type: 'pass' });
    expect(R.outcome(s)!.reason).toMatch(/only clips or only cubes/);
    expect(s.clips[0]).toBe(0);
    expect(s.links).toHaveLength(1);
  });
});

describe('End of Line', () => {
  it('drawn by the last player of a round, the game ends after that turn', () => {
    const s = table({
      stations: [start(0, -300, 0)],
      hands: [[], [], [], []],
      deck: ['end-of-line', 'dent', 'settle', 'rannoch', 'corrour'],
    });
    s.turn = 3;
    s.turns = [2, 2, 2, 1];
    R.apply(s, 3, { type: 'draw' });
    expect(s.hands[3]).toEqual(['dent', 'settle']);
    expect(R.outcome(s)!.reason).toMatch(/End of Line/);
  });

  it('drawn by a station effect during a build, the round is still finished', () => {
    // Manchester draws a card when built; the End of Line card lies on top.
    const s = table({
      stations: [start(0, -300, 0), card('manchester', 0, 0)],
      hands: [H6],
      deck: ['end-of-line', 'york', 'bath', 'dent'],
    });
    s.hands[0] = ['settle', 'rannoch', 'corrour', 'ealing', 'salford', 'london'];
    R.apply(s, 0, build('S1', 'manchester', { pay: ['settle', 'rannoch', 'corrour'] }));
    expect(s.endOfLineDrawn).toBe(true);
    expect(s.hands[0]).toContain('york');
    expect(R.outcome(s)).toBeNull();
    for (const seat of [1, 2, 3]) R.apply(s, seat, s.deck.length ? { type: 'draw' } : { type: 'pass' });
    expect(R.outcome(s)).not.toBeNull();
  });
});
