// pg_move_commit: durable move commits over HTTP with the PostgreSQL store,
// at 1, 8 and 32 concurrent clients, with 1 and 2 server processes on one
// database. With 2, requests are spread two ways: `round-robin` (every request
// goes to the next process in turn, as a balancer without affinity does; a
// process whose copy of a game is stale reads the moves it missed and replays
// them) and `by-game` (each game's requests to the process its key's route
// hashes to, as README's balancer settings do: copies stay current). 500 four-player High Card games in a schema of their
// own; each client posts the first legal move of a game ({ seq, n: 0 }) and
// the answer comes once the move's transaction committed (synchronous_commit).
// pg_insert_floor: in the same run, on the same server, the same number of
// concurrent connections each doing single-row INSERTs (autocommit,
// synchronous commit): the floor a move commit cannot beat. Goal: at least
// half the floor's throughput, p99 at most 3x the floor's.
// The servers run as in production: tsc's build under plain node (buildPgChild), not tsx.
// Without DATABASE_URL or TEST_DATABASE_URL the figures are skipped with one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { routeOfKey } from '../../../server/links.ts';
import type { Emit } from '../index.ts';
import { jsonClient, percentile, pool, round, type JsonClient } from '../../support/bench-http.ts';
import { buildPgChild, startPgChild, type PgChild } from '../../support/pg-child.ts';

// A four-seat High Card game ends after about 30 moves; the nine runs play some 20,000 moves in
// all, and a run that finds no game left to move stops its clients early (its rate would read
// low): enough games for every run, and `ran_out` says if one still did.
const GAMES = 1500;
const SECONDS = 3;
const CLIENTS = [1, 8, 32];

export const figures = ['pg_move_commit', 'pg_insert_floor'];

interface BenchGame {
  keys: string[];
  seq: number;
  toAct: number[];
}

async function floor(url: string, schema: string, clients: number) {
  const conns = await Promise.all(
    Array.from({ length: clients }, async () => {
      const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
      await c.connect();
      return c;
    }),
  );
  const latencies: number[] = [];
  const warmEnd = performance.now() + 300;
  const end = warmEnd + SECONDS * 1000;
  let ops = 0;
  await Promise.all(
    conns.map(async (c, i) => {
      for (let n = 0; ; n++) {
        const t = performance.now();
        if (t >= end) return;
        await c.query('INSERT INTO bench_floor (client, n, body) VALUES ($1, $2, $3)', [i, n, 'x'.repeat(300)]);
        const done = performance.now();
        if (t >= warmEnd && done <= end) {
          latencies.push(done - t);
          ops++;
        }
      }
    }),
  );
  await Promise.all(conns.map((c) => c.end()));
  latencies.sort((a, b) => a - b);
  return {
    ops_per_s: Math.round(ops / SECONDS),
    p50_ms: round(percentile(latencies, 50), 2),
    p99_ms: round(percentile(latencies, 99), 2),
  };
}

export async function run(emit: Emit): Promise<void> {
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!url) {
    emit({ name: 'pg_move_commit', skipped: 'no DATABASE_URL or TEST_DATABASE_URL' });
    return;
  }
  const schema = `bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const dirs: string[] = [];
  const procs: PgChild[] = [];
  const clients: JsonClient[] = [];
  try {
    const start = () => {
      const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
      dirs.push(dir);
      return startPgChild({ TEST_DATABASE_URL: url, PG_SCHEMA: schema, DATA_DIR: dir, MAIL: 'off' }, [], {
        built: true,
      });
    };
    await buildPgChild();
    procs.push(await start());
    procs.push(await start());
    await admin.query(`CREATE TABLE "${schema}".bench_floor (client int, n int, body text)`);
    for (const p of procs) clients.push(jsonClient(p.url, 64));
    const setup = clients[0]!;
    const games: BenchGame[] = [];
    await pool(
      Array.from({ length: GAMES }, (_, i) => i),
      16,
      async () => {
        const c = await setup.call('POST', '/api/games', {
          rules: 'high-card',
          seats: 4,
          name: 'P0',
          email: 'p0@example.test',
        });
        const joined = [c.body.seatKey as string];
        for (let p = 1; p < 4; p++)
          joined.push(
            (await setup.call('POST', `/api/join/${c.body.inviteKey}`, { name: `P${p}`, email: `p${p}@example.test` }))
              .body.seatKey,
          );
        const keys: string[] = [];
        let seq = 0;
        let toAct: number[] = [];
        for (const key of joined) {
          const st = (await setup.call('GET', `/api/play/${key}`)).body;
          keys[st.you] = key;
          seq = st.game.seq;
          toAct = st.view.toAct;
        }
        games.push({ keys, seq, toAct });
      },
    );
    const queue = [...games];
    // The process a balancer hashing on the route sends a game to.
    const byRoute = (key: string, processes: number) =>
      createHash('sha256')
        .update(routeOfKey(key) ?? key)
        .digest()[0]! % processes;
    const runs = [
      { processes: 1, routing: 'one' },
      { processes: 2, routing: 'round-robin' },
      { processes: 2, routing: 'by-game' },
    ] as const;
    for (const { processes, routing } of runs) {
      if (routing === 'by-game') {
        // Untimed: each game's first click through the balancer, so that each process holds the
        // games routed to it, as it would after their first click. (Without this the 1- and
        // 8-client runs, which reach each game once or twice, would time only first clicks:
        // every game was last moved by the round-robin runs.)
        const all = [...queue];
        queue.length = 0;
        await pool(all, 32, async (g) => {
          const key = g.keys[g.toAct[0]!]!;
          const r = await clients[byRoute(key, processes)]!.call('POST', `/api/play/${key}/move`, { seq: g.seq, n: 0 });
          if (r.status === 200) {
            g.seq = r.body.seq;
            g.toAct = r.body.toAct;
            if (r.body.status !== 'active' || g.toAct.length === 0) return;
          }
          queue.push(g);
        });
      }
      for (const n of CLIENTS) {
        const latencies: number[] = [];
        let moves = 0;
        let errors = 0;
        let turn = 0;
        let ranOut = false;
        const warmEnd = performance.now() + 300;
        const end = warmEnd + SECONDS * 1000;
        await Promise.all(
          Array.from({ length: n }, async () => {
            for (;;) {
              const t = performance.now();
              if (t >= end) return;
              const g = queue.shift();
              if (!g) {
                if (performance.now() < end) ranOut = true;
                return;
              }
              const key = g.keys[g.toAct[0]!]!;
              const client = clients[routing === 'by-game' ? byRoute(key, processes) : turn++ % processes]!;
              const r = await client.call('POST', `/api/play/${key}/move`, { seq: g.seq, n: 0 });
              const done = performance.now();
              if (r.status !== 200) {
                if (t >= warmEnd) errors++;
                continue;
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
        latencies.sort((a, b) => a - b);
        const f = await floor(url, schema, n);
        if (processes === 1) emit({ name: 'pg_insert_floor', clients: n, ...f });
        const movesPerS = Math.round(moves / SECONDS);
        const p99 = round(percentile(latencies, 99), 2);
        emit({
          name: 'pg_move_commit',
          processes,
          ...(processes > 1 ? { routing } : {}),
          clients: n,
          moves_per_s: movesPerS,
          p50_ms: round(percentile(latencies, 50), 2),
          p99_ms: p99,
          errors,
          floor_per_s: f.ops_per_s,
          floor_p99_ms: f.p99_ms,
          of_floor: round(movesPerS / Math.max(1, f.ops_per_s), 2),
          p99_of_floor: round(p99 / Math.max(0.01, f.p99_ms), 2),
          games_left: queue.length,
          ...(ranOut ? { ran_out: true } : {}),
        });
      }
    }
  } finally {
    for (const c of clients) c.close();
    for (const p of procs) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await admin.end();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
