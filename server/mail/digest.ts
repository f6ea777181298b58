// The daily digest book: per address, the games that waited for it while it
// chose the digest, the hour of the day (in the player's own time zone)
// the digest goes out, and whether the address takes invitations at all. One small file per address under DATA_DIR/mail/digest/,
// written durably; the digest mail re-checks each game when it is composed.
// With the PostgreSQL store the book is a table every process shares (pg-digest.ts): a game
// noted by one process is in the digest another process composes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, writeFileDurable } from '../store/durable-file.ts';
import { mailId } from './message.ts';

/** When an address gets its digest: every day at `hour`:00 in time zone `zone` (IANA name). */
/** Format of a digest file, written into it and read back (a newer one is left alone). */
const DIGEST_FORMAT = 1;

export interface DigestTime {
  hour: number;
  zone: string;
}

interface DigestFile {
  email?: string;
  /** The address asked for no invitations (the preferences link of an invitation). */
  noInvites?: boolean;
  games?: Record<string, number>;
  time?: DigestTime;
}

/** What the notifier, the composer and the preference pages need of the book (files or PostgreSQL). */
export interface DigestBookApi {
  /** The games waiting for this address (game id -> seat). */
  read(email: string): Promise<Record<string, number>>;
  time(email: string): Promise<DigestTime | undefined>;
  setTime(email: string, time: DigestTime): Promise<void>;
  takesInvitations(email: string): Promise<boolean>;
  setTakesInvitations(email: string, yes: boolean): Promise<void>;
  /** Notes that game `gameId` waits for `email` at `seat`. */
  add(email: string, gameId: string, seat: number): Promise<void>;
  /** Forgets these games for this address (a game noted meanwhile by add is kept). */
  remove(email: string, gameIds: string[]): Promise<void>;
}

export class DigestBook implements DigestBookApi {
  private readonly dir: string;
  private chains = new Map<string, Promise<unknown>>();

  constructor(mailDir: string) {
    this.dir = join(mailDir, 'digest');
  }

  private file(email: string): string {
    return join(this.dir, `${mailId(email.toLowerCase())}.json`);
  }

  private async load(email: string): Promise<DigestFile> {
    try {
      const file = JSON.parse(await readFile(this.file(email), 'utf8')) as DigestFile & { format?: number };
      // A file of a newer format (a newer server wrote it) is read as empty and never overwritten by this one.
      if (typeof file.format === 'number' && file.format > DIGEST_FORMAT) return { newer: true } as DigestFile;
      return file;
    } catch {
      return {};
    }
  }

  async read(email: string): Promise<Record<string, number>> {
    return (await this.load(email)).games ?? {};
  }

  /** The time this address chose for its digest, if it chose one. */
  async time(email: string): Promise<DigestTime | undefined> {
    const t = (await this.load(email)).time;
    return t && isDigestTime(t) ? t : undefined;
  }

  setTime(email: string, time: DigestTime): Promise<void> {
    return this.serial(email, async () => this.write(email, { ...(await this.load(email)), time }));
  }

  /** Whether this address takes invitations (true unless it said no on an invitation's preferences link). */
  async takesInvitations(email: string): Promise<boolean> {
    return (await this.load(email)).noInvites !== true;
  }

  setTakesInvitations(email: string, yes: boolean): Promise<void> {
    return this.serial(email, async () => this.write(email, { ...(await this.load(email)), noInvites: !yes }));
  }

  /** Notes that game `gameId` waits for `email` at `seat`. */
  add(email: string, gameId: string, seat: number): Promise<void> {
    return this.serial(email, async () => {
      const file = await this.load(email);
      if (file.games?.[gameId] === seat) return;
      await this.write(email, { ...file, games: { ...file.games, [gameId]: seat } });
    });
  }

  remove(email: string, gameIds: string[]): Promise<void> {
    if (gameIds.length === 0) return Promise.resolve();
    return this.serial(email, async () => {
      const file = await this.load(email);
      const games = { ...file.games };
      for (const id of gameIds) delete games[id];
      await this.write(email, { ...file, games });
    });
  }

  private async write(email: string, file: DigestFile): Promise<void> {
    if ((file as { newer?: boolean }).newer) return;
    await ensureDir(this.dir);
    await writeFileDurable(this.file(email), JSON.stringify({ format: DIGEST_FORMAT, ...file, email }));
  }

  private serial<T>(email: string, fn: () => Promise<T>): Promise<T> {
    const k = email.toLowerCase();
    const prev = this.chains.get(k) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    this.chains.set(
      k,
      next.catch(() => {}),
    );
    return next;
  }
}

/** The time zones a player may choose (the runtime's list, UTC first). */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
}

export function isDigestTime(v: unknown): v is DigestTime {
  const t = v as DigestTime;
  return (
    !!t && Number.isInteger(t.hour) && t.hour >= 0 && t.hour < 24 && typeof t.zone === 'string' && isTimeZone(t.zone)
  );
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length < 64;
  } catch {
    return false;
  }
}

/** Minutes the zone's clock is ahead of UTC at instant `t`. */
function offsetMinutes(t: number, zone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
      .formatToParts(new Date(t))
      .map((p) => [p.type, Number(p.value)]),
  );
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!);
  return Math.round((local - Math.floor(t / 60_000) * 60_000) / 60_000);
}

/** The zone's calendar date at instant `t`, as YYYY-MM-DD. */
export function localDate(t: number, zone = 'UTC'): string {
  return new Date(t + offsetMinutes(t, zone) * 60_000).toISOString().slice(0, 10);
}

/**
 * The next digest time after `now`: every day at `hour`:00 on the clocks of
 * `zone`. On a day the clocks skip that hour (spring forward) it is the
 * instant the skipped hour would have begun, which the clocks show as an hour later.
 */
export function nextDigestAt(now: number, hour = 7, zone = 'UTC'): number {
  const day = Date.parse(localDate(now, zone)); // that local date, at 00:00 UTC
  for (let d = 0; d < 3; d++) {
    const wall = day + d * 86_400_000 + hour * 3_600_000; // the local wall time, read as if UTC
    let at = wall - offsetMinutes(wall, zone) * 60_000;
    at = wall - offsetMinutes(at, zone) * 60_000; // the offset at the instant itself (across a change)
    if (at > now) return at;
  }
  return now + 86_400_000;
}
