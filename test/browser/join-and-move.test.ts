// A real browser (Debian's chromium through playwright-core, no script needed
// by the pages): open an invite link, join, make a move by clicking, see it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { sharedChromium } from '../support/chromium.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
let browser: Browser;
beforeAll(async () => {
  srv = await startTestServer();
  browser = await sharedChromium();
});
afterAll(async () => {
  await srv?.stop();
});

describe('browser', () => {
  it('joins through an invite link and makes a move by clicking', async () => {
    const created = (
      await srv.api('POST', '/api/games', {
        rules: 'high-card',
        seats: 2,
        name: 'Ada',
        email: 'ada@example.test',
        join: true,
      })
    ).body;
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(created.inviteUrl);
    expect(await page.locator('h1').innerText()).toMatch(/Join High Card/);
    await page.fill('input[name=name]', 'Bea <b>');
    await page.fill('input[name=email]', 'bea@example.test');
    await Promise.all([page.waitForURL(/\/play\//), page.click('button:has-text("Take a seat")')]);
    // The table is full, so the game started: Bea chooses a stake by clicking.
    expect(await page.locator('h1').innerText()).toContain('Bea <b>');
    const buttons = page.locator('#your-move form.moves button');
    expect(await buttons.count()).toBe(3);
    const label = await buttons.first().innerText();
    expect(label).toMatch(/^Stake card \d+$/);
    await Promise.all([page.waitForURL(/\/play\/[^/]+$/), buttons.first().click()]);
    expect(await page.locator('ol.history').innerText()).toContain('Bea <b> chose a stake');
    expect(await page.locator('#your-move').count()).toBe(0); // waiting for Ada now
    expect(await page.locator('summary:has-text("Take back my last move")').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
