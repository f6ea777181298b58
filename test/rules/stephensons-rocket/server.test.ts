// A whole game of Stephenson's Rocket played through the server by personal links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { R } from './helpers.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ registry: [R] });
});
afterAll(async () => {
  await srv?.stop();
});

describe("Stephenson's Rocket on the server", () => {
  it('plays a whole 3-player game by personal links, money hidden from the others until the end', async () => {
    const g = await srv.createGame({ rules: 'stephensons-rocket', players: ['Ada', 'Bob', 'Cy'] });
    const [ada, bob] = g.seats;

    // a typed command through the page's form
    const first = await srv.state(ada!.key);
    expect(first.view.toAct).toEqual([0]);
    const form = await fetch(`${srv.url}/play/${ada!.key}/move`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ seq: String(first.game.seq), command: 'token Manchester textiles' }).toString(),
      redirect: 'manual',
    });
    expect(form.status).toBeLessThan(400);
    const after = await srv.state(ada!.key);
    expect((after.view.players as any[])[0].tokens.textiles).toBe(1);

    // a bad command is refused in plain words and changes nothing
    const bad = await srv.api('POST', `/api/play/${ada!.key}/move`, {
      seq: after.game.seq,
      command: 'extend LMR straight',
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(bad.body)).toMatch(/start town has no facing/);

    // the personal page shows the map and the view
    const page = await (await fetch(`${srv.url}/play/${bob!.key}`)).text();
    expect(page).toContain('Liverpool &amp; Manchester Railway');
    expect(page).toMatch(/<svg/);

    const picker = seedRandom('server-game');
    let moneySeen = false;
    const { final } = await srv.playToEnd(g, {
      pick: (moves, st) => {
        const others = (st.view.players as any[]).filter((p) => p.seat !== st.you);
        if (others.some((p) => p.money !== null)) throw new Error("another seat's money leaked into a view");
        if ((st.view.you as any).money > 0) moneySeen = true;
        const extend = moves.filter((m) => (m.action as any).type === 'extend');
        const pool = extend.length && randomInt(picker, 3) > 0 ? extend : moves;
        return pool[randomInt(picker, pool.length)]!;
      },
    });
    expect(final.game.status).toBe('finished');
    expect(final.view.toAct).toEqual([]);
    expect((final.view.players as any[]).every((p) => typeof p.money === 'number')).toBe(true);
    const outcome = final.game.outcome as { scores: number[]; ranks: number[] };
    expect(outcome.scores).toEqual((final.view.players as any[]).map((p) => p.money));
    expect(moneySeen || outcome.scores.some((x) => x > 0)).toBe(true);

    // the history is in words and says which scorings happened
    const history = await srv.api('GET', `/api/play/${bob!.key}/history`);
    const text = JSON.stringify(history.body);
    expect(text).toMatch(/extended the/);
    expect(text).toMatch(/Game over/);
    // each payment names the player paid: the history in words has names for the rules' {seat:N}
    const words = await (await fetch(`${srv.url}/play/${bob!.key}/history.txt`)).text();
    expect(words).toMatch(/scoring for .*: (Ada|Bob|Cy) \$\d{1,2},000/);
    expect(words).not.toContain('{seat:');
  }, 120_000);
});
