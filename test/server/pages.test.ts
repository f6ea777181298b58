// The player's pages as a person meets them (issue 20, "Pages"): one command box and no JSON
// form, long lists of moves in two steps (1830's par: corporation, then price), each board drawn
// once, take-backs that ask first and say why they are gone, an abandoned game that names nobody
// to act, relative times on the home page, and a new-game form grouped per game.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { highCard } from '../support/high-card.ts';
import { startTestServer, type TestGame, type TestServer } from '../support/server.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ registry: [...games, highCard] });
});
afterAll(async () => {
  await srv?.stop();
});

/** The page's main part (the layout's style sheet left out). */
const page = async (path: string) => {
  const html = await (await fetch(srv.url + path)).text();
  return html.slice(html.indexOf('<main>'));
};
const unentity = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&amp;/g, '&');

/** Plays the first listed move for whoever is to act until `until` holds for a seat to act (or gives up). */
async function playUntil(game: TestGame, until: (moves: { action: any }[]) => boolean, max = 60) {
  for (let i = 0; i < max; i++) {
    const any = await srv.state(game.seats[0]!.key);
    const handle = game.seats.find((s) => s.seat === any.view.toAct[0])!;
    const st = await srv.state(handle.key);
    if (until(st.moves)) return { handle, st };
    expect((await srv.move(handle.key, st.game.seq, st.moves[0]!.action)).status).toBe(200);
  }
  throw new Error('never reached');
}

describe('the play page', () => {
  it('1830: par in two steps (corporation, then price), one command box, the market drawn once', async () => {
    const game = await srv.createGame({ rules: '1830', players: ['Ada', 'Bob', 'Cy'] });
    const pars = (moves: { action: any }[]) => moves.filter((m) => m.action.type === 'par');
    const { handle, st } = await playUntil(game, (moves) => pars(moves).length > 12);
    const html = await page(`/play/${handle.key}`);
    const form = html.slice(html.indexOf('<section id="your-move">'), html.indexOf('</section>'));
    // No par value is a button of its own at the top: each sits inside its corporation's choice.
    const group = form.slice(
      form.indexOf('<fieldset class="move-group">'),
      form.indexOf('</fieldset>', form.indexOf('move-group')),
    );
    const corps = [...new Set(pars(st.moves).map((m) => m.action.corp as string))];
    const summaries = [...group.matchAll(/<summary>([^<]*)<\/summary>/g)].map((m) => unentity(m[1]!));
    expect(summaries).toHaveLength(corps.length);
    for (const [i, c] of corps.entries()) expect(summaries[i]).toContain(c);
    const outside = form.replace(group, '');
    expect(outside).not.toMatch(/value="\{&quot;type&quot;:&quot;par&quot;/);
    const steps = [...group.matchAll(/<details class="move-step">([\s\S]*?)<\/details>/g)].map((m) => m[1]!);
    for (const s of steps) expect(s.match(/<button/g)!.length).toBeLessThanOrEqual(6);
    // The price buttons say the price; the whole label is their title.
    const first = /<button type="submit" name="action" value="([^"]+)" title="([^"]+)">([^<]+)<\/button>/.exec(
      steps[0]!,
    )!;
    expect(first[3]).toMatch(/^\$\d+/);
    expect(unentity(first[2]!)).toContain(corps[0]!);

    // One box to type a command in, and no form for actions as JSON (that is in the API docs).
    expect(html.match(/class="command-box"/g)).toHaveLength(1);
    expect(html).not.toContain('name="action" size');
    expect(html).not.toMatch(/<textarea name="action"/);
    expect(html).toContain('href="/api/v1/openapi.json"');
    // The stock market is drawn once: in the picture, not again as a table (a close-up of what
    // changed may show a part of it too).
    expect(html.replace(/<figure class="closeup">[\s\S]*?<\/figure>/, '').match(/>350</g)).toHaveLength(1);

    // The button plays the par it names.
    const res = await fetch(`${srv.url}/play/${handle.key}/move`, {
      method: 'POST',
      body: new URLSearchParams({ seq: String(st.game.seq), action: unentity(first[1]!) }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const after = await page(`/play/${handle.key}`);
    const entry = new RegExp(`#${st.game.seq + 1}</a> ([^<]+)</li>`).exec(after)!;
    expect(unentity(entry[1]!)).toContain(`${corps[0]} at ${first[3]!.split(' ')[0]}`);
  });

  it('Paperclip Railways: on your turn the board is drawn once (the one you click on)', async () => {
    const game = await srv.createGame({ rules: 'paperclip-railways', players: ['Ada', 'Bob'] });
    const any = await srv.state(game.seats[0]!.key);
    const mover = game.seats.find((s) => s.seat === any.view.toAct[0])!;
    const waiting = game.seats.find((s) => s !== mover)!;
    const mine = await page(`/play/${mover.key}`);
    expect(mine.match(/<svg/g)).toHaveLength(1);
    expect(mine).toContain('id="pc-svg"');
    expect(mine.match(/class="command-box"/g)).toHaveLength(1);
    // Not your turn: the picture alone.
    const theirs = await page(`/play/${waiting.key}`);
    expect(theirs.match(/<svg/g)).toHaveLength(1);
    expect(theirs).not.toContain('id="pc-svg"');
  });

  it('every game: at most one command box on the page of the seat to act, and no JSON form', async () => {
    for (const rules of games) {
      const game = await srv.createGame({
        rules: rules.id,
        players: ['Ada', 'Bob', 'Cy'].slice(0, Math.max(2, rules.players.min)),
      });
      const any = await srv.state(game.seats[0]!.key);
      const mover = game.seats.find((s) => s.seat === any.view.toAct[0])!;
      const html = await page(`/play/${mover.key}`);
      expect(html.match(/class="command-box"/g), rules.id).toHaveLength(1);
      expect(html, rules.id).not.toMatch(/<textarea[^>]*name="action"|<input[^>]*name="action"(?![^>]*type="hidden")/);
    }
  });

  it('take back asks first, names the move, and says why it is gone once the next player moved', async () => {
    const game = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    // The stakes (simultaneous, hidden) first, then the first play.
    for (const h of game.seats) {
      const st = await srv.state(h.key);
      expect((await srv.move(h.key, st.game.seq, st.moves[0]!.action)).status).toBe(200);
    }
    let any = await srv.state(game.seats[0]!.key);
    const first = game.seats.find((s) => s.seat === any.view.toAct[0])!;
    const second = game.seats.find((s) => s !== first)!;
    let st = await srv.state(first.key);
    const play = st.moves.find((m) => (m.action as any).type === 'play')!;
    expect((await srv.move(first.key, st.game.seq, play.action)).status).toBe(200);
    let html = await page(`/play/${first.key}`);
    const undo = html.slice(
      html.indexOf('<details class="undo">'),
      html.indexOf('</details>', html.indexOf('class="undo"')),
    );
    expect(undo).toContain('<summary>Take back my last move</summary>');
    expect(undo).toContain(`Take back &ldquo;${first.name} plays`.slice(0, 20));
    expect(undo).toContain('Yes, take it back');
    // The next player moves: the take-back is gone, and the page says why.
    any = await srv.state(second.key);
    st = await srv.state(second.key);
    expect(
      (await srv.move(second.key, st.game.seq, st.moves.find((m) => (m.action as any).type === 'play')!.action)).status,
    ).toBe(200);
    html = await page(`/play/${first.key}`);
    expect(html).not.toContain('Take back my last move');
    expect(html).toContain(`Your last move can no longer be taken back: ${second.name} has moved since.`);
  });

  it('the confirm page shows the board after the move, unless the move reveals something hidden', async () => {
    const game = await srv.createGame({ rules: 'stephensons-rocket', players: ['Ada', 'Bob', 'Cy'] });
    const first = (await srv.state(game.seats[0]!.key)).view.toAct[0]!;
    const handle = game.seats.find((s) => s.seat === first)!;
    const st = await srv.state(handle.key);
    const html = await page(`/play/${handle.key}/m/0?seq=${st.game.seq}`);
    expect(html).toContain('<h2>After this move</h2>');
    expect(html).toMatch(/<section class="preview">[\s\S]*<svg/);
    // What the move changes (the track it lays), ringed on that board.
    expect(html).toContain('What it changes is ringed in orange.');
    expect(html).toMatch(/<section class="preview">[\s\S]*<g class="changed"><rect /);
    // Nothing was played by looking.
    expect((await srv.state(handle.key)).game.seq).toBe(st.game.seq);

    // High Card: drawing reveals a card, so the page shows the game as it is and says why.
    const hc = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    for (const h of hc.seats) {
      const s = await srv.state(h.key);
      expect((await srv.move(h.key, s.game.seq, s.moves[0]!.action)).status).toBe(200);
    }
    const any = await srv.state(hc.seats[0]!.key);
    const turn = hc.seats.find((s) => s.seat === any.view.toAct[0])!;
    const mine = await srv.state(turn.key);
    const draw = mine.moves.findIndex((m) => (m.action as any).type === 'draw');
    expect(draw).toBeGreaterThanOrEqual(0);
    const drawPage = await page(`/play/${turn.key}/m/${draw}?seq=${mine.game.seq}`);
    expect(drawPage).toContain('<h2>The game now</h2>');
    expect(drawPage).toContain('reveals something hidden');
    const playPage = await page(`/play/${turn.key}/m/0?seq=${mine.game.seq}`);
    expect(playPage).toContain('<h2>After this move</h2>');
  });

  it("shows a close-up of what changed on the picture since the player's last move, and keeps labels readable", async () => {
    const game = await srv.createGame({ rules: 'stephensons-rocket', players: ['Ada', 'Bob', 'Cy'] });
    await srv.playToEnd(game, { maxMoves: 4 });
    const viewBox = (svg: string) => /viewBox="([^"]+)"/.exec(svg)![1]!.split(' ').map(Number);
    let closeUps = 0;
    for (const h of game.seats) {
      const html = await page(`/play/${h.key}`);
      const board = /<div class="board"><svg[^>]*>/.exec(html)![0];
      // The whole picture keeps a width at which its labels are about 11 px, scrolling in its own box.
      const minWidth = Number(/min-width:(\d+)px/.exec(board)![1]);
      expect(minWidth).toBeGreaterThan(360);
      const fig = /<figure class="closeup">[\s\S]*?<\/figure>/.exec(html);
      if (!fig) continue;
      closeUps++;
      const part = viewBox(fig[0]);
      const whole = viewBox(board);
      expect(part[2]!).toBeLessThan(whole[2]! * 0.7);
      expect(fig[0]).toContain('what changed since your last move');
      expect(fig[0]).toMatch(/<g class="changed"><rect [^>]*stroke="#e06000"/);
    }
    expect(closeUps).toBeGreaterThan(0);
    // A player who has not moved yet gets no close-up.
    const fresh = await srv.createGame({ rules: 'stephensons-rocket', players: ['Ada', 'Bob', 'Cy'] });
    for (const h of fresh.seats) expect(await page(`/play/${h.key}`)).not.toContain('class="closeup"');
  });

  it('after an abandonment the headline names nobody to act', async () => {
    const game = await srv.createGame({ rules: 'stephensons-rocket', players: ['Ada', 'Bob', 'Cy'] });
    const before = await page(`/play/${game.seats[0]!.key}`);
    expect(before).toMatch(/class="[^"]*toact/);
    expect((await srv.api('POST', `/api/admin/${game.adminKey}/abandon`, { confirm: 'yes' })).status).toBeLessThan(300);
    for (const h of game.seats) {
      const html = await page(`/play/${h.key}`);
      expect(html).toContain('The game was abandoned');
      expect(html).not.toMatch(/to act|class="[^"]*toact|id="your-move"/);
    }
    const watch = await page(`/watch/${game.spectatorKey}`);
    expect(watch).toContain('The game was abandoned');
    expect(watch).not.toMatch(/to act/);
  });
});

describe('taking over a seat', () => {
  it('shows what the seat holds as everyone may see it, never its hand or its points', async () => {
    const game = await srv.createGame({ rules: 'airlines-europe', players: ['Ada', 'Bob', 'Cy'] });
    // Past the opening choice, so that the seats hold shares and cards.
    await playUntil(game, (moves) => moves.some((m) => m.action.type === 'buy'));
    const bob = game.seats.find((h) => h.name === 'Bob')!;
    const own = (await srv.state(bob.key)).view as unknown as {
      players: { seat: number; money: number; portfolio: { name: string; count: number }[] }[];
    };
    const reopened = await srv.api('POST', `/api/admin/${game.adminKey}/reopen`, { seat: bob.seat });
    expect(reopened.status).toBeLessThan(300);
    const html = await page(`/join/${(reopened.body as { inviteKey: string }).inviteKey}`);
    const holds = /<dl class="holds">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? '';
    expect(html).toContain('What you take over');
    const me = own.players.find((p) => p.seat === bob.seat)!;
    expect(holds).toContain(`${me.money} million`);
    for (const share of me.portfolio) expect(holds).toContain(`${share.name} ×${share.count}`);
    expect(holds).toContain('Money');
    expect(holds).not.toMatch(/Your hand|\d+ points/);
  });
});

describe('the home page and the new-game form', () => {
  it('says how long ago a game last moved, with the full time on hover', async () => {
    await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    srv.clock.advanceHours(3);
    const html = await page('/');
    expect(html).toMatch(
      /<time datetime="\d{4}-\d\d-\d\dT[^"]+Z" title="\d{4}-\d\d-\d\d \d\d:\d\d UTC">3 hours ago<\/time>/,
    );
    expect(html).not.toMatch(/<td>\d{4}-\d\d-\d\dT/);
    srv.clock.advanceHours(48);
    expect(await page('/')).toContain('>2 days ago</time>');
  });

  it('groups the options per game and gives each game its player range', async () => {
    const html = await page('/new');
    for (const g of games) {
      expect(html).toContain(`<option value="${g.id}" data-min="${g.players.min}" data-max="${g.players.max}"`);
      if (g.options?.length) expect(html).toContain(`<fieldset class="game-options" data-game="${g.id}">`);
    }
    expect(html).toContain('<script src="/static/pages/new.js" defer></script>');
    expect((await fetch(`${srv.url}/static/pages/new.js`)).status).toBe(200);
  });
});
