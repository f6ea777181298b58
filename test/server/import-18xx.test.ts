// POST /api/import/18xx and the /import form: a running 18xx.games game of 1830 moves here and
// continues by email, at the same position, seats in the export's order.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { importExport, type Export18xx } from '../../rules/1830/import/replay.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const full = JSON.parse(
  readFileSync(new URL('../fixtures/18xx.games/1830/29133.json', import.meta.url), 'utf8'),
) as Export18xx;
const cut = (n: number): Export18xx => ({ ...full, actions: full.actions.slice(0, n) });
const emails = full.players.map((_, i) => `p${i + 1}@example.test`);
const keyOf = (url: string) => url.split('/').pop()!;

describe('importing an 18xx.games game of 1830', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ registry: games });
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('continues a game cut after 200 actions at the same state, and a seat can move', async () => {
    const exp = cut(200);
    const theirs = importExport(exp);
    expect(theirs.report.stoppedAt).toBeNull();
    const res = await srv.api('POST', '/api/import/18xx', { export: exp, emails });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.adminUrl).toMatch(/\/admin\//);
    expect(res.body.seats.map((s: { name: string }) => s.name)).toEqual(full.players.map((p) => p.name));
    expect(res.body.seats.map((s: { email: string }) => s.email)).toEqual(emails);

    const seatKeys: string[] = res.body.seats.map((s: { playUrl: string }) => keyOf(s.playUrl));
    const states = await Promise.all(seatKeys.map((k) => srv.state(k)));
    states.forEach((st, seat) => {
      expect(st.you).toBe(seat);
      expect(st.game.status).toBe('active');
      expect(st.game.players.map((p) => p.name)).toEqual(full.players.map((p) => p.name));
    });
    // the same position: every player's cash and the whole state as the rules see it
    const game = await srv.service.open(res.body.gameId);
    expect(game.state).toEqual(theirs.state);
    const view = states[0]!.view as unknown as { players: { seat: number; cash: number }[] };
    expect(view.players.map((p) => p.cash)).toEqual(theirs.state.cash);
    expect(theirs.state.cash.some((c) => c !== theirs.state.cash[0])).toBe(true);
    // the log is the usual chain: create, joins, start in the export's order, one move per action
    const moves = game.doc.log.filter((e) => e.kind === 'move');
    expect(moves.length).toBe(theirs.log.length);
    const start = game.doc.log.find((e) => e.kind === 'start')!;
    expect(start.data?.order).toEqual(full.players.map((_, i) => i));

    // a seat to act makes a legal move through the API
    const toAct = states[0]!.view.toAct;
    expect(toAct.length).toBeGreaterThan(0);
    const mover = toAct[0]!;
    const st = states[mover]!;
    expect(st.moves.length).toBeGreaterThan(0);
    const moved = await srv.move(seatKeys[mover]!, st.game.seq, st.moves[0]!.action);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const after = await srv.state(seatKeys[mover]!);
    expect(after.game.lastSeq).toBeGreaterThan(st.game.lastSeq);

    // the admin link works
    const admin = await srv.api('GET', `/api/admin/${keyOf(res.body.adminUrl)}`);
    expect(admin.status).toBe(200);
  });

  it('refuses what does not parse or does not replay, with words, creating nothing', async () => {
    const before = (await srv.service.listGames({})).total;
    const notJson = await srv.api('POST', '/api/import/18xx', { export: '{not json', emails });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/not JSON/);
    const notExport = await srv.api('POST', '/api/import/18xx', { export: { hello: 1 }, emails });
    expect(notExport.status).toBe(400);
    expect(notExport.body.error).toMatch(/not an 18xx.games export/);
    // an action that cannot replay: a bid by a player on an unknown company
    const bad = cut(5);
    bad.actions = [
      ...bad.actions,
      { ...(bad.actions[4] as object), id: 999999, type: 'bid', company: 'NOPE', price: 1 } as never,
    ];
    const stopped = importExport(bad).report.stoppedAt;
    expect(stopped).not.toBeNull();
    const res = await srv.api('POST', '/api/import/18xx', { export: bad, emails });
    expect(res.status).toBe(422);
    expect(res.body.error).toContain(String(stopped!.id));
    const few = await srv.api('POST', '/api/import/18xx', { export: cut(10), emails: emails.slice(1) });
    expect(few.status).toBe(400);
    expect(few.body.error).toMatch(/give 4 email addresses/);
    expect((await srv.service.listGames({})).total).toBe(before);
  });

  it('takes a whole export (large body) and the home page links the form, which works', async () => {
    const home = await (await fetch(`${srv.url}/`)).text();
    expect(home).toContain('href="/import"');
    const page = await fetch(`${srv.url}/import`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="export"');
    const form = new URLSearchParams({ export: JSON.stringify(cut(120)), emails: emails.join('\n') });
    const res = await fetch(`${srv.url}/import`, { method: 'POST', body: form });
    const html = await res.text();
    expect(res.status, html).toBe(201);
    expect(html).toMatch(/\/admin\//);
    for (const p of full.players) expect(html).toContain(p.name);
    expect((html.match(/href="[^"]*\/play\/[^"]+"/g) ?? []).length).toBe(full.players.length);

    // a whole export larger than the app's usual 64 kB body limit
    const big = readFileSync(new URL('../fixtures/18xx.games/1830/1830_game_end_bank.json', import.meta.url), 'utf8');
    expect(big.length).toBeGreaterThan(100_000);
    const bigExp = JSON.parse(big) as Export18xx;
    const whole = await srv.api('POST', '/api/import/18xx', {
      export: bigExp,
      emails: bigExp.players.map((_, i) => `b${i}@example.test`),
    });
    expect(whole.status, JSON.stringify(whole.body)).toBe(201);
    const g = await srv.service.open(whole.body.gameId);
    expect(g.state).toEqual(importExport(bigExp).state);
  });
});
