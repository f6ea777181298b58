// Through a player's eyes, in a real browser (Debian's chromium through playwright-core):
// - for every game, at 360 px (a phone) and at desktop width: read the turn mail as the
//   outbox shows it, follow its first link, and make the move on the page it opens;
// (test/browser/narrow.test.ts checks that no page scrolls sideways at 360 px.)
// Screenshots of every step are kept in test-artifacts/browser/ (git-ignored) to look at.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { games } from '../../rules/index.ts';
import { mailPlugin } from '../../server/mail/plugin.ts';
import type { Mailer } from '../../server/mail/index.ts';
import { sharedChromium } from '../support/chromium.ts';
import { startTestServer, type TestGame, type TestServer } from '../support/server.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'browser');
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

let srv: TestServer;
let browser: Browser;
let mailer: Mailer;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  srv = await startTestServer({
    registry: games,
    plugins: [mailPlugin({ env: {}, cron: false, onReady: (p) => (mailer = p.mailer) })],
  });
  browser = await sharedChromium();
});
afterAll(async () => {
  await srv?.stop();
});

const email = (name: string) => `${name.toLowerCase()}@example.test`;
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

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.jpeg`), fullPage: true, type: 'jpeg', quality: 70 });
}

/** The newest turn mail to `to` in the outbox: its id (the outbox page is /outbox/<id>.html). */
async function turnMail(to: string): Promise<string> {
  await srv.service.settled();
  await mailer.queue.idle();
  const dir = join(srv.dataDir, 'outbox');
  const mails = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string; to: string; subject: string; at: string },
    )
    .filter((m) => m.to.includes(to) && /turn/i.test(m.subject))
    .sort((a, b) => a.at.localeCompare(b.at));
  expect(mails.length, `a turn mail to ${to}`).toBeGreaterThan(0);
  return mails[mails.length - 1]!.id;
}

async function seatToAct(game: TestGame) {
  const any = await srv.state(game.seats[0]!.key);
  return game.seats.find((s) => s.seat === any.view.toAct[0])!;
}

describe('from the turn mail to a move, as a person would', () => {
  for (const rules of games) {
    for (const [label, viewport] of [
      ['360', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      it(`${rules.id} at ${label}`, async () => {
        const game = await srv.createGame({ rules: rules.id, players: playersFor(rules.id) });
        const mover = await seatToAct(game);
        const before = await srv.state(mover.key);
        const id = await turnMail(email(mover.name));
        const page = await browser.newPage({ viewport });
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        const name = `${rules.id}-${label}`;
        // The mail as the outbox shows it, and its first move link into the game (the pictures
        // above it, the close-up for a phone and the board, link to the seat's page, where the
        // board zooms).
        await page.goto(`${srv.url}/outbox/${id}.html`);
        await shot(page, `${name}-1-mail`);
        expect(await page.locator(`a[href="${srv.url}/play/${mover.key}"] img`).count()).toBe(2);
        const first = page.locator(`a[href^="${srv.url}/play/${mover.key}/m/"]`).first();
        const href = (await first.getAttribute('href'))!;
        expect(href).toContain(mover.key);
        await page.goto(href);
        expect(await page.locator('h1').innerText()).toContain(mover.name);
        if (label === '360') expect(await sideways(page)).toBe(0);
        // No raw ids of hidden things in what a person reads (Paperclip's face-down stations).
        expect(await page.locator('main').innerText()).not.toMatch(/face-down-\d/);
        await shot(page, `${name}-2-link`);
        // The move, made on the page the link opened: confirm a quick move, or take the page's first move.
        const confirm = page.locator('button:has-text("Confirm this move")');
        if ((await confirm.count()) > 0) {
          await Promise.all([page.waitForURL(/\/play\/[^/?]+$/), confirm.click()]);
        } else {
          const button = page.locator('#your-move form.moves button').first();
          await Promise.all([page.waitForURL(/\/play\/[^/?]+$/), button.click()]);
        }
        expect(await page.locator('.problem').count()).toBe(0);
        if (label === '360') expect(await sideways(page)).toBe(0);
        await shot(page, `${name}-3-moved`);
        const after = await srv.state(mover.key);
        expect(after.game.seq).toBeGreaterThan(before.game.seq);
        expect(await page.locator('ol.history').innerText()).toContain(mover.name);
        expect(problems).toEqual([]);
        await page.close();
      });
    }
  }
});
