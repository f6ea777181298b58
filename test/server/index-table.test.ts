// The embedded store's in-memory index (server/store/index-table.ts) against a plain model: a Map
// of rows and a Map of keys. Random rows are set and changed (keys renewed, seats retired, moves
// that change only the last hash) many times, with keys made to collide in the key table's slots,
// and every row and every key ever issued is checked after each round.
import { describe, expect, it } from 'vitest';
import { randomInt, seedRandom } from '../../rules/random.ts';
import { bytesSource, IndexTable } from '../../server/store/index-table.ts';
import type { IndexEntry, KeyTarget } from '../../server/store/types.ts';

describe('the in-memory index', () => {
  it('answers every row and key as a plain map would, through thousands of changes', () => {
    const rng = seedRandom('index-table');
    const pick = (n: number) => randomInt(rng, n);
    const hex = (prefix = '') => {
      let s = prefix;
      while (s.length < 64) s += pick(16).toString(16);
      return s;
    };
    // Every key shares its first 4 bytes with many others: they land in the same run of slots,
    // so lookups and removals walk long runs (the backward shift is exercised).
    const key = () => hex(pick(2) === 0 ? ['00000000', '00000001', '0000ffff'][pick(3)] : '');

    const table = new IndexTable();
    const rows = new Map<string, IndexEntry>();
    const issued = new Set<string>();
    const rowOf = (id: string, i: number): IndexEntry => {
      const seats = Array.from({ length: 1 + pick(4) }, () => (pick(6) === 0 ? '' : key()));
      const retired = pick(3) === 0 ? Array.from({ length: pick(3) }, key) : undefined;
      const e: IndexEntry = {
        id,
        rules: 'high-card',
        title: `Game ${i}`,
        status: (['open', 'active', 'finished'] as const)[pick(3)]!,
        listed: pick(2) === 0,
        seatCount: seats.length + pick(2),
        names: seats.map((_, s) => `P${s}`),
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: new Date(Date.UTC(2026, 0, 1) + pick(1000) * 60_000).toISOString(),
        lastSeq: pick(500),
        lastHash: pick(10) === 0 ? '' : hex(),
        toAct: [pick(seats.length)],
        nextReminderAt: pick(2) === 0 ? null : '2026-02-01T00:00:00.000Z',
        inviteGeneration: pick(3),
        mailHashes: Array.from({ length: pick(4) }, () => hex()),
        keys: {
          admin: key(),
          spectator: key(),
          invite: pick(2) === 0 ? null : key(),
          seats,
          ...(pick(4) === 0 ? { confirm: key() } : {}),
          ...(retired ? { retired } : {}),
        },
        sealed: { spectator: 'sealed', invite: null },
        rulesVersion: 1,
        attention: null,
        ...(pick(5) === 0 ? { vacantSeats: 1 } : {}),
      };
      for (const k of [e.keys.admin, e.keys.spectator, e.keys.invite, e.keys.confirm, ...seats, ...(retired ?? [])])
        if (k) issued.add(k);
      return e;
    };
    /** The model: every current key, then retired ones where no current key has that hash. */
    const model = (): Map<string, KeyTarget> => {
      const m = new Map<string, KeyTarget>();
      for (const e of rows.values()) {
        const k = e.keys;
        m.set(k.admin, { gameId: e.id, role: 'admin' });
        m.set(k.spectator, { gameId: e.id, role: 'spectator' });
        if (k.invite) m.set(k.invite, { gameId: e.id, role: 'invite' });
        if (k.confirm) m.set(k.confirm, { gameId: e.id, role: 'confirm' });
        k.seats.forEach((h, seat) => {
          if (h) m.set(h, { gameId: e.id, role: 'seat', seat });
        });
      }
      for (const e of rows.values())
        for (const h of e.keys.retired ?? []) if (!m.has(h)) m.set(h, { gameId: e.id, role: 'retired' });
      return m;
    };

    // About 9,000 changes of keys: enough dropped blocks for the arena to be packed again.
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < 300; i++) {
        const id = `g${pick(300)}`;
        const old = rows.get(id);
        // Half the changes to a known game are a move: only the last hash and seq change.
        const e = old && pick(2) === 0 ? { ...old, lastSeq: old.lastSeq + 1, lastHash: hex() } : rowOf(id, i);
        rows.set(id, e);
        table.set(e);
      }
      expect(table.size).toBe(rows.size);
      for (const [id, e] of rows) expect(table.get(id)).toEqual(e);
      if (round % 10 !== 9) continue;
      const want = model();
      const wrong = [...issued].filter((h) => JSON.stringify(table.findKey(h)) !== JSON.stringify(want.get(h) ?? null));
      expect(wrong).toEqual([]);
    }
    expect(table.findKey(hex())).toBeNull();
    expect(table.findKey('not a hash')).toBeNull();

    // Listing and reminders read the columns: they agree with the rows themselves.
    const newestFirst = [...rows.values()].sort((a, b) =>
      a.updatedAt !== b.updatedAt ? (a.updatedAt < b.updatedAt ? 1 : -1) : a.id < b.id ? 1 : -1,
    );
    const listed = table.list({ limit: 1000 });
    expect(listed.entries.map((e) => e.id)).toEqual(newestFirst.map((e) => e.id));
    const open = table.list({ status: 'open', listed: true, freeSeats: true, limit: 1000 });
    expect(open.entries.map((e) => e.id)).toEqual(
      newestFirst
        .filter((e) => e.status === 'open' && e.listed && (e.names.length < e.seatCount || (e.vacantSeats ?? 0) > 0))
        .map((e) => e.id),
    );
    const mailHash = [...rows.values()].find((e) => e.mailHashes!.length > 0)!.mailHashes![0]!;
    expect(table.list({ mailHash, limit: 1000 }).entries.map((e) => e.id)).toEqual(
      newestFirst.filter((e) => e.mailHashes!.includes(mailHash)).map((e) => e.id),
    );
    expect(
      table
        .due('2026-02-01T00:00:00.000Z', 1000)
        .map((e) => e.id)
        .sort(),
    ).toEqual(
      [...rows.values()]
        .filter((e) => e.status === 'active' && e.nextReminderAt !== null)
        .map((e) => e.id)
        .sort(),
    );

    // Written as shards and read back (a restart): the same rows, keys and order, parsed lazily.
    const again = new IndexTable();
    const ids = [...rows.keys()];
    for (let i = 0; i < ids.length; i += 50) again.decode(bytesSource(table.encode(ids.slice(i, i + 50))));
    expect(again.size).toBe(rows.size);
    expect(again.list({ limit: 1000 }).entries).toEqual(listed.entries);
    const want = model();
    expect([...issued].filter((h) => JSON.stringify(again.findKey(h)) !== JSON.stringify(want.get(h) ?? null))).toEqual(
      [],
    );
    // ... and changed again after the restart, a row not yet parsed among them.
    const first = ids[0]!;
    const moved = { ...rows.get(first)!, lastSeq: 9999, lastHash: hex(), updatedAt: '2027-01-01T00:00:00.000Z' };
    again.set(moved);
    expect(again.get(first)).toEqual(moved);
    expect(again.tail(first)).toEqual({ lastSeq: 9999, lastHash: moved.lastHash });
    expect(again.list({ limit: 1 }).entries[0]!.id).toBe(first);
  });

  it('keeps rows whose hashes are not plain hex exactly as given', () => {
    const table = new IndexTable();
    const e = {
      id: 'odd',
      rules: 'high-card',
      title: 'Odd',
      status: 'open',
      listed: true,
      seatCount: 2,
      names: ['A'],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      lastSeq: 1,
      lastHash: 'short',
      toAct: [],
      nextReminderAt: null,
      inviteGeneration: 0,
      mailHashes: ['m'],
      keys: { admin: 'admin-key', spectator: 'spectator-key', invite: null, seats: ['seat-key'], confirm: null },
      rulesVersion: 1,
      attention: null,
    } satisfies IndexEntry;
    table.set(e);
    expect(table.get('odd')).toEqual(e);
    expect(table.findKey('seat-key')).toEqual({ gameId: 'odd', role: 'seat', seat: 0 });
    expect(table.tail('odd')).toEqual({ lastSeq: 1, lastHash: 'short' });
  });
});
