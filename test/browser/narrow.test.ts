// No page scrolls sideways at 360 px, in a real browser (Debian's chromium through
// playwright-core): home, new game, join, every game's play page (the seat to act and a waiting
// one), watch, a history step, a quick-move confirm page, admin. Wide tables and pictures scroll
// inside their own boxes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { games } from '../../rules/index.ts';
import { sharedChromium } from '../support/chromium.ts';
import { startTestServer, type TestGame, type TestServer } from '../support/server.ts';

const PHONE = { width: 360, height: 740 };

let srv: TestServer;
let browser: Browser;
beforeAll(async () => {
  srv = await startTestServer({ registry: games });
  browser = await sharedChromium();
});
afterAll(async () => {
  await srv?.stop();
});

const playersFor = (id: string) => {
  const min = games.find((g) => g.id === id)!.players.min;
  return ['Ada', 'Bob', 'Cy', 'Di', 'Eve'].slice(0, Math.max(3, min));
};

/** The page scrolls sideways by this many pixels (0: it fits). */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const root = (globalThis as any).document.documentElement; // runs in the page
    return (root.scrollWidth as number) - (root.clientWidth as number);
  });

async function seatToAct(game: TestGame) {
  const any = await srv.state(game.seats[0]!.key);
  return game.seats.find((s) => s.seat === any.view.toAct[0])!;
}

describe('no page scrolls sideways at 360 px', () => {
  it('home, new game, join, play (to act and waiting), watch, history step, confirm, admin', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    const paths: string[] = ['/', '/new'];
    for (const rules of games) {
      const game = await srv.createGame({ rules: rules.id, players: playersFor(rules.id) });
      const mover = await seatToAct(game);
      const waiting = game.seats.find((s) => s !== mover)!;
      const st = await srv.state(mover.key);
      // A game still waiting for players: its invitation and the first player's waiting page.
      const open = await srv.createGame({ rules: rules.id, players: ['Ada'], seats: rules.players.max, start: false });
      paths.push(
        `/play/${mover.key}`,
        `/play/${waiting.key}`,
        `/watch/${game.spectatorKey}`,
        `/play/${mover.key}/step/${st.game.seq}`,
        `/play/${mover.key}/m/0?seq=${st.game.seq}`,
        `/admin/${game.adminKey}`,
        `/join/${open.inviteKey}`,
        `/play/${open.seats[0]!.key}`,
      );
    }
    const wide: string[] = [];
    for (const path of paths) {
      await page.goto(srv.url + path);
      const over = await sideways(page);
      if (over > 0) wide.push(`${path.replace(/\/(play|watch|admin|join)\/[^/?]+/, '/$1/<key>')}: ${over} px`);
    }
    expect(wide).toEqual([]);
    await page.close();
  });
});
