// A whole game of Airlines through the real server, each player by their
// personal link: the page shows the map, the hand and the move form; typed
// commands and the listed moves both play; nobody's page shows another's hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airlines } from '../../../rules/airlines/index.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import { startTestServer, type TestGame, type TestServer } from '../../support/server.ts';

let srv: TestServer;
let game: TestGame;

beforeAll(async () => {
  srv = await startTestServer({ registry: [airlines] });
  game = await srv.createGame({ rules: 'airlines', players: ['Ada', 'Bob', 'Cy'] });
});

afterAll(async () => {
  await srv?.stop();
});

describe('airlines through the server', () => {
  it("names the players in the picture's table, a long name cut to its column", async () => {
    const long = 'Maximiliane von Hohenzollern-Sigmaringen';
    const g = await srv.createGame({ rules: 'airlines', players: [long, 'Bo'] });
    const me = g.seats.find((x) => x.name === long)!;
    const page = await (await fetch(`${srv.url}/play/${me.key}`)).text();
    const svg = page.slice(page.indexOf('<svg'), page.indexOf('</svg>'));
    expect(svg).toContain('>player</tspan>');
    expect(svg).toContain('font-weight="bold">Maximiliane von Hoh…</tspan>');
    expect(svg).toContain('font-weight="bold">Bo</tspan>');
    expect(svg).not.toMatch(/Seat \d|\{seat:/);
  });

  it("shows each player their own page with the map, their hand and the move form, and no one else's hand", async () => {
    const [a, b] = game.seats;
    const bobState = await srv.state(b!.key);
    const adaState = await srv.state(a!.key);
    const bobOnly = (bobState.view.hand as any).routes
      .map((r: any) => r.id)
      .filter((id: number) => !(adaState.view.hand as any).routes.some((x: any) => x.id === id));
    const page = await (await fetch(`${srv.url}/play/${a!.key}`)).text();
    expect(page).toContain('<svg');
    expect(page).toContain('Your route cards');
    for (const r of (adaState.view.hand as any).routes) expect(page).toContain(`#${r.id}</span>`);
    for (const id of bobOnly) expect(page).not.toContain(`#${id}</span>`);
    expect(bobState.view.players).toEqual(adaState.view.players);
    const toAct = adaState.view.toAct[0]!;
    const actor = game.seats.find((s) => s.seat === toAct)!;
    const actorPage = await (await fetch(`${srv.url}/play/${actor.key}`)).text();
    expect(actorPage).toContain('Extend a network: draw a route card');
  });

  it('refuses a bad typed command with its message and plays on', async () => {
    const first = await srv.state(game.seats[0]!.key);
    const actor = game.seats.find((s) => s.seat === first.view.toAct[0])!;
    const res = await srv.postMoveForm(actor.key, { seq: String(first.game.seq), command: 'stock ZZZ 1' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.text).toContain('There is no airline &quot;ZZZ&quot;');
    const after = await srv.state(actor.key);
    expect(after.game.seq).toBe(first.game.seq);
  });

  it('plays a whole game to the end by personal links, with typed commands and listed moves', async () => {
    const pick = seedRandom('server-game');
    let moves = 0;
    for (;;) {
      const any = await srv.state(game.seats[0]!.key);
      if (any.game.status !== 'active') break;
      const seat = any.view.toAct[0]!;
      const handle = game.seats.find((s) => s.seat === seat)!;
      const mine = seat === any.you ? any : await srv.state(handle.key);
      const view = mine.view as any;
      if (view.step === 'action' && moves % 3 === 0) {
        // The draw button of the move form.
        const res = await srv.postMoveForm(handle.key, { seq: String(mine.game.seq), command: 'route' });
        expect(res.status).toBe(303);
      } else if (view.step === 'place' && view.options.extensions.length > 0 && moves % 2 === 0) {
        // A choice from the form's list of route card plays, as the form posts it.
        const ext = view.options.extensions[randomInt(pick, view.options.extensions.length)];
        const res = await srv.postMoveForm(handle.key, {
          seq: String(mine.game.seq),
          command: `extend ${ext.company} #${ext.card} ${ext.circle} take ${view.options.draws[0]}`,
        });
        expect(res.status).toBe(303);
      } else {
        const choices = mine.moves.filter((m: any) => m.action.type !== 'stock' || randomInt(pick, 4) === 0);
        const list = choices.length ? choices : mine.moves;
        const choice = list[randomInt(pick, list.length)]!;
        const res = await srv.move(handle.key, mine.game.seq, choice.action);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(400);
      }
      moves++;
      if (moves > 1500) throw new Error('the game did not end');
    }
    const final = await srv.state(game.seats[1]!.key);
    expect(final.game.status).toBe('finished');
    expect(final.view.toAct).toEqual([]);
    expect((final.game.outcome as any).scores).toHaveLength(3);
    expect((final.view as any).scorings.at(-1).final).toBe(true);
    const page = await (await fetch(`${srv.url}/play/${game.seats[2]!.key}`)).text();
    expect(page).toContain('Final scoring');
  });
});
