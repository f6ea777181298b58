// A game service on a temp data folder with the small test game, for unit tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyRules } from '../../rules/types.ts';
import type { GameEvent } from '../../server/events.ts';
import { createLinks } from '../../server/links.ts';
import { GameService } from '../../server/service.ts';
import { LowdbGameStore } from '../../server/store/lowdb-store.ts';
import { highCard } from './high-card.ts';

export interface TestClock {
  now: () => Date;
  advanceHours(h: number): void;
  set(iso: string): void;
}

export function fakeClock(start = '2026-01-01T12:00:00.000Z'): TestClock {
  let t = Date.parse(start);
  return { now: () => new Date(t), advanceHours: (h) => (t += h * 3600_000), set: (iso) => (t = Date.parse(iso)) };
}

export interface TestService {
  service: GameService;
  store: LowdbGameStore;
  dataDir: string;
  events: GameEvent[];
  clock: TestClock;
  /** A second service on the same folder (as after a restart), with the same rules or others (a code change). */
  reopen(registry?: AnyRules[]): Promise<GameService>;
  cleanup(): Promise<void>;
}

export const TEST_SECRET = Buffer.alloc(32, 7);

export async function makeService(
  registry: AnyRules[] = [highCard],
  dataDir?: string,
  opts: { maxOpenGames?: number } = {},
): Promise<TestService> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'pbem-svc-'));
  const clock = fakeClock();
  const events: GameEvent[] = [];
  const links = createLinks(TEST_SECRET, 'http://example.test');
  const store = new LowdbGameStore({ dataDir: dir });
  const service = new GameService({
    store,
    registry,
    links,
    now: clock.now,
    onEvent: (e) => void events.push(e),
    maxOpenGames: opts.maxOpenGames,
  });
  await service.init();
  const others: LowdbGameStore[] = [];
  return {
    service,
    store,
    dataDir: dir,
    events,
    clock,
    async reopen(rules = registry) {
      await store.drain();
      for (const s of others) await s.drain();
      const s2 = new LowdbGameStore({ dataDir: dir });
      others.push(s2);
      const svc = new GameService({ store: s2, registry: rules, links, now: clock.now });
      await svc.init();
      return svc;
    },
    async cleanup() {
      await store.close();
      for (const s of others) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
