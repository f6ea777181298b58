// The 1830 move form's page script in a real browser (Debian's chromium through
// playwright-core): clicking a hex of the map narrows the tile-lay list to that
// hex and draws its legal tiles and rotations as pictures, "Turn" steps through
// its rotations, "All hexes" brings the list back, a click on a picture lays it.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { sharedChromium } from '../../support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { games } from '../../../rules/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const exp = JSON.parse(
  readFileSync(new URL('../../fixtures/18xx.games/1830/29133.json', import.meta.url), 'utf8'),
) as Export18xx;

let srv: TestServer;
let browser: Browser;

beforeAll(async () => {
  srv = await startTestServer({ registry: games });
  browser = await sharedChromium();
});

afterAll(async () => {
  await srv?.stop();
});

describe('1830 move form script', () => {
  it('narrows the tile lays to a clicked hex, turns them, and shows all hexes again', async () => {
    const { log } = importExport(exp);
    const game = await srv.createGame({ rules: '1830', players: ['Ada', 'Bob', 'Cy', 'Di'] });
    const keyOf: Record<number, string> = {};
    for (const h of game.seats) keyOf[(await srv.state(h.key)).you] = h.key;
    const upto = 89; // PRR is about to lay a tile in operating round 2.1
    for (let i = 0; i < upto; i++) {
      const { seat, action } = log[i]!;
      const st = await srv.state(keyOf[seat]!);
      const r = await srv.api('POST', `/api/play/${keyOf[seat]}/move`, { seq: st.game.seq, action });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(400);
    }
    const key = keyOf[log[upto]!.seat]!;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${srv.url}/play/${key}`);
    const hexesOf = () =>
      page.$$eval('#lay-1830 option', (os) =>
        os.map((o) => (o as unknown as { dataset: { hex: string } }).dataset.hex),
      );
    const all = await hexesOf();
    const distinct = [...new Set(all)];
    expect(distinct.length).toBeGreaterThan(1);
    // the hex with the most lays, so Turn has something to step through
    const hex = distinct.sort((a, b) => all.filter((h) => h === b).length - all.filter((h) => h === a).length)[0]!;
    expect(await page.isVisible('#turn-1830')).toBe(false);

    // the hex's own group (the names drawn over the map would take a mouse click at its centre)
    await page.dispatchEvent(`g[data-hex="${hex}"]`, 'click');
    const narrowed = await hexesOf();
    expect(narrowed.length).toBe(all.filter((h) => h === hex).length);
    expect(new Set(narrowed)).toEqual(new Set([hex]));
    expect(await page.isVisible('#all-1830')).toBe(true);
    if (narrowed.length > 1) {
      expect(await page.isVisible('#turn-1830')).toBe(true);
      const before = await page.$eval('#lay-1830', (s) => (s as unknown as { selectedIndex: number }).selectedIndex);
      await page.click('#turn-1830');
      const after = await page.$eval('#lay-1830', (s) => (s as unknown as { selectedIndex: number }).selectedIndex);
      expect(after).toBe((before + 1) % narrowed.length);
    }

    // Each legal tile and rotation of the hex drawn as a picture.
    const pictures = page.locator('#lay-pictures-1830 button.tile-pick');
    expect(await pictures.count()).toBe(narrowed.length);
    expect(await page.locator('#lay-pictures-1830 button.tile-pick svg').count()).toBe(narrowed.length);
    const commands = await pictures.evaluateAll((bs) =>
      bs.map((b) => (b as unknown as { dataset: { command: string } }).dataset.command),
    );
    expect(commands.every((c) => c.startsWith(`lay ${hex} `))).toBe(true);

    await page.click('#all-1830');
    expect(await hexesOf()).toEqual(all);
    expect(await page.isVisible('#all-1830')).toBe(false);
    expect(await page.isVisible('#lay-pictures-1830')).toBe(false);

    // Click the hex again, then a picture: that tile is laid.
    await page.dispatchEvent(`g[data-hex="${hex}"]`, 'click');
    const [, tile, rotation] = commands[0]!.split(' ').slice(1);
    await Promise.all([page.waitForURL(/\/play\/[^/]+$/), pictures.first().click()]);
    expect(await page.locator('ol.history li').first().innerText()).toContain(
      `lays tile #${tile} on ${hex} (rotation ${rotation})`,
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
