// A whole game of Paperclip Railways through the real server, each player by
// their personal link: the page shows the table, the hand and the move form;
// typed commands (with station ids and coordinates) and listed moves both
// play; nobody's page shows another's hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paperclipRailways } from '../../../rules/paperclip-railways/index.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import { startTestServer, type TestGame, type TestServer } from '../../support/server.ts';

let srv: TestServer;
let game: TestGame;

beforeAll(async () => {
  srv = await startTestServer({ registry: [paperclipRailways] });
  game = await srv.createGame({ rules: 'paperclip-railways', players: ['Ada', 'Bob', 'Cy'] });
});

afterAll(async () => {
  await srv?.stop();
});

async function actor() {
  const any = await srv.state(game.seats[0]!.key);
  const seat = any.view.toAct[0] ?? any.you;
  const handle = game.seats.find((s) => s.seat === seat)!;
  const mine = seat === any.you ? any : await srv.state(handle.key);
  return { any, handle, mine, view: mine.view as any };
}

describe('paperclip railways through the server', () => {
  it('places obstacles and the river by typed commands, refusing a bad one with its message', async () => {
    let { handle, mine } = await actor();
    expect((mine.view as any).phase).toBe('obstacles');
    const page = await (await fetch(`${srv.url}/play/${handle.key}`)).text();
    expect(page).toContain('<svg');
    expect(page).toContain('obstacle &lt;id&gt;');
    const bad = await srv.postMoveForm(handle.key, { seq: String(mine.game.seq), command: 'obstacle lake 0,0' });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.text).toContain('may not touch a station');
    // Three players: a triangle with corners 0,-620 537,310 -537,310.
    const spots = [
      [-220, 170],
      [220, 170],
      [0, -350],
      [0, -180],
    ];
    let i = 0;
    while ((mine.view as any).phase === 'obstacles') {
      const id = (mine.view as any).obstacleSupply[0].id;
      const res = await srv.postMoveForm(handle.key, {
        seq: String(mine.game.seq),
        command: `obstacle ${id} ${spots[i++]!.join(',')}`,
      });
      expect(res.status).toBe(303);
      ({ handle, mine } = await actor());
    }
    expect((mine.view as any).phase).toBe('river');
    const res = await srv.postMoveForm(handle.key, {
      seq: String(mine.game.seq),
      command: 'river -300,255 0,262 300,255',
    });
    expect(res.status).toBe(303);
    ({ mine } = await actor());
    expect((mine.view as any).phase).toBe('play');
  });

  it("shows each player their own hand and the link form, and no one else's hand", async () => {
    const states = await Promise.all(game.seats.map((s) => srv.state(s.key)));
    const { handle } = await actor();
    const page = await (await fetch(`${srv.url}/play/${handle.key}`)).text();
    const me = states.find((s) => s.you === handle.seat)!;
    expect(page).toContain('Your hand');
    expect(page).toContain('id="pc-svg"');
    expect(page).toContain('name="command"');
    for (const c of (me.view as any).hand) expect(page).toContain(`<code>${c.id}</code>`);
    for (const other of states.filter((s) => s.you !== handle.seat)) {
      for (const c of (other.view as any).hand) {
        if ((me.view as any).hand.some((x: any) => x.id === c.id)) continue;
        expect(page).not.toContain(`<code>${c.id}</code>`);
        expect(page).not.toContain(`"${c.id}"`);
      }
    }
  });

  it('plays a whole game to the end by personal links, with typed builds and listed moves', async () => {
    const pick = seedRandom('pc-server-game');
    let moves = 0,
      typed = 0;
    for (;;) {
      const { any, handle, mine, view } = await actor();
      if (any.game.status !== 'active') break;
      const builds = mine.moves.filter((m) => (m.action as any).type === 'build');
      let res: { status: number; text: string };
      if (builds.length > 0 && moves % 2 === 0) {
        // Type the build as a player would: station ids and coordinates.
        const a = builds[randomInt(pick, builds.length)]!.action as any;
        const command = a.to ? `build ${a.from} ${a.to}` : `build ${a.from} new ${a.card} at ${a.at.join(',')}`;
        res = await srv.postMoveForm(handle.key, {
          seq: String(mine.game.seq),
          command: `${command} pay ${a.pay.join(' ')}`,
        });
        typed++;
      } else {
        const choice = mine.moves[view.phase === 'discard' ? 0 : randomInt(pick, mine.moves.length)]!;
        res = await srv.postMoveForm(handle.key, { seq: String(mine.game.seq), action: JSON.stringify(choice.action) });
      }
      expect(res.status, res.text.slice(0, 300)).toBe(303);
      moves++;
      expect(moves).toBeLessThan(2000);
    }
    const final = await srv.state(game.seats[0]!.key);
    expect(final.game.status).toBe('finished');
    expect(typed).toBeGreaterThan(3);
    expect((final.view as any).links.length).toBeGreaterThan(3);
    const page = await (await fetch(`${srv.url}/play/${game.seats[1]!.key}`)).text();
    expect(page).toContain('Game over');
  });
});
