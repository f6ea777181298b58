// Routes (server/links.ts): every web key of a game begins with the game's route, so a load
// balancer can keep one game's clicks on one process (README, "The load balancer"). Checked here:
// the keys a game hands out share their route and differ from another game's, every keyed path
// and every link the server writes names that route to a balancer reading ROUTED_KEY_IN_PATH,
// paths that name no game name no route, and the README's settings use that very pattern.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameRoute, ROUTED_KEY_IN_PATH, routeOfKey, routeOfPath } from '../../server/links.ts';
import { keyedRoutes } from '../support/routes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.stop();
});

async function newGame() {
  const r = await srv.api<any>('POST', '/api/games', {
    rules: 'high-card',
    seats: 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
  });
  expect(r.status).toBeLessThan(300);
  return r.body;
}

describe('game routes', () => {
  it("every key of a game's links begins with its route, another game's with its own", async () => {
    const a = await newGame();
    const b = await newGame();
    const joined = await srv.api<any>('POST', `/api/join/${a.inviteKey}`, { name: 'Bob', email: 'bob@example.test' });
    const keysOf = (g: any) => [g.adminKey, g.inviteKey, g.spectatorKey, g.seatKey];
    for (const key of [...keysOf(a), joined.body.seatKey]) {
      expect(routeOfKey(key)).toBe(gameRoute(a.gameId));
    }
    for (const key of keysOf(b)) expect(routeOfKey(key)).toBe(gameRoute(b.gameId));
    expect(gameRoute(a.gameId)).not.toBe(gameRoute(b.gameId));
    // The organiser's confirmation link is a web link too; a reply token is not (its address names the game).
    const links = srv.service.links;
    expect(routeOfKey(links.issue(a.gameId, 'confirm').key)).toBe(gameRoute(a.gameId));
    expect(routeOfKey(links.issue(a.gameId, 'reply').key)).toBeNull();
  });

  it('a balancer reading the pattern finds the route in every keyed path and every link written', async () => {
    const g = await newGame();
    const route = gameRoute(g.gameId);
    for (const r of keyedRoutes(g.seatKey, 1)) expect(routeOfPath(r.path), r.path).toBe(route);
    const links = srv.service.links;
    const urls = [
      links.playUrl(g.seatKey),
      links.quickMoveUrl(g.seatKey, 2, 5),
      links.historyUrl(g.seatKey, 'txt'),
      links.stepUrl(g.spectatorKey, 3, 'spectator'),
      links.inviteUrl(g.inviteKey),
      links.adminUrl(g.adminKey),
      links.watchUrl(g.spectatorKey),
    ];
    for (const u of urls) expect(routeOfPath(new URL(u).pathname), u).toBe(route);
  });

  it('paths that name no game, and keys from before routes, name no route', () => {
    const links = srv.service.links;
    const token = new URL(links.gamesUrl('ada@example.test')).pathname;
    for (const path of ['/', '/api/games', '/games', token, '/outbox/0123456789abcdef0123456789ab.eml']) {
      expect(routeOfPath(path), path).toBeNull();
    }
    const old = 'AAAAAAAAAAAAAAAAAAAAAAAA'; // 24 characters: a key issued before routes
    expect(routeOfKey(old)).toBeNull();
    expect(routeOfPath(`/play/${old}/history.txt`)).toBeNull();
  });

  it("the README's load-balancer settings use the server's own pattern", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`"~${ROUTED_KEY_IN_PATH}"`);
  });
});
