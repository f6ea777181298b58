// Every registered game through the server: set up, pages for each seat and
// spectators, a few moves by the listed first move, the quick-move page, the
// history download; each page drawn without a template problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { verifyHistory } from '../../server/verify.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ registry: games });
});
afterAll(async () => {
  await srv?.stop();
});

async function html(path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(srv.url + path);
  return { status: res.status, text: await res.text() };
}

describe.each(games.map((g) => [g.id, g] as const))('served game: %s', (id, rules) => {
  it('renders every page and takes moves', async () => {
    const names = ['Ada', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'].slice(0, rules.players.min);
    const g = await srv.createGame({ rules: id, players: names });
    for (let i = 0; i < 6; i++) {
      const any = await srv.state(g.seats[0]!.key);
      if (any.game.status !== 'active') break;
      const seat = any.view.toAct[0]!;
      const key = g.seats.find((s) => s.seat === seat)!.key;
      const me = await srv.state(key);
      const page = await html(`/play/${key}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('could not be drawn');
      expect(page.text).toContain('Your move');
      const confirm = await html(`/play/${key}/m/0?seq=${me.game.seq}`);
      expect(confirm.status).toBe(200);
      const r = await srv.api('POST', `/api/play/${key}/move`, { seq: me.game.seq, n: 0 });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    for (const s of g.seats) {
      const page = await html(`/play/${s.key}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('could not be drawn');
    }
    const watch = await html(`/watch/${g.spectatorKey}`);
    expect(watch.status).toBe(200);
    expect(watch.text).not.toContain('could not be drawn');
    const step = await html(`/watch/${g.spectatorKey}/step/5`);
    expect(step.status).toBe(200);
    const history = (await srv.api('GET', `/api/play/${g.seats[0]!.key}/history`)).body;
    expect(verifyHistory(history, games)).toMatchObject({ ok: true });
  });
});
