// When the daily digest goes out (server/mail/digest.ts): at the hour the
// player chose on their own clock, across daylight-saving changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DigestBook, isDigestTime, localDate, nextDigestAt, type DigestBookApi } from '../../server/mail/digest.ts';
import { PgDigestBook } from '../../server/mail/pg-digest.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

describe('digest time', () => {
  it('is the next time the chosen hour comes round in the chosen zone', () => {
    // New York is UTC-5 in winter, UTC-4 in summer
    expect(iso(nextDigestAt(at('2026-01-15T10:00:00Z'), 7, 'America/New_York'))).toBe('2026-01-15T12:00:00.000Z');
    expect(iso(nextDigestAt(at('2026-07-15T10:00:00Z'), 7, 'America/New_York'))).toBe('2026-07-15T11:00:00.000Z');
    expect(iso(nextDigestAt(at('2026-07-15T11:00:00Z'), 7, 'America/New_York'))).toBe('2026-07-16T11:00:00.000Z'); // just gone: tomorrow
    // east of UTC, where the local date is already tomorrow
    expect(iso(nextDigestAt(at('2026-01-15T22:00:00Z'), 8, 'Asia/Tokyo'))).toBe('2026-01-15T23:00:00.000Z');
    expect(iso(nextDigestAt(at('2026-01-15T23:30:00Z'), 8, 'Asia/Tokyo'))).toBe('2026-01-16T23:00:00.000Z');
    // the server's default: UTC
    expect(iso(nextDigestAt(at('2026-01-15T06:59:00Z'), 7))).toBe('2026-01-15T07:00:00.000Z');
    expect(iso(nextDigestAt(at('2026-01-15T07:00:00Z'), 7))).toBe('2026-01-16T07:00:00.000Z');
  });

  it('keeps the local hour across daylight-saving changes', () => {
    // Berlin: clocks go forward at 01:00 UTC on 2026-03-29 and back at 01:00 UTC on 2026-10-25
    expect(iso(nextDigestAt(at('2026-03-28T12:00:00Z'), 7, 'Europe/Berlin'))).toBe('2026-03-29T05:00:00.000Z'); // 07:00 CEST
    expect(iso(nextDigestAt(at('2026-03-27T12:00:00Z'), 7, 'Europe/Berlin'))).toBe('2026-03-28T06:00:00.000Z'); // 07:00 CET
    expect(iso(nextDigestAt(at('2026-10-24T12:00:00Z'), 7, 'Europe/Berlin'))).toBe('2026-10-25T06:00:00.000Z'); // 07:00 CET again
    // an hour the clocks skip: when it would have begun
    expect(iso(nextDigestAt(at('2026-03-28T12:00:00Z'), 2, 'Europe/Berlin'))).toBe('2026-03-29T01:00:00.000Z');
  });

  it('names the local date, and accepts only real hours and zones', () => {
    expect(localDate(at('2026-01-15T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-01-16');
    expect(localDate(at('2026-01-15T03:30:00Z'), 'America/New_York')).toBe('2026-01-14');
    expect(isDigestTime({ hour: 7, zone: 'Europe/Berlin' })).toBe(true);
    for (const bad of [
      { hour: 24, zone: 'UTC' },
      { hour: 6.5, zone: 'UTC' },
      { hour: 7, zone: 'Mars/Olympus_Mons' },
      { hour: 7 },
      null,
    ])
      expect(isDigestTime(bad)).toBe(false);
  });
});

/** The book's contract, for the file book and the PostgreSQL one: `open` gives a book on the same data (another process, or after a restart). */
function bookContract(
  name: string,
  setup: () => Promise<{ open: () => Promise<DigestBookApi>; cleanup: () => Promise<void> }>,
) {
  describe(`digest book: ${name}`, () => {
    it('is kept per address (whatever its case) beside its waiting games', async () => {
      const t = await setup();
      try {
        const book = await t.open();
        await book.add('Ada@Example.test', 'g1', 0);
        await book.setTime('ada@example.test', { hour: 6, zone: 'Europe/Lisbon' });
        await book.add('ada@example.test', 'g2', 1);
        await book.setTakesInvitations('ADA@example.test', false);
        const again = await t.open(); // as after a restart, or in another process
        expect(await again.time('ADA@example.test')).toEqual({ hour: 6, zone: 'Europe/Lisbon' });
        expect(await again.read('ada@example.test')).toEqual({ g1: 0, g2: 1 });
        expect(await again.takesInvitations('ada@example.test')).toBe(false);
        expect(await again.time('bob@example.test')).toBeUndefined();
        expect(await again.read('bob@example.test')).toEqual({});
        expect(await again.takesInvitations('bob@example.test')).toBe(true);
      } finally {
        await t.cleanup();
      }
    });

    it('forgets only the games named: one noted meanwhile stays for the next digest', async () => {
      const t = await setup();
      try {
        const a = await t.open();
        const b = await t.open();
        await a.add('ada@example.test', 'g1', 0);
        await a.add('ada@example.test', 'g2', 1);
        const read = await a.read('ada@example.test'); // the digest reads what waits...
        await b.add('ada@example.test', 'g3', 2); // ...another process notes a game...
        await a.remove(
          'ada@example.test',
          Object.keys(read).filter((id) => id === 'g1'),
        ); // ...g1 no longer waits
        expect(await b.read('ada@example.test')).toEqual({ g2: 1, g3: 2 });
        // Changing the time keeps the games and the invitations switch, and the other way round.
        await b.setTakesInvitations('ada@example.test', false);
        await a.setTime('ada@example.test', { hour: 20, zone: 'UTC' });
        expect(await b.read('ada@example.test')).toEqual({ g2: 1, g3: 2 });
        expect(await b.takesInvitations('ada@example.test')).toBe(false);
        expect(await b.time('ada@example.test')).toEqual({ hour: 20, zone: 'UTC' });
      } finally {
        await t.cleanup();
      }
    });
  });
}

bookContract('files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'digest-'));
  return {
    open: async () => new DigestBook(dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describePg('digest book on PostgreSQL', () => {
  bookContract('postgresql', async () => {
    const schema = newSchema();
    const stores: PgGameStore[] = [];
    return {
      open: async () => {
        const store = new PgGameStore({ url: pgUrl(), schema });
        await store.open();
        stores.push(store);
        return new PgDigestBook(store.pool);
      },
      cleanup: async () => {
        await Promise.all(stores.map((s) => s.close()));
        await dropSchema(schema);
      },
    };
  });
});
