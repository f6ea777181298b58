// Status lines name players ("Ada to act"), never "Seat 1" or a colour alone, through the
// JSON API and the page of a real server, for every game whose status names a seat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ registry: games });
});
afterAll(async () => {
  await srv?.stop();
});

describe('status lines with player names', () => {
  for (const id of ['stephensons-rocket', 'airlines', 'airlines-europe', 'paperclip-railways']) {
    it(id, async () => {
      const g = await srv.createGame({ rules: id, players: ['Ada', 'Bob'] });
      // Past the opening (Airlines Europe's is simultaneous and names nobody): a few first moves.
      for (let i = 0; i < 3; i++) {
        const st = await srv.state(g.seats[0]!.key);
        const seat = st.view.toAct[0];
        if (seat === undefined) break;
        const who = g.seats.find((s) => s.seat === seat)!;
        const mine = await srv.state(who.key);
        await srv.move(who.key, mine.game.seq, mine.moves[0]!.action);
      }
      const st = await srv.state(g.seats[0]!.key);
      expect(st.view.status).not.toMatch(/\bseat \d|\{seat:/i);
      const toAct = st.view.toAct.map((s) => g.seats.find((x) => x.seat === s)!.name);
      if (toAct.length === 1) expect(st.view.status).toContain(toAct[0]!);
      const page = await fetch(`${srv.url}/play/${g.seats[0]!.key}`).then((r) => r.text());
      expect(page).not.toMatch(/\{seat:\d+\}/);
    });
  }
});
