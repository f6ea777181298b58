// The daily digest book: per address, the games that waited for it while it
// chose the digest. One small file per address under DATA_DIR/mail/digest/,
// written durably; the digest mail re-checks each game when it is composed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDir, writeFileDurable } from '../store/durable-file';
import { mailId } from './message';

export class DigestBook {
  private readonly dir: string;
  private chains = new Map<string, Promise<unknown>>();

  constructor(mailDir: string) {
    this.dir = join(mailDir, 'digest');
  }

  private file(email: string): string {
    return join(this.dir, `${mailId(email.toLowerCase())}.json`);
  }

  async read(email: string): Promise<Record<string, number>> {
    try {
      const data = JSON.parse(await readFile(this.file(email), 'utf8')) as { games?: Record<string, number> };
      return data.games ?? {};
    } catch {
      return {};
    }
  }

  /** Notes that game `gameId` waits for `email` at `seat`. */
  add(email: string, gameId: string, seat: number): Promise<void> {
    return this.serial(email, async () => {
      const games = await this.read(email);
      if (games[gameId] === seat) return;
      games[gameId] = seat;
      await this.write(email, games);
    });
  }

  replace(email: string, games: Record<string, number>): Promise<void> {
    return this.serial(email, () => this.write(email, games));
  }

  private async write(email: string, games: Record<string, number>): Promise<void> {
    await ensureDir(this.dir);
    await writeFileDurable(this.file(email), JSON.stringify({ email, games }));
  }

  private serial<T>(email: string, fn: () => Promise<T>): Promise<T> {
    const k = email.toLowerCase();
    const prev = this.chains.get(k) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    this.chains.set(k, next.catch(() => {}));
    return next;
  }
}

/** The next digest time after `now`: every day at `hourUtc`:00 UTC. */
export function nextDigestAt(now: number, hourUtc = 7): number {
  const d = new Date(now);
  const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hourUtc);
  return t > now ? t : t + 24 * 3600_000;
}
