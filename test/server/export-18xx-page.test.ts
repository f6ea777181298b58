// The game page of an 1830 game links its 18xx.games export; the export holds every move in force.
import { describe, expect, it } from 'vitest';
import { game1830 } from '../../rules/1830/index.ts';
import { importExport, type Export18xx } from '../../rules/1830/import/replay.ts';
import { highCard } from '../support/high-card.ts';
import { startTestServer } from '../support/server.ts';

describe('18xx.games export download', () => {
  it('an 1830 game: the link on the player and spectator pages, the export of the moves so far', async () => {
    const srv = await startTestServer({ registry: [game1830, highCard] });
    try {
      const g = await srv.createGame({ rules: '1830', players: ['Ada', 'Bob', 'Cy'] });
      for (let i = 0; i < 4; i++) {
        const acting = (await Promise.all(g.seats.map((s) => srv.state(s.key)))).find((p) => p.moves.length > 0)!;
        const key = g.seats[acting.you]!.key;
        expect((await srv.move(key, acting.game.seq, acting.moves[0]!.action)).status).toBe(200);
      }
      const page = await fetch(`${srv.url}/play/${g.seats[0]!.key}`).then((r) => r.text());
      expect(page).toContain(`href="/play/${g.seats[0]!.key}/18xx.json"`);
      const watch = await fetch(`${srv.url}/watch/${g.spectatorKey}`).then((r) => r.text());
      expect(watch).toContain(`href="/watch/${g.spectatorKey}/18xx.json"`);
      const res = await fetch(`${srv.url}/play/${g.seats[1]!.key}/18xx.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="1830-.*-18xx\.json"/);
      const exp = (await res.json()) as Export18xx;
      expect(exp.title).toBe('1830');
      expect(exp.players.map((p: { name: string }) => p.name)).toEqual(g.seats.map((s) => s.name));
      expect(exp.actions).toHaveLength(4);
      // it imports back to the game's state
      const back = importExport(exp);
      expect(back.report.stoppedAt).toBeNull();
      expect(back.log).toHaveLength(4);

      const other = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
      const hc = await fetch(`${srv.url}/play/${other.seats[0]!.key}`).then((r) => r.text());
      expect(hc).not.toContain('18xx.json');
      expect((await fetch(`${srv.url}/play/${other.seats[0]!.key}/18xx.json`)).status).toBe(404);
    } finally {
      await srv.stop();
    }
  });
});
