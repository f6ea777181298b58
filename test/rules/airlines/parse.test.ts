// The text commands.
import { describe, expect, it } from 'vitest';
import { RuleError } from '../../../rules/types.ts';
import { airlines, found, giveRoute, handSet, mark } from './hand-set.ts';

describe('airlines: text commands', () => {
  const s = handSet(3);
  found(s, 'GLA');
  mark(s, 'MSP-ORD/1', 'GLA');
  const dotted4 = giveRoute(s, 0, 'dotted', 4);
  const dashdot5 = giveRoute(s, 0, 'dashdot', 5);

  it('reads every kind of move', () => {
    expect(airlines.parse!('route', s, 0)).toEqual({ type: 'drawRoute' });
    expect(airlines.parse!('extend', s, 0)).toEqual({ type: 'drawRoute' });
    expect(airlines.parse!('extend gla dotted4 ORD-YYZ/1', s, 0)).toEqual({
      type: 'extend',
      company: 'GLA',
      card: dotted4,
      circle: 'ORD-YYZ/1',
      draw: 'pile',
    });
    expect(airlines.parse!('extend GLA dash-dot5 ORD-BNA/2 take lsa', s, 0)).toEqual({
      type: 'extend',
      company: 'GLA',
      card: dashdot5,
      circle: 'ORD-BNA/2',
      draw: 'LSA',
    });
    expect(airlines.parse!(`found EMP 2 #${dotted4} JFK-BOS/1 take pile`, s, 0)).toEqual({
      type: 'found',
      company: 'EMP',
      count: 2,
      card: dotted4,
      circle: 'JFK-BOS/1',
      draw: 'pile',
    });
    expect(airlines.parse!('skip', s, 0)).toEqual({ type: 'skip' });
    expect(() => airlines.parse!('skip dotted4 take GGA', s, 0)).toThrow(/just write "skip": you keep your cards/);
    // a game begun under rules version 1 names the card to discard and the stock card to take
    const old = { ...s, version: 1 };
    expect(airlines.parse!('skip dotted4 take GGA', old, 0)).toEqual({ type: 'skip', card: dotted4, draw: 'GGA' });
    expect(airlines.parse!('stock GLA 2', s, 0)).toEqual({ type: 'stock', company: 'GLA', count: 2 });
    expect(airlines.parse!('stock GLA 1 sabotage LSA DEN-DFW/3', s, 0)).toEqual({
      type: 'stock',
      company: 'GLA',
      count: 1,
      sabotage: { company: 'LSA', circle: 'DEN-DFW/3' },
    });
  });

  it('reads "take" in any case, like every other word', () => {
    expect(airlines.parse!('Extend GLA dotted4 ORD-YYZ/1 Take Pile', s, 0)).toEqual({
      type: 'extend',
      company: 'GLA',
      card: dotted4,
      circle: 'ORD-YYZ/1',
      draw: 'pile',
    });
    expect(airlines.parse!('SKIP DOTTED4 TAKE GGA', { ...s, version: 1 }, 0)).toEqual({
      type: 'skip',
      card: dotted4,
      draw: 'GGA',
    });
  });

  it('answers a bad command with a hint', () => {
    expect(() => airlines.parse!('fly somewhere', s, 0)).toThrow(RuleError);
    expect(() => airlines.parse!('fly somewhere', s, 0)).toThrow(/Commands:/);
    expect(() => airlines.parse!('extend GLA solid8 ORD-DTW/1', s, 0)).toThrow(/You hold no solid 8 route card/);
    expect(() => airlines.parse!('stock GLA two', s, 0)).toThrow(/how many/);
    expect(() => airlines.parse!('stock GLA 1 sabotage LSA', s, 0)).toThrow(/sabotage/);
    expect(() => airlines.parse!('route dotted4', s, 0)).toThrow(/"route" takes nothing more/);
    expect(() => airlines.parse!('extend GLA dotted4 ORD-YYZ/1 take', s, 0)).toThrow(
      /End the command with "take pile"/,
    );
  });

  it('accepts circles with the cities either way round', () => {
    const copy = structuredClone(s);
    airlines.apply(copy, 0, { type: 'drawRoute' });
    airlines.apply(copy, 0, airlines.parse!('extend GLA dotted4 YYZ-ORD/1', copy, 0));
    expect(copy.circles.some((m) => m?.c !== undefined && !m.sab && m.c === copy.circles.find((x) => x)!.c)).toBe(true);
    expect(JSON.stringify(airlines.view(copy, null))).toContain('"label":"ORD-YYZ/1","n":1,"value":3,"x"');
  });
});
