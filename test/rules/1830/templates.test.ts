// The 1830 templates render the view (auction, stock round, operating round) without errors.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { game1830 } from '../../../rules/1830/index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { PageRenderer } from '../../../server/render.ts';

const exp = JSON.parse(
  readFileSync(new URL('../../fixtures/18xx.games/1830/1830_game_end_bank.json', import.meta.url), 'utf8'),
) as Export18xx;
const players = exp.players.map((p, seat) => ({ seat, name: p.name }));

describe('1830 templates', () => {
  for (const upto of [5, 25, 300, exp.actions.length]) {
    it(`render the view after ${upto} actions`, () => {
      const { state } = importExport({ ...exp, actions: exp.actions.slice(0, upto) });
      const view = game1830.view(state, 0);
      const r = new PageRenderer();
      const ctx = {
        view,
        players,
        you: 0,
        game: { id: 'g', title: '1830', seq: upto },
        moveUrl: '/play/x/move',
        seq: upto,
      };
      const html = r.gameView('1830', ctx)!;
      expect(html, html.slice(0, 300)).not.toContain('could not be drawn');
      expect(html).toContain('Player 1');
      expect(html).toContain('PRR');
      const text = r.gameViewText('1830', ctx)!;
      expect(text).toContain(view.status);
      expect(r.gameForm('1830', ctx)).toContain('/play/x/move');
      expect(game1830.svg!(view)).toMatch(/^<svg[\s>]/);
    });
  }
});

describe('1830 operating-round form', () => {
  it('offers the acting president tile lays, routes, dividends and trains', () => {
    const r = new PageRenderer();
    const seen = new Set<string>();
    for (const upto of [27, 43, 44, 45, 60]) {
      const { state } = importExport({ ...exp, actions: exp.actions.slice(0, upto) });
      const seat = game1830.toAct(state)[0]!;
      const view = game1830.view(state, seat);
      const ctx = { view, players, you: seat, game: { id: 'g', title: '1830', seq: upto }, moveUrl: '/m', seq: upto };
      const html = r.gameForm('1830', ctx)!;
      expect(html).not.toContain('could not be drawn');
      for (const w of ['Lay or upgrade a tile', 'Suggested routes', 'Pay out', 'Buy a train', 'Place a station'])
        if (html.includes(w)) seen.add(w);
      expect(JSON.parse(JSON.stringify(view))).toEqual(view);
      // another seat gets no choices
      expect(game1830.view(state, (seat + 1) % 3).options).toBeNull();
    }
    expect([...seen].sort()).toEqual(['Buy a train', 'Lay or upgrade a tile', 'Pay out', 'Suggested routes'].sort());
  });
});

describe('1830 auction view', () => {
  it('lists only unsold privates for sale (the first seat owning one included)', () => {
    const { state } = importExport({ ...exp, actions: exp.actions.slice(0, 12) });
    expect(state.privates.CS!.owner).toBe(0);
    const view = game1830.view(state, 0);
    const html = new PageRenderer().gameView('1830', {
      view,
      players,
      you: 0,
      game: { id: 'g', title: '1830', seq: 12 },
    })!;
    const forSale = html.slice(0, html.indexOf('</table>'));
    expect(forSale).not.toContain('Champlain');
    expect(forSale).toContain('Camden');
  });
});
