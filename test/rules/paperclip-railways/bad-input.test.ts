// Bad input on every path: each refusal is a RuleError a player can read, and
// the state is left byte-identical.
import { describe, expect, it } from 'vitest';
import { RuleError } from '../../../rules/types.ts';
import { card, R, start, table } from './table.ts';

const H6 = ['dent', 'settle', 'rannoch', 'corrour', 'ealing', 'salford'];

function refuses(s: any, seat: number, action: unknown, message: RegExp): void {
  const before = JSON.stringify(s);
  let err: unknown;
  try {
    R.apply(s, seat, action as any);
  } catch (e) {
    err = e;
  }
  expect(err, JSON.stringify(action)).toBeInstanceOf(RuleError);
  expect((err as Error).message, JSON.stringify(action)).toMatch(message);
  expect((err as Error).message.length).toBeLessThan(300);
  expect(JSON.stringify(s)).toBe(before);
}

const ODD_SHAPES: [unknown, RegExp][] = [
  [null, /not a Paperclip Railways move/],
  [undefined, /not a Paperclip Railways move/],
  [42, /not a Paperclip Railways move/],
  ['build S1 york', /not a Paperclip Railways move/],
  [[{ type: 'draw' }], /not a Paperclip Railways move/],
  [{}, /not a Paperclip Railways move/],
  [{ type: 'fly' }, /not a Paperclip Railways move/],
  [{ type: 'draw', cards: 3 }, /draw move has no "cards"/],
  [{ type: 'build', to: 'york' }, /needs "from"/],
  [{ type: 'build', from: 'S1', to: 'york', bends: [[Number.NaN, 1]] }, /whole millimetres.*"bends" is not \(NaN\)/],
  [{ type: 'build', from: 'S1', to: 'york', bends: [[Infinity, 1]] }, /whole millimetres/],
  [{ type: 'build', from: 'S1', to: 'york', bends: [[0.5, 1]] }, /whole millimetres/],
  [{ type: 'build', from: 'S1', to: 'york', bends: [[1, 2, 3]] }, /whole millimetres/],
  [{ type: 'build', from: 'S1', to: 'york', bends: '1,2' }, /whole millimetres/],
  [{ type: 'build', from: 'S1', card: 'bath', at: [1e12, 0] }, /whole millimetres.*"at" is not \(1000000000000\)/],
  [{ type: 'build', from: 'S1', card: 'bath', at: [-5001, 0] }, /whole millimetres/],
  [{ type: 'build', from: 'S1', to: 'york', bends: Array.from({ length: 30 }, (_, i) => [i, i]) }, /at most 6 bends/],
  [{ type: 'build', from: 'S1', to: 'york', pay: 'dent' }, /"pay" is not right/],
  [{ type: 'build', from: 'x'.repeat(500), to: 'york' }, /"from" is too long/],
  [{ type: 'discard', cards: [] }, /at least one card/],
  [{ type: 'obstacle', obstacle: 'lake', x: 0, y: 0, rot: 45.5 }, /0, 90, 180 or 270/],
  [{ type: 'river', points: [[0, 0]] }, /2 to 8 points/],
  [{ type: 'river', points: Array.from({ length: 40 }, (_, i) => [i, 0]) }, /2 to 8 points/],
];

describe('bad input', () => {
  it('odd shapes, NaN and huge coordinates are refused by name in every phase', () => {
    const setupState = R.setup(3, 'bad-shapes', {});
    const play = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    for (const s of [setupState, play]) {
      for (const [action, message] of ODD_SHAPES) refuses(s, s.turn, action, message);
    }
  });

  it('unknown ids, too many bends and moves of the wrong phase are refused', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    refuses(s, 0, { type: 'build', from: 'nowhere', to: 'york' }, /no station "nowhere"/);
    refuses(s, 0, { type: 'build', from: 'S1', to: 'nowhere' }, /no station "nowhere"/);
    refuses(s, 0, { type: 'build', from: 'S1', card: 'no-such-card', at: [0, 200] }, /do not hold no-such-card/);
    refuses(s, 0, { type: 'build', from: 'S1', card: 'bath', at: [0, 200] }, /do not hold Bath/);
    refuses(s, 0, { type: 'build', from: 'S1', to: 'york', pay: ['ghost', 'dent', 'settle'] }, /do not hold ghost/);
    refuses(
      s,
      0,
      { type: 'build', from: 'S1', to: 'york', pay: ['dent', 'dent', 'settle'] },
      /each card you pay with once/,
    );
    refuses(
      s,
      0,
      {
        type: 'build',
        from: 'S1',
        to: 'york',
        bends: Array.from({ length: 7 }, (_, i) => [-200 + i * 20, 100 + (i % 2) * 20]),
      },
      /at most 6 bends/,
    );
    refuses(
      s,
      0,
      {
        type: 'build',
        from: 'S1',
        to: 'york',
        bends: [
          [-150, 100],
          [-150, 100],
        ],
      },
      /same/,
    );
    refuses(s, 0, { type: 'discard', cards: ['dent'] }, /draw cards or build a link/);
    refuses(s, 0, { type: 'obstacle', obstacle: 'lake', x: 0, y: 0, rot: 0 }, /draw cards or build a link/);
    refuses(s, 0, { type: 'pass' }, /pass only when the draw pile is empty/);
    refuses(s, 1, { type: 'draw' }, /not your turn/);
    refuses(s, 7, { type: 'draw' }, /not your turn/);

    const setupState = R.setup(3, 'bad-ids', {});
    const seat = setupState.turn;
    refuses(
      setupState,
      seat,
      { type: 'obstacle', obstacle: 'volcano', x: 0, y: 0, rot: 0 },
      /no obstacle called "volcano"/,
    );
    refuses(setupState, seat, { type: 'draw' }, /Place an obstacle first/);
    refuses(setupState, seat, { type: 'obstacle', obstacle: 'lake', x: 5000, y: 5000, rot: 0 }, /wholly inside/);
  });

  it('typed commands with bad words or far-off points say what is wrong, cut short', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    const parseFails = (text: string, message: RegExp) => {
      expect(() => R.parse!(text, s, 0), text).toThrow(RuleError);
      try {
        R.parse!(text, s, 0);
      } catch (e) {
        expect((e as Error).message).toMatch(message);
        expect((e as Error).message).not.toContain('x'.repeat(30));
      }
    };
    parseFails('build S1 york via 99999999999999999999,0', /off the table/);
    parseFails('build S1 york via 1.5,2', /not a point/);
    parseFails(`build ${'x'.repeat(200)} york`, /no station "x+\.\.\."/);
    parseFails(`build S1 new ${'x'.repeat(200)} at 0,0`, /no station card/);
    parseFails(`build S1 york ${'x'.repeat(200)}`, /not understood/);
    parseFails('fly to the moon', /Write "draw"/);
    // words after a command that takes none, and a via or pay with nothing after it
    parseFails('draw 3', /"draw" takes nothing after it \("3"/);
    parseFails('pass now', /"pass" takes nothing after it/);
    parseFails('obstacle lake 100,50 90 please', /takes nothing after it \("please"/);
    parseFails('build S1 york via', /Give the bends after "via"/);
    parseFails('build S1 york via pay dent', /Give the bends after "via"/);
    parseFails('build S1 york pay', /Name the cards to pay with/);
  });

  it('names of two or more words are read with spaces or hyphens, in any case', () => {
    const s = table({
      stations: [start(0, -300, 0), card('kirkby-stephen', 0, 0)],
      hands: [['horton-in-ribblesdale', 'dent']],
    });
    const expected = { type: 'build', from: 'S1', to: 'kirkby-stephen', bends: [[-150, 100]], pay: ['dent'] };
    expect(R.parse!('build S1 Kirkby Stephen via -150,100 pay dent', s, 0)).toEqual(expected);
    expect(R.parse!('build S1 kirkby-stephen via -150,100 pay Dent', s, 0)).toEqual(expected);
    expect(R.parse!('build kirkby stephen new Horton in Ribblesdale at 200,100', s, 0)).toEqual({
      type: 'build',
      from: 'kirkby-stephen',
      card: 'horton-in-ribblesdale',
      at: [200, 100],
    });
    expect(R.parse!('discard horton in ribblesdale dent', s, 0)).toEqual({
      type: 'discard',
      cards: ['horton-in-ribblesdale', 'dent'],
    });
  });

  it('a second "via" or "pay" adds to the first instead of dropping it', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    expect(R.parse!('build S1 york via -150,100 pay dent via -100,60 pay settle rannoch', s, 0)).toEqual({
      type: 'build',
      from: 'S1',
      to: 'york',
      bends: [
        [-150, 100],
        [-100, 60],
      ],
      pay: ['dent', 'settle', 'rannoch'],
    });
  });

  it('during setup a face-down station cannot be named: the command fails as for a name not on the table', () => {
    const s = R.setup(3, 'face-down-names', {});
    const border = s.stations.find((x) => x.kind === 'card' && x.faceDown)!;
    const name = (R.view(s, s.turn) as any).stations.find((x: any) => x.x === border.x && x.y === border.y).name;
    expect(name).toBe('Station (face down)');
    for (const text of [`build ${border.id} S1`, `build S1 ${border.id}`, 'build nowhere S1']) {
      expect(() => R.parse!(text, s, s.turn), text).toThrow(/There is no station ".*" on the table/);
    }
  });
});
