// Durable moves on the production path, against the floor of the same machine.
//   move_commit: `npm start`'s server (the build, plain Node, mail on: every move queues its
//     turn mail, rendered and written to the outbox meanwhile) on real games mid-game: the
//     real 1830 game of 18xx.games imported halfway and extended by random moves, and games
//     of the other four played by random moves from the start. 1, 8 and 32 clients, each
//     posting the listed first move of the seat to act in its own games (distinct games, as
//     players do; each client address its own, as players' are). An answer comes only once the
//     move is durable. Reported: commits/s, p50/p99, the server's CPU ms per commit, and
//     of_floor. Goal: of_floor at least 0.25.
//   journal_floor: what an append-only store must at least do, at the same client count,
//     measured in turns with the moves (the machine may be shared): a group-committed journal
//     of 400-byte lines, one write and one fdatasync per round (test/support/bench-journal-floor.ts).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emit } from '../index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { games as registry } from '../../../rules/index.ts';
import { createLinks } from '../../../server/links.ts';
import { GameService } from '../../../server/service.ts';
import { LowdbGameStore } from '../../../server/store/lowdb-store.ts';
import { jsonClient, percentile, round } from '../../support/bench-http.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PER_KIND = 24;
const SECONDS = 4;
const ROUNDS = 2;

interface BenchGame {
  id: string;
  rules: string;
  keys: string[];
  seq: number;
  toAct: number[];
}

/** A small seeded generator (the bench's games are the same every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Real games mid-game, written by the game service in-process (no quotas, no HTTP). */
async function makeGames(dataDir: string, secret: Buffer, baseUrl: string): Promise<BenchGame[]> {
  const store = new LowdbGameStore({ dataDir });
  const service = new GameService({ store, registry, links: createLinks(secret, baseUrl) });
  await service.init();
  const random = rng(1830);
  const exported = JSON.parse(
    readFileSync(new URL('../../fixtures/18xx.games/1830/1830_game_end_bank.json', import.meta.url), 'utf8'),
  ) as Export18xx;
  const real = importExport(exported);
  const out: BenchGame[] = [];
  const randomMoves = async (gameId: string, n: number) => {
    for (let i = 0; i < n; i++) {
      const game = await service.open(gameId);
      if (game.doc.status !== 'active' || !game.state) return;
      const seat = game.rules.toAct(game.state)[0]!;
      const moves = service.movesFor(game, seat);
      await service.move(gameId, seat, {
        seq: game.stateSeq,
        action: moves[Math.floor(random() * moves.length)]!.action,
      });
    }
  };
  for (const rules of registry) {
    for (let i = 0; i < PER_KIND; i++) {
      let gameId: string;
      if (rules.id === '1830') {
        ({ gameId } = await service.importGame({
          rules: '1830',
          options: real.options,
          creator: { name: 'Ada', email: 'ada@example.test' },
          seats: real.seats.map((_, s) => ({ name: `P${s + 1}`, email: `p${s + 1}@example.test` })),
          actions: real.log.slice(0, Math.floor(real.log.length / 2)).map(({ seat, action }) => ({ seat, action })),
        }));
        await randomMoves(gameId, 10);
      } else {
        const seats = Math.min(rules.players.max, Math.max(rules.players.min, 3));
        ({ gameId } = await service.create({
          rules: rules.id,
          seats,
          name: 'P1',
          email: 'p1@example.test',
          join: true,
        }));
        for (let s = 1; s < seats; s++)
          await service.join(gameId, { name: `P${s + 1}`, email: `p${s + 1}@example.test` });
        await randomMoves(gameId, 30);
      }
      const game = await service.open(gameId);
      if (game.doc.status !== 'active' || !game.state) continue;
      out.push({
        id: gameId,
        rules: rules.id,
        keys: game.doc.seats.map((_, s) => service.links.seatKeyOf(game.doc, s)),
        seq: game.stateSeq,
        toAct: game.rules.toAct(game.state),
      });
    }
  }
  await store.close();
  return out;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
}

async function journalFloor(clients: number): Promise<{ ops_per_s: number; p50_ms: number; p99_ms: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/support/bench-journal-floor.ts')], {
    cwd: root,
    env: { ...process.env, CLIENTS: String(clients), SIZE: '400', SECONDS: String(SECONDS / ROUNDS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  await new Promise((r) => child.once('exit', r));
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** The figures this file emits (BENCH_ONLY matches figure names). */
export const figures = ['journal_floor', 'move_commit'];

export async function run(emit: Emit): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-commit-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const secret = Buffer.alloc(32, 5);
  writeFileSync(join(dataDir, 'secret.key'), `${secret.toString('hex')}\n`, { mode: 0o600 });
  const games = await makeGames(dataDir, secret, url);
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
  // BENCH_SERVER_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server side.
  const nodeArgs = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'server', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      LOG_LEVEL: 'silent',
      MAIL: 'on',
      // Each client is its own address, as players are (the rate limits count per address).
      TRUST_PROXY: 'loopback',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => server.once('exit', () => r()));
  const client = jsonClient(url, 64);
  try {
    for (;;) {
      try {
        if ((await client.call('GET', '/healthz')).status === 200) break;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const kinds = [...new Set(games.map((g) => g.rules))].join(' ');
    // Warm-up, not measured: every game opened once by the server, the templates and the
    // pictures' static layers made once.
    await Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        for (const g of games.filter((_, i) => i % 8 === c)) {
          const res = await client.call('POST', `/api/play/${g.keys[g.toAct[0]!]}/move`, { seq: g.seq, n: 0 });
          if (res.status !== 200) continue;
          g.seq = res.body.seq;
          g.toAct = res.body.toAct;
        }
      }),
    );
    for (const clients of [1, 8, 32]) {
      // Games that ended in an earlier round are not played again (their seats have no turn).
      const playing = games.filter((g) => g.toAct.length > 0);
      // Client c plays the games c, c + clients, ...: nobody else's.
      const mine = Array.from({ length: clients }, (_, c) => playing.filter((_, i) => i % clients === c));
      const latencies: number[] = [];
      const floors: { ops_per_s: number; p50_ms: number; p99_ms: number }[] = [];
      let moves = 0;
      let errors = 0;
      let seconds = 0;
      let cpuMs = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const cpu0 = cpuMsOf(server.pid!);
        const t0 = performance.now();
        const end = t0 + (SECONDS / ROUNDS) * 1000;
        await Promise.all(
          mine.map(async (own, c) => {
            let turn = 0;
            while (performance.now() < end && own.length > 0) {
              const g = own[turn++ % own.length]!;
              const seat = g.toAct[0]!;
              const t = performance.now();
              const res = await client.call(
                'POST',
                `/api/play/${g.keys[seat]}/move`,
                { seq: g.seq, n: 0 },
                { 'x-forwarded-for': `10.${c}.${turn % 250}.${(turn >> 8) % 250}` },
              );
              if (res.status !== 200) {
                errors++;
                own.splice(own.indexOf(g), 1); // drop the game
                continue;
              }
              latencies.push(performance.now() - t);
              moves++;
              g.seq = res.body.seq;
              g.toAct = res.body.toAct;
              if (res.body.status !== 'active' || g.toAct.length === 0) {
                own.splice(own.indexOf(g), 1);
                g.toAct = [];
              }
            }
          }),
        );
        seconds += (performance.now() - t0) / 1000;
        cpuMs += cpuMsOf(server.pid!) - cpu0;
        floors.push(await journalFloor(clients));
      }
      latencies.sort((a, b) => a - b);
      const floorOps = Math.round(floors.reduce((a, f) => a + f.ops_per_s, 0) / floors.length);
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      emit({
        name: 'journal_floor',
        clients,
        line_bytes: 400,
        ops_per_s: floorOps,
        p50_ms: med(floors.map((f) => f.p50_ms)),
        p99_ms: med(floors.map((f) => f.p99_ms)),
      });
      const perS = Math.round(moves / seconds);
      emit({
        name: 'move_commit',
        clients,
        games: games.length,
        kinds,
        commits_per_s: perS,
        p50_ms: round(percentile(latencies, 50), 2),
        p99_ms: round(percentile(latencies, 99), 2),
        cpu_ms_per_commit: round(cpuMs / Math.max(1, moves), 2),
        errors,
        of_floor: round(perS / Math.max(1, floorOps), 3),
        goal_of_floor: 0.25,
      });
    }
  } finally {
    client.close();
    server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
