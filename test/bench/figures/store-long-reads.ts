// Reads of a long game, which must cost the state entries since the newest snapshot and not
// the length of the game: the real 1830 game of store-long-game.ts, its log grown with notes to
// 1,000, 20,000 and 50,000 entries, on the embedded store, warm (opened once before timing).
//   step_page_long    GET /play/<key>/step/N, the whole page (the state after N from the newest
//                     snapshot at or before it, its board drawn, the lines before it), for N
//                     spread over the log (most of a long one is notes after the last move).
//   state_at_long     service.stateAt(N) alone, for the same N (the existing step_page figure is
//                     this at 1,000 entries).
//   turn_before_long  the state the turn mail's picture of "before" is drawn from: each seat's
//                     last move in force, then stateAt there (page-parts.ts pictureThen).
// Goal of each: flat, the 50,000-entry figure as the 1,000. Wall p50/p99 and CPU p50/p90 (this
// process's, so a page's includes the client's part) are reported: on a shared machine compare
// the CPU figures, base and branch measured back to back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Emit } from '../index.ts';
import { game1830 } from '../../../rules/1830/index.ts';
import { startServer } from '../../../server/app.ts';
import { lastEffectiveMove } from '../../../server/game-log.ts';
import { jsonClient, percentile, round } from '../../support/bench-http.ts';
import { longGame } from './store-long-game.ts';

export const figures = ['step_page_long', 'state_at_long', 'turn_before_long'];

const STEPS = 120;

/** Wall and CPU time of each call (CPU: this process's, the client's part of a page included). */
class Timings {
  wall: number[] = [];
  cpu: number[] = [];
  async time(f: () => Promise<unknown>): Promise<void> {
    const c = process.cpuUsage();
    const t = performance.now();
    await f();
    this.wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    this.cpu.push((used.user + used.system) / 1000);
  }
  summary(name: string, entries: number) {
    const at = (xs: number[], p: number) =>
      round(
        percentile(
          [...xs].sort((a, b) => a - b),
          p,
        ),
        2,
      );
    return {
      name,
      entries,
      samples: this.wall.length,
      p50_ms: at(this.wall, 50),
      p99_ms: at(this.wall, 99),
      cpu_p50_ms: at(this.cpu, 50),
      cpu_p90_ms: at(this.cpu, 90),
    };
  }
}

export async function run(emit: Emit): Promise<void> {
  for (const length of [1_000, 20_000, 50_000]) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-long-reads-'));
    try {
      const { gameId, seatKeys } = await longGame(dir, length);
      const server = await startServer({
        dataDir: dir,
        registry: [game1830],
        secret: Buffer.alloc(32, 7),
        logger: pino({ level: 'silent' }),
      });
      const client = jsonClient(server.url, 4);
      try {
        const service = server.ctx.service;
        const game = await service.open(gameId);
        await service.settled();
        const last = game.doc.log.length;
        const seqs = Array.from({ length: STEPS }, (_, i) => 1 + ((i * 7919) % last));
        const key = seatKeys[0]!;
        const page = await client.call('GET', `/play/${key}/step/${last}`);
        if (page.status !== 200) throw new Error(`step page answered ${page.status}`);
        const pages = new Timings();
        for (const seq of seqs)
          await pages.time(async () => {
            const r = await client.call('GET', `/play/${key}/step/${seq}`);
            if (r.status !== 200) throw new Error(`step page ${seq} answered ${r.status}`);
          });
        emit({ ...pages.summary('step_page_long', last), goal: 'flat' });
        const states = new Timings();
        for (const seq of seqs) await states.time(() => service.stateAt(game, seq));
        emit({ ...states.summary('state_at_long', last), goal: 'flat' });
        const befores = new Timings();
        for (let r = 0; r < 20; r++)
          for (let seat = 0; seat < game.doc.seats.length; seat++)
            await befores.time(async () => {
              const own = lastEffectiveMove(game.doc.log, seat);
              if (own) await service.stateAt(game, own.seq);
            });
        emit({ ...befores.summary('turn_before_long', last), goal: 'flat' });
        await service.settled();
      } finally {
        client.close();
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
