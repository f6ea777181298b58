// Issue 13, item 1: a link key, once retired, is dead forever. Seats that
// leave before the start, the creator's own seat, seats reopened in a running
// game and old invitations: every retired key gets 404 on every keyed route
// (410 with the words of what became of the seat, for a player removed from one,
// issue 20), and the newcomer's key is a different one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey, keyHash } from '../../server/links.ts';
import { mailPlugin } from '../../server/mail/plugin.ts';
import { indexEntryOfDoc } from '../../server/store/index-entry.ts';
import type { GameDoc } from '../../server/store/types.ts';
import { makeService, TEST_SECRET } from '../support/service.ts';
import { keyedRoutes, sendKeyed } from '../support/routes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ plugins: [mailPlugin({ env: {}, cron: false })] });
});
afterAll(async () => {
  await srv?.stop();
});

async function ok<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const r = await srv.api<T>(method, path, body);
  if (r.status >= 400) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function expectDead(keys: Record<string, string>, seq: number): Promise<void> {
  const alive: string[] = [];
  for (const [who, key] of Object.entries(keys)) {
    for (const r of keyedRoutes(key, seq)) {
      const res = await sendKeyed(srv.url, r);
      if (res.status !== 404 && res.status !== 410)
        alive.push(`${who}: ${r.method} ${r.path.replace(key, '<key>')} -> ${res.status}`);
    }
  }
  expect(alive).toEqual([]);
}

describe('retired link keys stay dead', () => {
  it('before and after the start, for players who left, the creator and old invitations', async () => {
    const created = await ok('POST', '/api/games', {
      rules: 'high-card',
      seats: 3,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    const admin = created.adminKey as string;
    const retired: Record<string, string> = {};
    const seen = new Set<string>([admin, created.inviteKey, created.seatKey, created.spectatorKey]);
    const fresh = (key: string) => {
      expect(seen.has(key)).toBe(false);
      seen.add(key);
      return key;
    };

    // Before the start: Bob joins and leaves, Carl takes a seat.
    const bob = await ok('POST', `/api/join/${created.inviteKey}`, { name: 'Bob', email: 'bob@example.test' });
    fresh(bob.seatKey);
    const r1 = await ok('POST', `/api/admin/${admin}/reopen`, { seat: 1 });
    retired.bob = bob.seatKey;
    retired.firstInvite = created.inviteKey;
    const carl = await ok('POST', `/api/join/${fresh(r1.inviteKey)}`, { name: 'Carl', email: 'carl@example.test' });
    fresh(carl.seatKey);

    // The creator gives up her seat; Dan sits down; the admin page shows no seat of hers.
    const r2 = await ok('POST', `/api/admin/${admin}/reopen`, { seat: 0 });
    retired.ada = created.seatKey;
    retired.secondInvite = r1.inviteKey;
    const dan = await ok('POST', `/api/join/${fresh(r2.inviteKey)}`, { name: 'Dan', email: 'dan@example.test' });
    fresh(dan.seatKey);
    const adminPage = await (await fetch(`${srv.url}/admin/${admin}`)).text();
    expect(adminPage).not.toContain(dan.seatKey);
    expect(adminPage).not.toContain(carl.seatKey);
    await expectDead(retired, 3);

    // Eve fills the table: the game starts. Then Carl's seat is reopened and Fred takes it over.
    const eve = await ok('POST', `/api/join/${r2.inviteKey}`, { name: 'Eve', email: 'eve@example.test' });
    fresh(eve.seatKey);
    retired.thirdInvite = r2.inviteKey;
    const carlSeat = (await ok('GET', `/api/play/${carl.seatKey}`)).you as number;
    const r3 = await ok('POST', `/api/admin/${admin}/reopen`, { seat: carlSeat });
    retired.carl = carl.seatKey;
    const fred = await ok('POST', `/api/join/${fresh(r3.inviteKey)}`, { name: 'Fred', email: 'fred@example.test' });
    fresh(fred.seatKey);
    retired.fourthInvite = r3.inviteKey;
    const seq = (await ok('GET', `/api/play/${fred.seatKey}`)).game.seq as number;
    await expectDead(retired, seq);

    // The live keys still work, each for its own player.
    for (const [name, key] of [
      ['Dan', dan.seatKey],
      ['Eve', eve.seatKey],
      ['Fred', fred.seatKey],
    ] as const)
      expect((await ok('GET', `/api/play/${key}`)).name).toBe(name);
    const adminAfter = await (await fetch(`${srv.url}/admin/${admin}`)).text();
    for (const key of [dan.seatKey, eve.seatKey, fred.seatKey]) expect(adminAfter).not.toContain(key);
  });

  it('keys are random: two games made the same way share no key', async () => {
    const make = () =>
      ok('POST', '/api/games', { rules: 'high-card', seats: 2, name: 'Ada', email: 'ada@example.test', join: true });
    const [a, b] = [await make(), await make()];
    for (const k of ['adminKey', 'inviteKey', 'spectatorKey', 'seatKey']) {
      // The game's route (links.ts), then 144 random bits.
      expect(a[k]).toMatch(/^[A-Za-z0-9_-]{28}$/);
      expect(a[k].slice(4)).not.toBe(b[k].slice(4));
    }
  });
});

describe('games from before keys were random', () => {
  it('keep their derived links working until retired, and give newcomers random keys', async () => {
    // A running game written the old way: every key derived from the secret, nothing sealed.
    const t = await makeService();
    const c = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(c.gameId, { name: 'Bob', email: 'bob@example.test' });
    const doc = structuredClone((await t.service.open(c.gameId)).doc) as GameDoc;
    await t.cleanup();
    const id = doc.id;
    const derived = (role: 'seat' | 'admin' | 'spectator', slot = 0) => deriveKey(TEST_SECRET, id, role, slot, 0);
    delete doc.adminKeySealed;
    delete doc.spectatorKeySealed;
    delete doc.inviteKeySealed;
    doc.adminKeyHash = keyHash(derived('admin'));
    doc.spectatorKeyHash = keyHash(derived('spectator'));
    for (const s of doc.seats) {
      delete s.keySealed;
      s.keyHash = keyHash(derived('seat', s.slot));
    }
    const dir = mkdtempSync(join(tmpdir(), 'pbem-legacy-'));
    mkdirSync(join(dir, 'games'));
    writeFileSync(join(dir, 'games', `${id}.json`), JSON.stringify(doc));
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ version: 1, games: [indexEntryOfDoc(doc)] }));
    const old = await startTestServer({ dataDir: dir });
    try {
      const bobSeat = doc.seats.findIndex((s) => s.name === 'Bob');
      const bobKey = derived('seat', doc.seats[bobSeat]!.slot);
      expect((await old.api('GET', `/api/play/${bobKey}`)).body.name).toBe('Bob');
      expect((await old.api('GET', `/api/watch/${derived('spectator')}`)).status).toBe(200);
      const adminPage = await (await fetch(`${old.url}/admin/${derived('admin')}`)).text();
      expect(adminPage).toContain(`/play/${derived('seat', 0)}`);
      const reopened = await old.api('POST', `/api/admin/${derived('admin')}/reopen`, { seat: bobSeat });
      const carl = await old.api('POST', `/api/join/${reopened.body.inviteKey}`, {
        name: 'Carl',
        email: 'c@example.test',
      });
      expect(carl.status).toBe(201);
      expect(carl.body.seatKey).not.toBe(bobKey);
      expect(carl.body.seatKey).not.toBe(deriveKey(TEST_SECRET, id, 'seat', doc.seats[bobSeat]!.slot, 1));
      expect((await old.api('GET', `/api/play/${bobKey}`)).status).toBe(410);
      expect((await old.api('GET', `/api/play/${carl.body.seatKey}`)).body.name).toBe('Carl');
    } finally {
      await old.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
