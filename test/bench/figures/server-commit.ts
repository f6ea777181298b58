// Durable move commits over HTTP against the floor of the same machine.
//   move_commit: 1000 four-player High Card games on a server in its own
//     process; 32 concurrent clients post legal moves ({ seq, n: 0 }: the first
//     move the rules list for the seat to act); each answer comes only after
//     the move is durable (group commit: its line in the store's write-ahead
//     journal is written and fdatasync'ed once for every move that lands
//     meanwhile; game files are rewritten lazily, see server/store/lowdb-store.ts).
//   fsync_floor: the same number of concurrent durable writes (temp, fsync,
//     rename, fsync the folder) of a file the size of those games, no server.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emit } from '../index.ts';
import { startChildServer } from '../../support/child.ts';
import { jsonClient, percentile, pool, round } from '../../support/bench-http.ts';

const GAMES = 1000;
const CLIENTS = 32;
const SECONDS = 6;
const ROUNDS = 3;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface BenchGame {
  keys: string[];
  seq: number;
  toAct: number[];
}

async function fsyncFloor(size: number): Promise<{ ops_per_s: number; p50_ms: number; p99_ms: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/support/bench-fsync-floor.ts')], {
    cwd: root,
    env: {
      ...process.env,
      CLIENTS: String(CLIENTS),
      SIZE: String(size),
      FILES: String(GAMES),
      SECONDS: String(SECONDS / ROUNDS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  await new Promise((r) => child.once('exit', r));
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** The figures this file emits (BENCH_ONLY matches figure names). */
export const figures = ['fsync_floor', 'move_commit'];

export async function run(emit: Emit): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-commit-'));
  // BENCH_SERVER_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server side.
  const server = await startChildServer(dataDir, {}, (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean));
  const client = jsonClient(server.url, CLIENTS * 2);
  try {
    // 1000 games, four seats each, started when the fourth joins.
    const games: BenchGame[] = [];
    await pool(
      Array.from({ length: GAMES }, (_, i) => i),
      CLIENTS,
      async () => {
        const c = await client.call('POST', '/api/games', {
          rules: 'high-card',
          seats: 4,
          name: 'P0',
          email: 'p0@example.test',
          listed: true,
        });
        const joined = [c.body.seatKey as string];
        for (let p = 1; p < 4; p++)
          joined.push(
            (await client.call('POST', `/api/join/${c.body.inviteKey}`, { name: `P${p}`, email: `p${p}@example.test` }))
              .body.seatKey,
          );
        const keys: string[] = [];
        let seq = 0;
        let toAct: number[] = [];
        for (const key of joined) {
          const st = (await client.call('GET', `/api/play/${key}`)).body;
          keys[st.you] = key;
          seq = st.game.seq;
          toAct = st.view.toAct;
        }
        games.push({ keys, seq, toAct });
      },
    );

    // The machine may be shared, so commit and floor are measured in turns
    // (three rounds each) and summed; a drift in load hits both alike.
    const gamesDir = join(dataDir, 'games');
    // A game's newest copy may be only in the store's journal (game files are rewritten lazily).
    const newest = new Map<string, number>();
    for (const f of readdirSync(gamesDir).filter((f) => f.endsWith('.json')))
      newest.set(f.slice(0, -5), statSync(join(gamesDir, f)).size);
    for (const journal of ['index.journal.old', 'index.journal']) {
      if (!existsSync(join(dataDir, journal))) continue;
      for (const line of readFileSync(join(dataDir, journal), 'utf8').split('\n')) {
        if (!line.startsWith('{"entry"')) continue;
        try {
          const rec = JSON.parse(line) as { doc: { id: string } };
          newest.set(rec.doc.id, Buffer.byteLength(JSON.stringify(rec.doc)));
        } catch {
          /* torn */
        }
      }
    }
    const sizes = [...newest.values()].slice(0, 200);
    const size = Math.round(sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length));
    const latencies: number[] = [];
    const floorRounds: { ops_per_s: number; p50_ms: number; p99_ms: number }[] = [];
    let errors = 0;
    let moves = 0;
    let measured = 0;
    const queue = [...games];
    for (let round = 0; round < ROUNDS; round++) {
      const warmEnd = performance.now() + (round === 0 ? 1000 : 300);
      const end = warmEnd + (SECONDS / ROUNDS) * 1000;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (;;) {
            const t = performance.now();
            if (t >= end) return;
            const g = queue.shift();
            if (!g) return;
            const seat = g.toAct[0]!;
            const r = await client.call('POST', `/api/play/${g.keys[seat]}/move`, { seq: g.seq, n: 0 });
            const done = performance.now();
            if (r.status !== 200) {
              if (t >= warmEnd) errors++;
              continue; // drop the game
            }
            if (t >= warmEnd && done <= end) {
              latencies.push(done - t);
              moves++;
            }
            g.seq = r.body.seq;
            g.toAct = r.body.toAct;
            if (r.body.status === 'active' && g.toAct.length > 0) queue.push(g);
          }
        }),
      );
      measured += Math.max(0, Math.min(performance.now(), warmEnd + (SECONDS / ROUNDS) * 1000) - warmEnd) / 1000;
      floorRounds.push(await fsyncFloor(size));
    }
    latencies.sort((a, b) => a - b);
    await server.stop();
    const floorOps = Math.round(floorRounds.reduce((a, f) => a + f.ops_per_s, 0) / floorRounds.length);
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    emit({
      name: 'fsync_floor',
      clients: CLIENTS,
      file_bytes: size,
      ops_per_s: floorOps,
      p50_ms: med(floorRounds.map((f) => f.p50_ms)),
      p99_ms: med(floorRounds.map((f) => f.p99_ms)),
    });
    const movesPerS = Math.round(moves / measured);
    emit({
      name: 'move_commit',
      games: GAMES,
      clients: CLIENTS,
      moves_per_s: movesPerS,
      p50_ms: round(percentile(latencies, 50), 2),
      p99_ms: round(percentile(latencies, 99), 2),
      errors,
      of_floor: round(movesPerS / Math.max(1, floorOps), 2),
    });
  } finally {
    client.close();
    await server.kill().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}
