// The game's templates: the view (HTML and text) and the move form render for
// every step, and every command the form can post is a legal move.
import { describe, expect, it } from 'vitest';
import { PageRenderer } from '../../../server/render';
import { airlines, type AirlinesState } from './hand-set';

const renderer = new PageRenderer();
const players = [0, 1, 2, 3].map((seat) => ({ seat, name: ['Ada', 'Bob', 'Cy', 'Dee'][seat]! }));

function contextFor(s: AirlinesState, seat: number | null) {
  const view = airlines.view(s, seat);
  return { view, players, you: seat, game: { id: 'g', title: 'Airlines', seq: 9 }, moveUrl: '/play/k/move', seq: 9, moves: [] };
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

  it('shows a spectator no hand and no form', () => {
    const s = gameAt('action');
    const ctx = contextFor(s, null);
    expect(renderer.gameView('airlines', ctx)).not.toContain('Your route cards');
    expect(renderer.gameForm('airlines', ctx)!.trim()).toBe('');
  });
});
