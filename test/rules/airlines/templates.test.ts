// The game's templates: the view (HTML and text) and the move form render for
// every step, and every command the form can post is a legal move.
import { describe, expect, it } from 'vitest';
import { PageRenderer } from '../../../server/render.ts';
import { airlines, twoWorlds, type AirlinesState } from './hand-set.ts';

const renderer = new PageRenderer();
const players = [0, 1, 2, 3].map((seat) => ({ seat, name: ['Ada', 'Bob', 'Cy', 'Dee'][seat]! }));

function contextFor(s: AirlinesState, seat: number | null) {
  const view = airlines.view(s, seat);
  return {
    view,
    players,
    you: seat,
    game: { id: 'g', title: 'Airlines', seq: 9 },
    moveUrl: '/play/k/move',
    seq: 9,
    moves: [],
  };
}

/** A game some way in, stopped at the given step. */
function gameAt(step: 'action' | 'place'): AirlinesState {
  const s = airlines.setup(4, 'templates', {});
  let i = 0;
  while (i < 40 || s.step !== step) {
    const moves = airlines.moves(s, s.turn);
    const plain = moves.filter((m) => m.type !== 'stock' || i % 4 === 0);
    const list = plain.length ? plain : moves;
    airlines.apply(s, s.turn, list[(i * 7) % list.length]);
    i++;
  }
  return s;
}

function commandsIn(html: string): string[] {
  return [...html.matchAll(/name="command" value="([^"]+)"/g)].map((m) => m[1]!);
}

describe('airlines templates', () => {
  for (const step of ['action', 'place'] as const) {
    it(`renders the view and a form whose every command is legal (${step} step)`, () => {
      const s = gameAt(step);
      const ctx = contextFor(s, s.turn);
      const html = renderer.gameView('airlines', ctx)!;
      const text = renderer.gameViewText('airlines', ctx)!;
      const form = renderer.gameForm('airlines', ctx)!;
      for (const out of [html, text, form]) {
        expect(out).not.toContain('could not be drawn');
        expect(out).not.toContain('undefined');
      }
      expect(html).toContain('Your route cards');
      expect(html).toContain('Dee');
      expect(text).toContain('Open stock:');
      const commands = commandsIn(form);
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) {
        const copy = structuredClone(s);
        airlines.apply(copy, s.turn, airlines.parse!(command, copy, s.turn));
        expect(airlines.check!(copy)).toEqual([]);
      }
      // The form also offers every stock card source and, on the map, the circles to pick.
      if (step === 'place') {
        expect(form).toContain('from the pile (blind)');
        expect(form).toContain('class="air-pick"');
      } else {
        expect(commands).toContain('route');
      }
    });
  }

  it('renders the same page, mail text, form and picture for another seat whatever seat 1 holds and however the piles lie', () => {
    const { a, b } = twoWorlds();
    const outputs = (s: AirlinesState, seat: number | null) => {
      const ctx = contextFor(s, seat);
      return [
        renderer.gameView('airlines', ctx),
        renderer.gameViewText('airlines', ctx),
        renderer.gameForm('airlines', ctx),
        airlines.svg!(ctx.view),
      ];
    };
    for (const seat of [0, 2, null]) expect(outputs(a, seat)).toEqual(outputs(b, seat));
    // Seat 1's own page does show its hand: the worlds differ there.
    expect(outputs(a, 1)[0]).toContain('EMP × 3');
    expect(outputs(b, 1)[0]).toContain('PTA × 3');
    // Seat 0 draws a route card blind (a dashed 8 in one world, a solid 1 in the other): nobody else learns which.
    const line = (s: AirlinesState) => airlines.describe({ type: 'drawRoute' }, s, 0);
    expect(line(a)).toBe(line(b));
    airlines.apply(a, 0, { type: 'drawRoute' });
    airlines.apply(b, 0, { type: 'drawRoute' });
    for (const seat of [2, null]) expect(outputs(a, seat)).toEqual(outputs(b, seat));
    for (const out of [...outputs(a, 2), ...outputs(a, null)]) {
      expect(out).not.toMatch(/dashed 8|dashed <strong>8/);
      expect(out).not.toContain('EMP × 3');
    }
    expect(outputs(a, 0)[0]).toMatch(/dashed <strong>8<\/strong>/);
  });

  it('shows a spectator no hand and no form', () => {
    const s = gameAt('action');
    const ctx = contextFor(s, null);
    expect(renderer.gameView('airlines', ctx)).not.toContain('Your route cards');
    expect(renderer.gameForm('airlines', ctx)!.trim()).toBe('');
  });
});
