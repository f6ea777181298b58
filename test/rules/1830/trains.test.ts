// Trains, discards, forced purchases and bankruptcy, from positions of a real game (29133).
import { describe, expect, it } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import { refuses, through as throughGame } from './positions.ts';

const through = (id: number): Game1830State => throughGame('29133', id);

describe('1830 trains', () => {
  it('makes a corporation over the new train limit discard before anything else', () => {
    const s = through(229); // B&M bought the first 5: phase 5, limit 2
    expect(s.phase).toBe(3);
    const bm = s.corps['B&M']!;
    expect(bm.trains.length).toBe(3);
    const seat = bm.president!;
    expect(g.toAct(s)).toEqual([seat]);
    refuses(s, seat, { type: 'pass' }, /must discard one first/);
    expect(g.moves(s, seat).every((m) => m.type === 'discardTrain')).toBe(true);
    g.apply(s, seat, { type: 'discardTrain', corp: 'B&M', train: '3-3' });
    expect(bm.trains.length).toBe(2);
    expect(s.trains.find((t) => t.id === '3-3')!.owner).toBe('pool');
    // the phase-5 event closed every private
    expect(Object.values(s.privates).every((p) => p.closed)).toBe(true);
  });

  it('refuses a pass when a corporation with a route has no train, and lets a broke president go bankrupt, ending the game', () => {
    const s = through(449);
    const nynh = s.corps.NYNH!;
    const seat = nynh.president!;
    expect(nynh.trains).toEqual([]);
    expect(g.toAct(s)).toEqual([seat]);
    refuses(s, seat, { type: 'pass' }, /must buy one/);
    const d = s.trains.find((t) => t.owner === 'depot')!;
    refuses(s, seat, { type: 'buyTrain', train: d.id, price: 1100 }, /must sell shares|cannot pay/);
    g.apply(s, seat, { type: 'bankrupt' });
    expect(s.finished).toBe(true);
    expect(g.toAct(s)).toEqual([]);
    const o = g.outcome(s)!;
    expect(o.reason).toBe('a player went bankrupt');
    expect(o.scores[seat]).toBe(416);
  });

  it('refuses buying a train from another corporation for less than $1 or more than the treasury', () => {
    const s = through(437);
    const erie = s.corps.ERIE!;
    const seat = erie.president!;
    const t = s.trains.find((x) => x.id === '4-1')!;
    expect(t.owner).not.toBe('ERIE');
    refuses(s, seat, { type: 'buyTrain', train: '4-1', price: erie.cash + 1 }, /may pay between \$1 and/);
    g.apply(s, seat, { type: 'buyTrain', train: '4-1', price: 5 });
    expect(erie.trains).toContain('4-1');
  });
});
