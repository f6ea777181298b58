// The GameStore contract (server/store/types.ts), as one suite every backend runs:
//   storeContract('lowdb', async () => ({ store, reopen, cleanup }))
// `reopen` closes the store and opens a new one on the same data (a restart).
import { describe, expect, it } from 'vitest';
import { sealEntry } from '../../server/store/chain.ts';
import { keyHash } from '../../server/links.ts';
import { mailHash } from '../../server/store/index-entry.ts';
import {
  ChainError,
  GameExistsError,
  StaleSeqError,
  type GameMeta,
  type GameStore,
  type LogEntry,
} from '../../server/store/types.ts';

export interface StoreUnderTest {
  store: GameStore;
  /** Closes the store and opens another on the same data, as after a restart. */
  reopen(): Promise<GameStore>;
  cleanup(): Promise<void>;
}

let counter = 0;

/** A game's metadata as the service would write it at creation (ids unique per call). */
export function metaFor(over: Partial<GameMeta> = {}): GameMeta {
  const id = over.id ?? `game${String(++counter).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`;
  return {
    id,
    rules: 'high-card',
    title: 'High Card',
    options: {},
    createdAt: '2026-01-01T12:00:00.000Z',
    updatedAt: '2026-01-01T12:00:00.000Z',
    status: 'open',
    listed: true,
    seatCount: 2,
    seedHash: 'f'.repeat(64),
    seed: 'seed',
    creator: { name: 'Ada', email: 'ada@example.test' },
    creatorSlot: 0,
    adminKeyHash: keyHash(`admin-${id}`),
    spectatorKeyHash: keyHash(`watch-${id}`),
    inviteKeyHash: keyHash(`invite-${id}`),
    inviteGeneration: 0,
    seats: [
      {
        name: 'Ada',
        email: 'ada@example.test',
        keyHash: keyHash(`seat0-${id}`),
        slot: 0,
        generation: 0,
        joinedAt: '2026-01-01T12:00:00.000Z',
        prefs: {},
      },
    ],
    policy: { remindAfterHours: 24, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' },
    wait: null,
    outcome: null,
    rulesVersion: 1,
    ...over,
  };
}

/** `n` entries sealed onto `log` (which they join), as the service seals them. */
export function entriesAfter(log: LogEntry[], n: number, kind: LogEntry['kind'] = 'notice'): LogEntry[] {
  const out: LogEntry[] = [];
  for (let i = 0; i < n; i++) {
    const e = sealEntry(log, {
      at: '2026-01-01T12:00:00.000Z',
      kind,
      text: `entry ${log.length + 1}`,
      rulesVersion: 1,
    });
    log.push(e);
    out.push(e);
  }
  return out;
}

const active = (over: Partial<GameMeta> = {}) =>
  metaFor({
    status: 'active',
    wait: { toAct: [0], since: '2026-01-01T12:00:00.000Z', stateSeq: 1, reminders: 0, escalated: false },
    ...over,
  });

export function storeContract(name: string, make: () => Promise<StoreUnderTest>): void {
  describe(`GameStore contract: ${name}`, () => {
    it('stores a new game: metadata, log, index row and keys; refuses the same id twice', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      const row = await t.store.create(meta, entriesAfter(log, 2));
      expect(row).toMatchObject({ id: meta.id, lastSeq: 2, lastHash: log[1]!.hash, status: 'open', names: ['Ada'] });
      expect(await t.store.readMeta(meta.id)).toEqual(meta);
      expect(await t.store.readLog(meta.id)).toEqual(log);
      expect(await t.store.entry(meta.id)).toEqual(row);
      expect(await t.store.findKey(meta.adminKeyHash)).toEqual({ gameId: meta.id, role: 'admin' });
      expect(await t.store.findKey(meta.seats[0]!.keyHash)).toEqual({ gameId: meta.id, role: 'seat', seat: 0 });
      expect(await t.store.findKey(meta.inviteKeyHash!)).toEqual({ gameId: meta.id, role: 'invite' });
      await expect(t.store.create(meta, [])).rejects.toBeInstanceOf(GameExistsError);
      expect(await t.store.readMeta('no-such-game')).toBeNull();
      expect(await t.store.entry('no-such-game')).toBeNull();
      expect(await t.store.findKey(keyHash('nobody'))).toBeNull();
      await t.cleanup();
    });

    it('appends against the last seq only; a stale or broken append writes nothing', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 1));
      const row = await t.store.append(meta.id, {
        expectedSeq: 1,
        entries: entriesAfter(log, 2),
        meta: { updatedAt: '2026-01-02T00:00:00.000Z', status: 'active' },
      });
      expect(row).toMatchObject({ lastSeq: 3, status: 'active', updatedAt: '2026-01-02T00:00:00.000Z' });
      const stale = entriesAfter([...log.slice(0, 1)], 1);
      await expect(t.store.append(meta.id, { expectedSeq: 1, entries: stale })).rejects.toBeInstanceOf(StaleSeqError);
      const foreign = entriesAfter([], 4, 'reminder').slice(3); // seq 4 with a prev from another chain
      await expect(t.store.append(meta.id, { expectedSeq: 3, entries: foreign })).rejects.toBeInstanceOf(ChainError);
      const skipping = entriesAfter([...log], 2).slice(1); // seq 5 after 3
      await expect(t.store.append(meta.id, { expectedSeq: 3, entries: skipping })).rejects.toBeInstanceOf(ChainError);
      await expect(t.store.append('no-such-game', { expectedSeq: 0, entries: [] })).rejects.toBeInstanceOf(
        StaleSeqError,
      );
      expect(await t.store.readLog(meta.id)).toEqual(log);
      expect((await t.store.readMeta(meta.id))!.status).toBe('active');
      expect((await t.store.entry(meta.id))!.lastSeq).toBe(3);
      await t.cleanup();
    });

    it('of many appends made at once against the same seq, exactly one lands', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 1));
      const tries = Array.from({ length: 8 }, (_, i) => {
        const mine = [...log];
        const entries = entriesAfter(mine, 1);
        return t.store.append(meta.id, { expectedSeq: 1, entries, meta: { title: `try ${i}` } });
      });
      const results = await Promise.allSettled(tries);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StaleSeqError);
      const stored = await t.store.readLog(meta.id);
      expect(stored).toHaveLength(2);
      expect((await t.store.readMeta(meta.id))!.title).toBe(`try ${results.indexOf(won[0]!)}`);
      await t.cleanup();
    });

    it('of appends and reads of many games made at once, each lands or is refused on its own', async () => {
      const t = await make();
      const games = Array.from({ length: 24 }, () => ({ meta: metaFor(), log: [] as LogEntry[] }));
      await Promise.all(games.map((g) => t.store.create(g.meta, entriesAfter(g.log, 2))));
      await Promise.all(games.map((g) => t.store.readGame(g.meta.id, 0)));
      // All at once: 22 good appends, one on an old seq, one that breaks its chain; and reads.
      const stale = games[5]!;
      const broken = games[9]!;
      const appends = games.map((g) => {
        if (g === stale)
          return t.store.append(g.meta.id, { expectedSeq: 1, entries: entriesAfter(g.log.slice(0, 1), 1) });
        if (g === broken)
          return t.store.append(g.meta.id, { expectedSeq: 2, entries: entriesAfter([], 3, 'reminder').slice(2) });
        return t.store.append(g.meta.id, {
          expectedSeq: 2,
          entries: entriesAfter(g.log, 2),
          meta: { title: `title of ${g.meta.id}` },
        });
      });
      const reads = games.map((g, i) => t.store.readGame(g.meta.id, i % 3));
      const done = await Promise.allSettled(appends);
      done.forEach((r, i) => {
        const g = games[i]!;
        if (g === stale) expect(r.status === 'rejected' && r.reason).toBeInstanceOf(StaleSeqError);
        else if (g === broken) expect(r.status === 'rejected' && r.reason).toBeInstanceOf(ChainError);
        else expect(r.status === 'fulfilled' && r.value).toMatchObject({ id: g.meta.id, lastSeq: 4 });
      });
      // Each read is of one moment of its own game: before its append or after it, never half.
      (await Promise.all(reads)).forEach((read, i) => {
        const g = games[i]!;
        expect(read!.meta.id).toBe(g.meta.id);
        const seen = [...g.log.slice(0, i % 3), ...read!.entries];
        expect(seen).toEqual(g.log.slice(0, seen.length));
        expect(read!.row.lastSeq).toBe(seen.length);
        expect(seen.length === 4).toBe(read!.meta.title === `title of ${g.meta.id}`);
      });
      for (const g of games) {
        const kept = g === stale || g === broken ? 2 : 4;
        expect(await t.store.readLog(g.meta.id)).toEqual(g.log.slice(0, kept));
      }
      await t.cleanup();
    });

    it('replaces only the metadata fields named; an append may change metadata alone', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 1));
      await t.store.append(meta.id, { expectedSeq: 1, entries: [], meta: { attention: 'Move 7 no longer applies' } });
      const read = await t.store.readMeta(meta.id);
      expect(read).toEqual({ ...meta, attention: 'Move 7 no longer applies' });
      expect((await t.store.entry(meta.id))!).toMatchObject({ attention: 'Move 7 no longer applies', lastSeq: 1 });
      await t.cleanup();
    });

    it('reads log ranges in seq order, across appends', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 3));
      for (let i = 0; i < 4; i++)
        await t.store.append(meta.id, { expectedSeq: log.length, entries: entriesAfter(log, 2) });
      expect(await t.store.readLog(meta.id)).toEqual(log);
      expect((await t.store.readLog(meta.id, 4, 7)).map((e) => e.seq)).toEqual([4, 5, 6, 7]);
      expect((await t.store.readLog(meta.id, 10)).map((e) => e.seq)).toEqual([10, 11]);
      await t.cleanup();
    });

    it('reads a game in one call: metadata, row and the entries after a seq, with the newest snapshot when asked', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 60));
      await t.store.saveSnapshot(meta.id, {
        seq: 50,
        entryHash: log[49]!.hash,
        rulesVersion: 1,
        stateHash: 'h50',
        state: '{"at":50}',
      });
      await t.store.append(meta.id, { expectedSeq: 60, entries: entriesAfter(log, 3), meta: { title: 'Renamed' } });
      const whole = await t.store.readGame(meta.id, 0, { snapshot: true });
      expect(whole!.meta).toEqual(await t.store.readMeta(meta.id));
      expect(whole!.meta.title).toBe('Renamed');
      expect(whole!.row).toEqual(await t.store.entry(meta.id));
      expect(whole!.entries).toEqual(log);
      expect(whole!.snapshot?.seq).toBe(50);
      // Catching up from seq 60 reads the three entries after it, and no snapshot unless asked.
      const missed = await t.store.readGame(meta.id, 60);
      expect(missed!.entries).toEqual(log.slice(60));
      expect(missed!.snapshot).toBeNull();
      expect((await t.store.readGame(meta.id, 63))!.entries).toEqual([]);
      expect(await t.store.readGame('nosuchgame00', 0)).toBeNull();
      await t.cleanup();
    });

    it('keeps every acknowledged write across a restart, with its index row and keys', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 1));
      const newSeatHash = keyHash(`seat0-new-${meta.id}`);
      const seats = [{ ...meta.seats[0]!, keyHash: newSeatHash, generation: 1 }];
      await t.store.append(meta.id, { expectedSeq: 1, entries: entriesAfter(log, 1), meta: { seats } });
      const again = await t.reopen();
      expect(await again.readLog(meta.id)).toEqual(log);
      expect((await again.readMeta(meta.id))!.seats).toEqual(seats);
      expect(await again.findKey(newSeatHash)).toEqual({ gameId: meta.id, role: 'seat', seat: 0 });
      expect(await again.findKey(meta.seats[0]!.keyHash)).toBeNull(); // a retired key stays dead
      await again.append(meta.id, { expectedSeq: 2, entries: entriesAfter(log, 1) });
      expect((await again.entry(meta.id))!.lastSeq).toBe(3);
      await t.cleanup();
    });

    it("finds a removed player's key as retired (it opens nothing), and lists a running game with a reopened seat", async () => {
      const t = await make();
      const meta = metaFor({ status: 'active', seatCount: 1 });
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 1));
      const old = meta.seats[0]!;
      const vacant = { ...old, name: '(open seat 1)', email: '', keyHash: '', generation: 1, vacant: true };
      const retiredSeats = [
        { keyHash: old.keyHash, name: 'Ada', email: old.email, slot: 0, generation: 0, at: meta.createdAt, by: 'Ada' },
      ];
      await t.store.append(meta.id, {
        expectedSeq: 1,
        entries: entriesAfter(log, 1),
        meta: { seats: [vacant], retiredSeats },
      });
      const check = async (s: GameStore) => {
        expect(await s.findKey(old.keyHash)).toEqual({ gameId: meta.id, role: 'retired' });
        expect((await s.entry(meta.id))!.vacantSeats).toBe(1);
        const free = await s.listGames({ status: 'active', freeSeats: true, limit: 100 });
        expect(free.entries.map((e) => e.id)).toContain(meta.id);
      };
      await check(t.store);
      await check(await t.reopen());
      await t.cleanup();
    });

    it("lists an address's games by the hash of the address (players and the organiser)", async () => {
      const t = await make();
      const meta = metaFor({ creator: { name: 'Org', email: 'Org@Example.test' } });
      await t.store.create(meta, entriesAfter([], 1));
      for (const [email, found] of [
        ['ada@example.test', true],
        ['org@example.test', true],
        ['bob@example.test', false],
      ] as const) {
        const { entries } = await t.store.listGames({ mailHash: mailHash(email), limit: 100 });
        expect(entries.some((e) => e.id === meta.id)).toBe(found);
      }
      await t.cleanup();
    });

    it('keeps snapshots as a cache: the newest at or before a seq, none for a game without', async () => {
      const t = await make();
      const meta = metaFor();
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 120));
      expect(await t.store.readSnapshot(meta.id, 120)).toBeNull();
      for (const seq of [50, 100]) {
        await t.store.saveSnapshot(meta.id, {
          seq,
          entryHash: log[seq - 1]!.hash,
          rulesVersion: 1,
          stateHash: `h${seq}`,
          state: `{"at":${seq}}`,
        });
      }
      expect((await t.store.readSnapshot(meta.id, 49))?.seq).toBeUndefined();
      expect(await t.store.readSnapshot(meta.id, 99)).toEqual({
        seq: 50,
        entryHash: log[49]!.hash,
        rulesVersion: 1,
        stateHash: 'h50',
        state: '{"at":50}',
      });
      expect((await t.store.readSnapshot(meta.id, 120))?.seq).toBe(100);
      await t.cleanup();
    });

    it('lists games newest first by status, listing and free seats, with totals and a limit', async () => {
      const t = await make();
      const at = (h: number) => `2026-02-01T${String(h).padStart(2, '0')}:00:00.000Z`;
      const made: GameMeta[] = [
        metaFor({ updatedAt: at(1) }),
        metaFor({ updatedAt: at(3) }),
        metaFor({ updatedAt: at(2), listed: false }),
        metaFor({ updatedAt: at(4), seatCount: 1 }), // full
        active({ updatedAt: at(5) }),
        active({ updatedAt: at(6) }),
      ];
      for (const m of made) await t.store.create(m, entriesAfter([], 1));
      const open = await t.store.listGames({ status: 'open', listed: true, freeSeats: true, limit: 1 });
      expect(open.total).toBe(2);
      expect(open.entries.map((e) => e.id)).toEqual([made[1]!.id]);
      const running = await t.store.listGames({ status: 'active', listed: true });
      expect(running.entries.map((e) => e.id)).toEqual([made[5]!.id, made[4]!.id]);
      const recent = await t.store.listGames({ updatedSince: at(4), limit: 10 });
      expect(recent.entries.map((e) => e.id)).toEqual([made[5]!.id, made[4]!.id, made[3]!.id]);
      await t.cleanup();
    });

    it('finds due reminders: active games at or past their time, soonest first, none needing attention', async () => {
      const t = await make();
      const wait = (since: string) => ({ toAct: [0], since, stateSeq: 1, reminders: 0, escalated: false });
      const early = active({ wait: wait('2026-03-01T00:00:00.000Z') });
      const later = active({ wait: wait('2026-03-01T06:00:00.000Z') });
      const notYet = active({ wait: wait('2026-03-02T00:00:00.000Z') });
      const broken = active({ wait: wait('2026-03-01T00:00:00.000Z'), attention: 'does not replay' });
      const over = active({ wait: wait('2026-03-01T00:00:00.000Z'), status: 'finished' });
      for (const m of [later, notYet, early, broken, over]) await t.store.create(m, entriesAfter([], 1));
      const due = await t.store.dueReminders('2026-03-02T12:00:00.000Z');
      expect(due.map((e) => e.id)).toEqual([early.id, later.id]);
      expect(due[0]!.nextReminderAt).toBe('2026-03-02T00:00:00.000Z');
      expect((await t.store.dueReminders('2026-03-02T12:00:00.000Z', 1)).map((e) => e.id)).toEqual([early.id]);
      await t.cleanup();
    });

    it("a due game's row carries its reminder schedule (wait, policy, seats), and drops it when nothing is due", async () => {
      const t = await make();
      const seat2 = { ...metaFor().seats[0]!, name: 'Bob', email: 'bob@example.test', slot: 1, generation: 2 };
      const meta = active({ seats: [metaFor().seats[0]!, { ...seat2, keyHash: keyHash(`bob-${Math.random()}`) }] });
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 1));
      const [row] = await t.store.dueReminders('2026-03-01T00:00:00.000Z');
      expect(row!.id).toBe(meta.id);
      expect(row!.remind).toEqual({
        wait: meta.wait,
        policy: meta.policy,
        seats: [
          { slot: 0, generation: 0 },
          { slot: 1, generation: 2 },
        ],
      });
      // A reminder counted (as the reminder job writes it, from the row alone).
      const wait = { ...row!.remind!.wait, reminders: 1 };
      const after = await t.store.append(meta.id, {
        expectedSeq: row!.lastSeq,
        entries: entriesAfter(log, 1, 'reminder'),
        meta: { wait, updatedAt: '2026-01-02T12:00:00.000Z' },
      });
      expect(after.remind?.wait).toEqual(wait);
      expect(after.nextReminderAt).toBe('2026-01-03T12:00:00.000Z');
      expect((await t.store.readMeta(meta.id))!.wait).toEqual(wait);
      // The wait over: no reminder time, no schedule in the row (also after a restart).
      await t.store.append(meta.id, { expectedSeq: 2, entries: entriesAfter(log, 1), meta: { wait: null } });
      const store = await t.reopen();
      const done = await store.entry(meta.id);
      expect(done!.nextReminderAt).toBeNull();
      expect(done).not.toHaveProperty('remind');
      await t.cleanup();
    });

    it('an append removes the metadata fields it gives as undefined, and the row follows', async () => {
      const t = await make();
      const meta = metaFor({ privateRev: 3 });
      const log: LogEntry[] = [];
      await t.store.create(meta, entriesAfter(log, 1));
      expect((await t.store.entry(meta.id))!.privateRev).toBe(3);
      // Twice: a store that remembers the game writes the second append another way than the first.
      for (const privateRev of [undefined, 4, undefined]) {
        const row = await t.store.append(meta.id, {
          expectedSeq: log.length,
          entries: entriesAfter(log, 1),
          meta: { privateRev },
        });
        expect(row.privateRev).toBe(privateRev);
      }
      // (toEqual treats a field that is there as undefined as absent: as JSON has it.)
      expect(await t.store.readMeta(meta.id)).toEqual({ ...meta, privateRev: undefined });
      expect((await t.store.entry(meta.id))!.privateRev).toBeUndefined();
      const store = await t.reopen();
      expect(await store.readMeta(meta.id)).toEqual({ ...meta, privateRev: undefined });
      expect((await store.entry(meta.id))!.privateRev).toBeUndefined();
      await t.cleanup();
    });
  });
}
