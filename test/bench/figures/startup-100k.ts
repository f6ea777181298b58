// A server with 100,000 games (issue 14: "the index must not be one document").
//   startup_100k_games  `npm start`'s server (the build, plain Node) on a data folder of
//                       100,000 games: time from spawn to the first page, and the process's
//                       resident memory then (rss_mb) and at its peak (peak_rss_mb, VmHWM).
//                       Goal: under 2 s and 250 MB.
//   index_stall_100k    the embedded store on the same folder while moves land from 8 clients
//                       and compactions run (a compaction every 4,000 journal lines): the
//                       longest event-loop stall (monitorEventLoopDelay) and the moves' p50/p99.
//                       Goal: no stall over 50 ms.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Emit } from '../index.ts';
import { sealEntry } from '../../../server/store/chain.ts';
import { LowdbGameStore } from '../../../server/store/lowdb-store.ts';
import type { LogEntry } from '../../../server/store/types.ts';
import { percentile, round } from '../../support/bench-http.ts';
import { makeDataDir, timeToFirstPage } from './server-startup.ts';

const GAMES = 100_000;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: round(kb('VmRSS') / 1024, 1), peak: round(kb('VmHWM') / 1024, 1) };
}

export const figures = ['startup_100k_games', 'index_stall_100k'];

export async function run(emit: Emit): Promise<void> {
  const made = performance.now();
  const dataDir = await makeDataDir(GAMES);
  const makeMs = performance.now() - made;
  try {
    // The first open moves the format-2 index.json into shards: once per data folder.
    const m0 = performance.now();
    const first = new LowdbGameStore({ dataDir });
    await first.open();
    await first.close();
    const migrateMs = performance.now() - m0;

    // As `npm start` runs it: the build, with plain Node. A warm-up start, then three.
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
    const entry = [join(root, 'dist', 'server', 'main.js')];
    const warm = await timeToFirstPage(dataDir, entry);
    await warm.stop();
    const runs: { ms: number; rss: number; peak: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await timeToFirstPage(dataDir, entry);
      runs.push({ ms: r.ms, ...memoryOf(r.pid) });
      await r.stop();
    }
    runs.sort((a, b) => a.ms - b.ms);
    const mid = runs[1]!;
    emit({
      name: 'startup_100k_games',
      games: GAMES,
      ms: Math.round(mid.ms),
      min_ms: Math.round(runs[0]!.ms),
      rss_mb: mid.rss,
      peak_rss_mb: Math.max(...runs.map((r) => r.peak)),
      goal_ms: 2000,
      goal_rss_mb: 250,
      migrate_from_index_json_ms: Math.round(migrateMs),
      make_folder_ms: Math.round(makeMs),
    });

    // Moves landing while compactions rewrite game files and index shards.
    const store = new LowdbGameStore({ dataDir, compactAfter: 4_000 });
    await store.open();
    const CLIENTS = 8;
    const PER_CLIENT = 1_500;
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const times: number[] = [];
    delay.enable();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; i < PER_CLIENT; i++) {
          // Each client writes to its own run of games (distinct games, as players do).
          const id = `bench${String((c * PER_CLIENT + i) % GAMES).padStart(6, '0')}`;
          const row = (await store.entry(id))!;
          const last = { seq: row.lastSeq, hash: row.lastHash } as LogEntry;
          const e = sealEntry([last], { at: new Date().toISOString(), kind: 'notice', text: 'A move of the bench' });
          const t = performance.now();
          await store.append(id, { expectedSeq: row.lastSeq, entries: [e] });
          times.push(performance.now() - t);
        }
      }),
    );
    const wall = performance.now() - started;
    await store.drain(); // the last compaction ends
    delay.disable();
    const compactions = Math.floor((CLIENTS * PER_CLIENT) / 4_000);
    await store.close();
    times.sort((a, b) => a - b);
    emit({
      name: 'index_stall_100k',
      games: GAMES,
      moves: times.length,
      compactions,
      moves_per_s: Math.round(times.length / (wall / 1000)),
      move_p50_ms: round(percentile(times, 50), 2),
      move_p99_ms: round(percentile(times, 99), 2),
      max_stall_ms: round(delay.max / 1e6, 1),
      stall_p99_ms: round(delay.percentile(99) / 1e6, 1),
      goal_max_stall_ms: 50,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
