// The game's templates: the view (HTML and text) and the map form render in every phase,
// show a seat only its own hand and points, and the form's options are legal licences.
import { describe, expect, it } from 'vitest';
import { PageRenderer } from '../../../server/render.ts';
import { playState, quietState, rules, SCORING_CARD } from './helpers.ts';
import { parseCommand } from '../../../rules/airlines-europe/parse.ts';

const renderer = new PageRenderer();
const players = [0, 1, 2, 3].map((seat) => ({ seat, name: ['Ada', 'Bob', 'Cy', 'Dee'][seat]! }));

function contextFor(s: any, seat: number | null) {
  const view = rules.view(s, seat);
  return {
    view,
    players,
    you: seat,
    game: { id: 'g', title: 'Airlines Europe', seq: 9 },
    moveUrl: '/play/k/move',
    seq: 9,
    moves: [],
  };
}

function renderAll(s: any, seat: number | null) {
  const ctx = contextFor(s, seat);
  const html = renderer.gameView('airlines-europe', ctx)!;
  const text = renderer.gameViewText('airlines-europe', ctx)!;
  const form = renderer.gameForm('airlines-europe', ctx)!;
  for (const out of [html, text, form]) {
    expect(out).toBeTruthy();
    expect(out).not.toContain('could not be drawn');
    expect(out).not.toContain('[object Object]');
  }
  return { html, text, form };
}

describe('Airlines Europe templates', () => {
  it('the opening: a seat sees its own pending choice, nobody else does', () => {
    const s = rules.setup(4, 'tpl-opening', {});
    const choice = rules.moves(s, 2)[0]!;
    rules.apply(s, 2, choice);
    const mine = renderAll(s, 2);
    expect(mine.html).toContain('Your opening choice');
    expect(mine.text).toContain('Your opening choice');
    for (const seat of [0, 1, 3, null]) {
      const other = renderAll(s, seat);
      expect(other.html).not.toContain('Your opening choice');
      expect(other.text).not.toContain('Your opening choice');
    }
    expect(renderAll(s, 0).html).toContain('(choosing)');
  });

  it('on turn: the players table, own points only, and a form whose licence options all parse and are legal', () => {
    const s = quietState(4, { money: [12, 8, 8, 8], hands: [['red', 'red', 'blue'], ['black'], [], []] });
    const { html, text, form } = renderAll(s, 0);
    expect(html).toContain('12 M');
    expect(html).toContain('Red × 2');
    expect(html).not.toContain('Black × 1');
    expect((html.match(/>hidden</g) ?? []).length).toBe(3);
    expect(text).toContain('Your hand: Red x2, Blue x1');
    expect(form).toContain('id="ae-buy-form"');
    const options = [...form.matchAll(/<option value="([a-z]+ [a-z]+-[a-z]+)">/g)].map((m) => m[1]!);
    expect(options.length).toBeGreaterThan(20);
    for (const o of new Set(options)) {
      const action = parseCommand(`buy ${o} take deck`);
      const copy = structuredClone(s);
      expect(() => rules.apply(copy, 0, action), o).not.toThrow();
    }
    const initial = form.match(/id="ae-command" name="command" size="60" value="([^"]+)"/)![1]!;
    expect(() => rules.apply(structuredClone(s), 0, parseCommand(initial))).not.toThrow();
    // Not on turn: no map form, only the command box.
    expect(renderAll(s, 1).form).not.toContain('id="ae-buy-form"');
  });

  it("the clear-out and the end render, the end with everyone's points", () => {
    const s = quietState(4, {
      money: [20, 8, 8, 8],
      deck: [SCORING_CARD, 'white', 'green', 'grey', 'grey', 'grey', 'grey', 'orange', SCORING_CARD, SCORING_CARD],
    });
    rules.apply(s, 0, {
      type: 'buy',
      licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
      take: { from: 'deck' },
    });
    expect(renderAll(s, 1).html).toContain('Scoring card: everybody takes one share');
    const done = playState(3, 'tpl-end');
    while (rules.toAct(done).length) {
      const seat = rules.toAct(done)[0]!;
      rules.apply(done, seat, rules.moves(done, seat).find((m) => m.type !== 'money') ?? rules.moves(done, seat)[0]);
    }
    const end = renderAll(done, null);
    expect(end.html).toContain('Game over');
    expect(end.html).not.toContain('>hidden<');
    expect(end.text).toContain('points');
  });

  it("another seat's page, mail text, form and picture are the same whatever seat 1 holds, scored or chose, and however the pile lies", () => {
    const make = (variant: number) => {
      const s = quietState(4, {
        money: [20, 8, 8, 8],
        hands: [['red'], variant ? ['white', 'green', 'grey'] : ['black', 'black', 'brown'], [], []],
        deck: variant
          ? ['white', SCORING_CARD, 'green', 'grey', SCORING_CARD, 'orange', SCORING_CARD]
          : [SCORING_CARD, 'grey', 'green', 'white', 'orange', SCORING_CARD, SCORING_CARD],
      });
      s.vp[1] = variant ? 40 : 3;
      return s;
    };
    const a = make(0);
    const b = make(1);
    for (const seat of [0, 2, 3, null]) {
      expect(renderAll(a, seat)).toEqual(renderAll(b, seat));
      expect(rules.svg!(rules.view(a, seat))).toBe(rules.svg!(rules.view(b, seat)));
      expect(rules.svg!(rules.view(a, seat), 'mail')).toBe(rules.svg!(rules.view(b, seat), 'mail'));
    }
    // And in the opening, before all have chosen: seat 1's choice shows nowhere else.
    const o1 = rules.setup(4, 'tpl-hidden', {});
    const o2 = rules.setup(4, 'tpl-hidden', {});
    const options = rules.moves(o1, 1);
    rules.apply(o1, 1, options[0]!);
    rules.apply(o2, 1, options[options.length - 1]!);
    for (const seat of [0, 2, 3, null]) {
      expect(renderAll(o1, seat)).toEqual(renderAll(o2, seat));
      expect(rules.svg!(rules.view(o1, seat))).toBe(rules.svg!(rules.view(o2, seat)));
      expect(rules.svg!(rules.view(o1, seat), 'mail')).toBe(rules.svg!(rules.view(o2, seat), 'mail'));
    }
  });
});
