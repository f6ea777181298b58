// A whole game of Airlines Europe through the real server, each player by their
// personal link: the simultaneous opening (each choice hidden from the others
// until all have chosen), the map form for licences, typed commands and listed
// moves, a refused move with its message, and the end with the points shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airlinesEurope } from '../../../rules/airlines-europe/index.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import { startTestServer, type TestGame, type TestServer } from '../../support/server.ts';

let srv: TestServer;
let game: TestGame;

beforeAll(async () => {
  srv = await startTestServer({ registry: [airlinesEurope] });
  game = await srv.createGame({ rules: 'airlines-europe', players: ['Ada', 'Bob', 'Cy'] });
});

afterAll(async () => {
  await srv?.stop();
});

const page = async (key: string) => (await fetch(`${srv.url}/play/${key}`)).text();

describe('Airlines Europe through the server', () => {
  it('takes the opening choices of all seats at once, each hidden from the others until all have chosen', async () => {
    const states = await Promise.all(game.seats.map((s) => srv.state(s.key)));
    expect(states[0]!.view.toAct).toEqual([0, 1, 2]);
    const seq = String(states[0]!.game.seq);
    const [ada, bob, cy] = game.seats;
    const adaChoice = states[0]!.moves[0]!.action as { airlines: string[] };
    let res = await srv.postMoveForm(ada!.key, { seq, action: JSON.stringify(adaChoice) });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    const adaPage = await page(ada!.key);
    expect(adaPage).toContain(
      `Your opening choice (hidden until everyone has chosen): ${adaChoice.airlines.join(', ')}`,
    );
    const bobPage = await page(bob!.key);
    expect(bobPage).not.toContain('Your opening choice');
    const bobState = await srv.state(bob!.key);
    expect(JSON.stringify(bobState.view)).not.toContain('myOpening":["');
    expect(bobState.sinceLastTurn.map((l) => l.text).join(' ')).not.toMatch(
      new RegExp(adaChoice.airlines.join('|'), 'i'),
    );
    // Bob and Cy answer against the seq they were shown (older than now): still taken.
    res = await srv.postMoveForm(bob!.key, { seq, action: JSON.stringify(states[1]!.moves[0]!.action) });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    res = await srv.postMoveForm(cy!.key, {
      seq,
      command: `open ${(states[2]!.moves[1]!.action as any).airlines.join(' ')}`,
    });
    expect(res.status, res.text.slice(0, 300)).toBe(303);
    const after = await srv.state(bob!.key);
    expect(after.view.toAct).toEqual([0]);
    const portfolios = (after.view as any).players.map((p: any) =>
      p.portfolio.reduce((t: number, x: any) => t + x.count, 0),
    );
    expect(portfolios).toEqual([2, 2, 2]);
  });

  it('shows the map form to the player on turn and refuses a licence off the network with its message', async () => {
    const ada = game.seats[0]!;
    const html = await page(ada.key);
    expect(html).toContain('<svg');
    expect(html).toContain('id="ae-buy-form"');
    expect(html).toContain('Your hand');
    const st = await srv.state(ada.key);
    const bad = await srv.postMoveForm(ada.key, {
      seq: String(st.game.seq),
      command: 'buy red athens-sofia take deck',
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.text).toContain('not connected to Red');
    const other = await page(game.seats[1]!.key);
    expect(other).not.toContain('id="ae-buy-form"');
  });

  it('plays a whole game to the end by personal links, typing licence purchases and clicking listed moves', async () => {
    const pick = seedRandom('ae-server-game');
    let moves = 0;
    let typed = 0;
    for (;;) {
      const any = await srv.state(game.seats[0]!.key);
      if (any.game.status !== 'active') break;
      const seat = any.view.toAct[0]!;
      const handle = game.seats.find((s) => s.seat === seat)!;
      const mine = seat === any.you ? any : await srv.state(handle.key);
      const view = mine.view as any;
      let res: { status: number; text: string };
      if (view.buyable.length > 0 && moves % 3 !== 2) {
        const l = view.buyable[randomInt(pick, view.buyable.length)];
        const take = view.market.length > 0 && moves % 2 === 0 ? view.market[0] : 'deck';
        res = await srv.postMoveForm(handle.key, {
          seq: String(mine.game.seq),
          command: `buy ${l.airline} ${l.route} take ${take}`,
        });
        typed++;
      } else {
        const choice = mine.moves[randomInt(pick, mine.moves.length)]!;
        res = await srv.postMoveForm(handle.key, { seq: String(mine.game.seq), action: JSON.stringify(choice.action) });
      }
      expect(res.status, res.text.slice(0, 300)).toBe(303);
      moves++;
      expect(moves).toBeLessThan(1000);
    }
    const final = await srv.state(game.seats[0]!.key);
    expect(final.game.status).toBe('finished');
    expect(typed).toBeGreaterThan(10);
    expect((final.view as any).players.every((p: any) => typeof p.vp === 'number')).toBe(true);
    const html = await page(game.seats[1]!.key);
    expect(html).toContain('Game over');
  });
});
