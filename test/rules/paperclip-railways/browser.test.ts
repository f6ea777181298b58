// The link form in a real browser (Debian's chromium through playwright-core):
// click the start station and the end station, add a bend by clicking and take
// it back, read the clips, crossings and score shown before sending, send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { sharedChromium } from '../../support/chromium.ts';
import { paperclipRailways } from '../../../rules/paperclip-railways/index.ts';
import { startTestServer, type TestGame, type TestServer } from '../../support/server.ts';

/** Points of the table (mm) well away from every station, so a click there hits the bare table. */
function freeSpots(view: any): number[][] {
  const out: number[][] = [];
  for (let y = -400; y <= 400; y += 40) {
    for (let x = -400; x <= 400; x += 40) {
      const clear = view.stations.every(
        (s: any) => Math.abs(s.x - x) > s.w / 2 + 25 || Math.abs(s.y - y) > s.h / 2 + 25,
      );
      if (clear) out.push([x, y]);
    }
  }
  return out;
}

/** Where a table point (mm) lies on the page, for mouse clicks. */
async function toScreen(page: Page, mm: number[]): Promise<number[]> {
  return page.evaluate((mm) => {
    const svg = (globalThis as any).document.getElementById('pc-svg'); // runs in the page
    // The point in view (the window scrolls to it), as a mouse click needs.
    const p0 = svg.createSVGPoint();
    p0.x = mm[0]!;
    p0.y = mm[1]!;
    const q0 = p0.matrixTransform(svg.getScreenCTM()!);
    const win = (globalThis as any).window;
    if (q0.y < 40 || q0.y > win.innerHeight - 40) win.scrollBy(0, q0.y - win.innerHeight / 2);
    const p = svg.createSVGPoint();
    p.x = mm[0]!;
    p.y = mm[1]!;
    const q = p.matrixTransform(svg.getScreenCTM()!);
    return [q.x, q.y];
  }, mm);
}

let srv: TestServer;
let browser: Browser;
let game: TestGame;

beforeAll(async () => {
  srv = await startTestServer({ registry: [paperclipRailways] });
  browser = await sharedChromium();
  game = await srv.createGame({ rules: 'paperclip-railways', players: ['Ada', 'Bob'] });
});

afterAll(async () => {
  await srv?.stop();
});

describe('paperclip railways link form in a browser', () => {
  it('builds a link by clicking stations, previewing clips and score first', async () => {
    // Setup (obstacles, river) and a few turns through the API until someone can build to a station on the table.
    let handle = game.seats[0]!;
    let build: any = null;
    for (let i = 0; i < 60 && !build; i++) {
      const any = await srv.state(game.seats[0]!.key);
      handle = game.seats.find((s) => s.seat === any.view.toAct[0])!;
      const mine = await srv.state(handle.key);
      build = mine.moves.map((m) => m.action as any).find((a) => a.type === 'build' && a.to) ?? null;
      if (!build) {
        const draw = mine.moves.find((m) => (m.action as any).type === 'draw') ?? mine.moves[0]!;
        expect((await srv.move(handle.key, mine.game.seq, draw.action)).status).toBeLessThan(400);
      }
    }
    expect(build).not.toBeNull();
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${srv.url}/play/${handle.key}`);
    await page.click(`#pc-svg rect.pc-st[data-id="${build.from}"]`);
    expect(await page.locator('#pc-info').innerText()).toMatch(/end station/);
    await page.click(`#pc-svg rect.pc-st[data-id="${build.to}"]`);
    const info = await page.locator('#pc-info').innerText();
    expect(info).toMatch(/\d+ clips .*crossing.*score about -?\d+/);
    expect(await page.inputValue('#pc-command')).toBe(`build ${build.from} ${build.to}`);
    // A click on the table adds a bend; the command carries it; take it back.
    const mm = freeSpots((await srv.state(handle.key)).view)[0]!;
    const at = await toScreen(page, mm);
    await page.mouse.click(at[0]!, at[1]!);
    expect(await page.inputValue('#pc-command')).toMatch(
      new RegExp(`^build ${build.from} ${build.to} via -?\\d+,-?\\d+$`),
    );
    await page.click('#pc-undo-bend');
    expect(await page.inputValue('#pc-command')).toBe(`build ${build.from} ${build.to}`);
    // Ticking cards to pay with adds them; the build's own payment is then sent.
    for (const c of build.pay) await page.check(`.pc-pay[value="${c}"]`);
    const paying = await page.inputValue('#pc-command');
    expect(paying.startsWith(`build ${build.from} ${build.to} pay `)).toBe(true);
    expect(paying.split(' pay ')[1]!.split(' ').sort()).toEqual([...build.pay].sort());
    await Promise.all([page.waitForURL(/\/play\/[^/]+$/), page.click('#pc-form button[type=submit]')]);
    expect(await page.locator('ol.history').innerText()).toMatch(/built an? \d+-clip link/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('places a new card from the hand at a clicked spot and drags a bend', async () => {
    const any = await srv.state(game.seats[0]!.key);
    const handle = game.seats.find((s) => s.seat === any.view.toAct[0])!;
    const mine = await srv.state(handle.key);
    const view = mine.view as any;
    expect(view.hand.length).toBeGreaterThan(0);
    const start = view.players[handle.seat].start;
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${srv.url}/play/${handle.key}`);
    await page.click(`#pc-svg rect.pc-st[data-id="${start}"]`);
    await page.selectOption('#pc-card', view.hand[0].id);
    const free = freeSpots(view);
    const spot = free[Math.floor(free.length / 2)]!;
    const p1 = await toScreen(page, spot);
    await page.mouse.click(p1[0]!, p1[1]!);
    const placed = await page.inputValue('#pc-command');
    expect(placed).toMatch(new RegExp(`^build ${start} new ${view.hand[0].id} at -?\\d+,-?\\d+$`));
    expect(await page.locator('#pc-info').innerText()).toMatch(/clips/);
    // A bend away from stations and from the new card, with room to drag it 60 mm to the right.
    const bend = free.find(
      (p) => Math.abs(p[0]! - spot[0]!) > 150 && free.some((q) => q[0] === p[0]! + 80 && q[1] === p[1]),
    )!;
    const b1 = await toScreen(page, bend);
    await page.mouse.click(b1[0]!, b1[1]!);
    const withBend = await page.inputValue('#pc-command');
    expect(withBend).toContain(' via ');
    // Drag the bend 60 mm to the right.
    const b2 = await toScreen(page, [bend[0]! + 60, bend[1]!]);
    await page.mouse.move(b1[0]!, b1[1]!);
    await page.mouse.down();
    await page.mouse.move(b2[0]!, b2[1]!, { steps: 4 });
    await page.mouse.up();
    const dragged = await page.inputValue('#pc-command');
    expect(dragged).not.toBe(withBend);
    const x = Number(dragged.split(' via ')[1]!.split(',')[0]);
    expect(Math.abs(x - (bend[0]! + 60))).toBeLessThanOrEqual(2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('places an obstacle and lays the river by clicking', async () => {
    const g = await srv.createGame({ rules: 'paperclip-railways', players: ['Cy', 'Di'] });
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    const actor = async () => {
      const any = await srv.state(g.seats[0]!.key);
      return g.seats.find((s) => s.seat === any.view.toAct[0])!;
    };
    // Two players: the second player places three obstacles (rhombus ±520 × ±380; the grid on the
    // picture has its squares of 100 mm from -550 across, column A, and -400 down, row 1).
    const spots = [
      [-260, 0, 'C5'],
      [260, 0, 'I5'],
      [0, 230, 'F7'],
    ] as const;
    for (const [x, y, square] of spots) {
      const spot = [x, y];
      const who = await actor();
      await page.goto(`${srv.url}/play/${who.key}`);
      await page.selectOption('#pc-rot', '90');
      const at = await toScreen(page, spot);
      await page.mouse.click(at[0]!, at[1]!);
      expect(await page.inputValue('#pc-command')).toMatch(new RegExp(`^obstacle [a-z]+ ${spot.join(',')} 90$`));
      await Promise.all([page.waitForURL(/\/play\/[^/]+$/), page.click('#pc-form button[type=submit]')]);
      expect(await page.locator('ol.history').innerText()).toContain(`turned 90° at ${square}`);
    }
    const who = await actor();
    await page.goto(`${srv.url}/play/${who.key}`);
    for (const p of [
      [-200, -120],
      [0, -150],
      [200, -120],
    ]) {
      const at = await toScreen(page, p);
      await page.mouse.click(at[0]!, at[1]!);
    }
    expect(await page.inputValue('#pc-command')).toBe('river -200,-120 0,-150 200,-120');
    expect(await page.locator('#pc-info').innerText()).toMatch(/3 point\(s\), 404 of at most 960 mm/);
    await Promise.all([page.waitForURL(/\/play\/[^/]+$/), page.click('#pc-form button[type=submit]')]);
    expect(await page.locator('ol.history').innerText()).toContain('laid the river');
    expect(((await srv.state(who.key)).view as any).phase).toBe('play');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('discards down to six by ticking cards', async () => {
    // Draw until a player must discard (hands start at 4; a draw of 3 with 2 players goes over 6).
    let who = game.seats[0]!;
    for (let i = 0; i < 40; i++) {
      const any = await srv.state(game.seats[0]!.key);
      who = game.seats.find((s) => s.seat === any.view.toAct[0])!;
      const mine = await srv.state(who.key);
      if ((mine.view as any).mustDiscard > 0) break;
      const draw = mine.moves.find((m) => (m.action as any).type === 'draw') ?? mine.moves[0]!;
      expect((await srv.move(who.key, mine.game.seq, draw.action)).status).toBeLessThan(400);
    }
    const mine = await srv.state(who.key);
    const view = mine.view as any;
    expect(view.mustDiscard).toBeGreaterThan(0);
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    await page.goto(`${srv.url}/play/${who.key}`);
    const chosen = view.hand.slice(0, view.mustDiscard).map((c: any) => c.id);
    for (const c of chosen) await page.check(`.pc-discard[value="${c}"]`);
    expect(await page.inputValue('#pc-discard-command')).toBe(`discard ${chosen.join(' ')}`);
    await Promise.all([page.waitForURL(/\/play\/[^/]+$/), page.click('#pc-discard-send')]);
    const after = (await srv.state(who.key)).view as any;
    expect(after.hand.map((c: any) => c.id)).toEqual(
      view.hand.map((c: any) => c.id).filter((id: string) => !chosen.includes(id)),
    );
    await page.close();
  });
});
