// History lines, the typed command language, undo, the timed-out move and the picture.
import { describe, expect, it } from 'vitest';
import { RuleError } from '../../../rules/types.ts';
import { giveLicences, quietState, rules, SCORING_CARD } from './helpers.ts';
import type { AEAction } from '../../../rules/airlines-europe/index.ts';

describe('Airlines Europe in words', () => {
  it("describes moves in the game's words", () => {
    const s = quietState(4, {
      money: [20, 8, 8, 8],
      market: ['blue', 'red', 'black', 'black', 'brown'],
      hands: [['red', 'red', 'blue'], [], [], []],
    });
    const buy: AEAction = {
      type: 'buy',
      licences: [
        { airline: 'orange', route: 'athens-sofia' },
        { airline: 'orange', route: 'athens-rome' },
      ],
      take: { from: 'market' as const, airline: 'blue' },
    };
    expect(rules.describe(buy, s, 0)).toBe(
      'bought Orange Athens-Sofia for 2 M and Orange Athens-Rome for 4 M, took Blue from the market',
    );
    expect(rules.describe({ type: 'play', shares: [{ airline: 'red', count: 2 }] }, s, 0)).toBe(
      'played 2 Red shares for 4 M',
    );
    expect(
      rules.describe(
        {
          type: 'play',
          shares: [
            { airline: 'red', count: 1 },
            { airline: 'blue', count: 1 },
          ],
        },
        s,
        0,
      ),
    ).toBe('played 1 Red and 1 Blue shares for 4 M');
    expect(rules.describe({ type: 'money' }, s, 0)).toBe('took 8 M');
    expect(
      rules.describe(
        {
          type: 'trade',
          get: 2,
          give: [
            { airline: 'red', from: 'hand' },
            { airline: 'red', from: 'hand' },
            { airline: 'black', from: 'portfolio' },
          ],
        },
        s,
        0,
      ),
    ).toBe('traded 2 shares from the hand and Black from the portfolio for 2 Air Abacus shares');
    expect(rules.describe({ type: 'take', take: { from: 'deck' } }, s, 0)).toBe(
      'drew a share from the pile (clear-out)',
    );
    giveLicences(s, 'orange', ['rome-athens', 'milan-rome']);
    expect(
      rules.describe(
        { type: 'buy', licences: [{ airline: 'orange', route: 'london-milan' }], take: { from: 'deck' } },
        s,
        0,
      ),
    ).toBe(
      'bought Orange London-Milan for 4 M (connection bonus: Orange reaches London, +8), drew a share from the pile',
    );
    expect(rules.describe({ nonsense: true } as any, s, 0)).toMatch(/not an Airlines Europe move/);
  });

  it('parses typed commands', () => {
    const s = quietState(4);
    expect(rules.parse!('buy orange athens-sofia take blue', s, 0)).toEqual({
      type: 'buy',
      licences: [{ airline: 'orange', route: 'athens-sofia' }],
      take: { from: 'market', airline: 'blue' },
    });
    expect(rules.parse!('Buy Orange Athens-Sofia, orange athens-rome take deck', s, 0)).toEqual({
      type: 'buy',
      licences: [
        { airline: 'orange', route: 'athens-sofia' },
        { airline: 'orange', route: 'athens-rome' },
      ],
      take: { from: 'deck' },
    });
    for (const written of [
      'moscow-stpetersburg',
      'moscow-st petersburg',
      'moscow-st-petersburg',
      'Moscow-St. Petersburg',
    ])
      expect(rules.parse!(`buy white ${written} take red`, s, 0), written).toEqual({
        type: 'buy',
        licences: [{ airline: 'white', route: 'moscow-stpetersburg' }],
        take: { from: 'market', airline: 'red' },
      });
    expect(rules.parse!('buy white st petersburg-moscow take deck', s, 0)).toMatchObject({
      licences: [{ airline: 'white', route: 'stpetersburg-moscow' }],
    });
    expect(() => rules.parse!('buy white moscow-atlantis take deck', s, 0)).toThrow(/"atlantis" is not a city/);
    expect(rules.parse!('play air abacus', s, 0)).toEqual({ type: 'play', shares: [{ airline: 'abacus', count: 1 }] });
    expect(rules.parse!('trade red p:air abacus', s, 0)).toMatchObject({
      give: [{ airline: 'red' }, { airline: 'abacus', from: 'portfolio' }],
    });
    expect(() => rules.parse!('play red 99', s, 0)).toThrow(
      /99 is not a number of shares to play: an airline has at most 20/,
    );
    expect(() => rules.parse!('play red 0', s, 0)).toThrow(/0 is not a number of shares to play/);
    expect(rules.parse!('play red 3', s, 0)).toEqual({ type: 'play', shares: [{ airline: 'red', count: 3 }] });
    expect(rules.parse!('play red blue', s, 0)).toEqual({
      type: 'play',
      shares: [
        { airline: 'red', count: 1 },
        { airline: 'blue', count: 1 },
      ],
    });
    expect(rules.parse!('play abacus', s, 0)).toEqual({ type: 'play', shares: [{ airline: 'abacus', count: 1 }] });
    expect(rules.parse!('trade red', s, 0)).toEqual({
      type: 'trade',
      get: 1,
      give: [{ airline: 'red', from: 'hand' }],
    });
    expect(rules.parse!('trade red blue p:green', s, 0)).toEqual({
      type: 'trade',
      get: 2,
      give: [
        { airline: 'red', from: 'hand' },
        { airline: 'blue', from: 'hand' },
        { airline: 'green', from: 'portfolio' },
      ],
    });
    expect(rules.parse!('money', s, 0)).toEqual({ type: 'money' });
    expect(rules.parse!('take 8', s, 0)).toEqual({ type: 'money' });
    expect(rules.parse!('open red blue', s, 0)).toEqual({ type: 'open', airlines: ['red', 'blue'] });
    expect(rules.parse!('take blue', s, 0)).toEqual({ type: 'take', take: { from: 'market', airline: 'blue' } });
    expect(rules.parse!('take deck', s, 0)).toEqual({ type: 'take', take: { from: 'deck' } });
    for (const bad of [
      'fly to the moon',
      'buy orange athens-paris take deck',
      'buy purple take deck',
      'open red',
      'play 3',
    ]) {
      expect(() => rules.parse!(bad, s, 0), bad).toThrow(RuleError);
    }
  });

  it('a move that turned up a card cannot be undone; playing, trading and taking money can', () => {
    const s = quietState(4, { hands: [['red'], [], [], []] });
    expect(
      rules.undoable!(
        { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-zurich' }], take: { from: 'deck' } },
        s,
      ),
    ).toBe(false);
    expect(
      rules.undoable!(
        {
          type: 'buy',
          licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
          take: { from: 'market', airline: 'red' },
        },
        s,
      ),
    ).toBe(false);
    expect(rules.undoable!({ type: 'open', airlines: ['red', 'blue'] }, s)).toBe(false);
    expect(rules.undoable!({ type: 'take', take: { from: 'deck' } }, s)).toBe(false);
    expect(rules.undoable!({ type: 'play', shares: [{ airline: 'red', count: 1 }] }, s)).toBe(true);
    expect(rules.undoable!({ type: 'trade', get: 1, give: [{ airline: 'red', from: 'hand' }] }, s)).toBe(true);
    expect(rules.undoable!({ type: 'money' }, s)).toBe(true);
  });

  it('a seat that sits on its turn takes 8 M; in the opening and the clear-out it takes the first legal choice', () => {
    const opening = rules.setup(3, 'auto', {});
    const move = rules.autoMove!(opening, 2)!;
    expect(move.type).toBe('open');
    rules.apply(opening, 2, move);
    const s = quietState(4, {
      money: [20, 8, 8, 8],
      deck: [SCORING_CARD, 'white', 'green', 'grey', 'grey', SCORING_CARD, SCORING_CARD],
    });
    expect(rules.autoMove!(s, 0)).toEqual({ type: 'money' });
    expect(rules.autoMove!(s, 1)).toBeNull();
    rules.apply(s, 0, {
      type: 'buy',
      licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
      take: { from: 'deck' },
    });
    expect(rules.autoMove!(s, 1)!.type).toBe('take');
  });

  it('every move listed is legal and reads as a line', () => {
    const s = quietState(4, { money: [12, 8, 8, 8], hands: [['red', 'red', 'blue', 'abacus'], [], [], []] });
    s.portfolios[0] = { black: 1 };
    s.removed.black! -= 1;
    const moves = rules.moves(s, 0);
    expect(moves.some((m) => m.type === 'buy' && m.licences.length === 2)).toBe(true);
    for (const m of moves) {
      const copy = structuredClone(s);
      expect(() => rules.apply(copy, 0, structuredClone(m)), JSON.stringify(m)).not.toThrow();
      expect(rules.describe(m, s, 0).length).toBeGreaterThan(5);
    }
  });

  it('draws the board as a standalone SVG', () => {
    const s = quietState(4);
    giveLicences(s, 'red', ['frankfurt-zurich']);
    const svg = rules.svg!(rules.view(s, 0));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('Frankfurt');
    expect(svg).toContain('#d62b2b');
    expect(svg).not.toMatch(/<image|@import|url\(/);
  });
});
