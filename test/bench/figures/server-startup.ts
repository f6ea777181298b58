// Start-up and the game list with 10,000 game files.
//   startup_10k_games: `server/main.ts` (as `npm start` runs it) in a new
//     process on a data folder holding 10,000 games; time from spawn to the
//     first page (/) answered. Also the in-process index load alone.
//   game_list_10k: the home page and GET /api/games with those 10,000 listed.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emit } from '../index.ts';
import { createLinks, type Links } from '../../../server/links.ts';
import { GameService } from '../../../server/service.ts';
import { indexEntryOfDoc, metaOf } from '../../../server/store/index-entry.ts';
import { LowdbGameStore } from '../../../server/store/lowdb-store.ts';
import type { GameDoc } from '../../../server/store/types.ts';
import { highCard } from '../../support/high-card.ts';
import { makeService } from '../../support/service.ts';
import { jsonClient, percentile, round } from '../../support/bench-http.ts';

const GAMES = 10_000;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Writes `games` game files (copies of a real game under new ids) and their
 * index as a format-2 index.json (the store moves it into shards at its first
 * open, as it does for a data folder of an older server).
 */
export async function makeDataDir(games = GAMES): Promise<string> {
  const t = await makeService([highCard]);
  const c = await t.service.create({
    rules: 'high-card',
    seats: 3,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
  });
  await t.service.join(c.gameId, { name: 'Bob', email: 'bob@example.test' });
  const open = structuredClone((await t.service.open(c.gameId)).doc);
  await t.service.join(c.gameId, { name: 'Cy', email: 'cy@example.test' });
  const game = await t.service.open(c.gameId);
  for (let i = 0; i < 6; i++) {
    const seat = t.service.viewFor(game, null).toAct[0]!;
    await t.service.move(c.gameId, seat, { seq: game.stateSeq, action: t.service.movesFor(game, seat)[0]!.action });
  }
  const active = structuredClone(game.doc);
  await t.cleanup();

  const dir = mkdtempSync(join(tmpdir(), `bench-${games}-`));
  mkdirSync(join(dir, 'games'));
  const secret = Buffer.alloc(32, 3);
  writeFileSync(join(dir, 'secret.key'), `${secret.toString('hex')}\n`, { mode: 0o600 });
  const links = createLinks(secret, 'http://localhost');
  const entries = [];
  for (let i = 0; i < games; i++) {
    const id = `bench${String(i).padStart(6, '0')}`;
    const base = i % 10 === 0 ? open : active;
    const doc: GameDoc = {
      ...base,
      id,
      updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      ...issued(links, id, base),
    };
    writeFileSync(join(dir, 'games', `${id}.json`), JSON.stringify({ format: 2, meta: metaOf(doc) }));
    writeFileSync(join(dir, 'games', `${id}.jsonl`), doc.log.map((e) => JSON.stringify(e) + '\n').join(''));
    entries.push(indexEntryOfDoc(doc));
  }
  writeFileSync(join(dir, 'index.json'), JSON.stringify({ version: 2, games: entries }));
  return dir;
}

/** Fresh keys for a copied game document (their hashes and sealed copies). */
function issued(links: Links, id: string, base: GameDoc): Partial<GameDoc> {
  const admin = links.issue(id, 'admin');
  const spectator = links.issue(id, 'spectator');
  const invite = base.inviteKeyHash ? links.issue(id, 'invite') : null;
  return {
    adminKeyHash: admin.hash,
    adminKeySealed: admin.sealed,
    spectatorKeyHash: spectator.hash,
    spectatorKeySealed: spectator.sealed,
    inviteKeyHash: invite?.hash ?? null,
    inviteKeySealed: invite?.sealed ?? null,
    seats: base.seats.map((s) => {
      const k = links.issue(id, 'seat');
      return { ...s, keyHash: k.hash, keySealed: k.sealed };
    }),
  };
}

/** Starts the server in a new process (by default through tsx; `args`: another entry) and waits for its first page. */
export async function timeToFirstPage(
  dataDir: string,
  args: string[] = ['--import', 'tsx', join(root, 'server/main.ts')],
): Promise<{ ms: number; stop: () => Promise<void>; url: string; pid: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const start = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      BASE_URL: url,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  for (;;) {
    try {
      const res = await fetch(`${url}/`);
      if (res.status === 200) {
        await res.text();
        break;
      }
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error('server exited during start-up');
    if (performance.now() - start > 60_000) throw new Error('server did not start in 60 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - start;
  return {
    ms,
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The figures this file emits (BENCH_ONLY matches figure names). */
export const figures = ['startup_10k_games', 'game_list_10k'];

export async function run(emit: Emit): Promise<void> {
  const dbg = (m: string) => process.env.BENCH_DEBUG && process.stderr.write(`${m}\n`);
  const dataDir = await makeDataDir();
  dbg(`made ${dataDir}`);
  try {
    // The first open moves index.json into shards (not measured: a one-off).
    const first = new LowdbGameStore({ dataDir });
    await first.open();
    await first.close();
    // In-process: the index of 10,000 games, nothing else.
    const t0 = performance.now();
    const store = new LowdbGameStore({ dataDir });
    const service = new GameService({
      store,
      registry: [highCard],
      links: createLinks(Buffer.alloc(32, 3), 'http://localhost'),
    });
    await service.init();
    const indexMs = performance.now() - t0;
    const listT = performance.now();
    const listed = await service.listPublic(100);
    const listMs = performance.now() - listT;
    await store.close();

    // A warm-up start (tsx compiles once and caches), then three measured ones
    // (the median is the figure; the machine may be shared).
    const warm = await timeToFirstPage(dataDir);
    await warm.stop();
    const runs: number[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await timeToFirstPage(dataDir);
      runs.push(r.ms);
      await r.stop();
    }
    const measured = await timeToFirstPage(dataDir);
    runs.push(measured.ms);
    runs.sort((a, b) => a - b);
    emit({
      name: 'startup_10k_games',
      games: GAMES,
      ms: Math.round(runs[1]!),
      min_ms: Math.round(runs[0]!),
      index_load_ms: round(indexMs, 1),
    });

    const client = jsonClient(measured.url, 4);
    const time = async (path: string) => {
      const out: number[] = [];
      for (let i = 0; i < 40; i++) {
        const s = performance.now();
        const r = await client.call('GET', path);
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
        out.push(performance.now() - s);
      }
      return out.slice(5).sort((a, b) => a - b);
    };
    const home = await time('/');
    const api = await time('/api/games');
    client.close();
    await measured.stop();
    emit({
      name: 'game_list_10k',
      games: GAMES,
      listed_open: listed.openTotal,
      listed_running: listed.runningTotal,
      home_p50_ms: round(percentile(home, 50), 2),
      home_p99_ms: round(percentile(home, 99), 2),
      api_p50_ms: round(percentile(api, 50), 2),
      in_process_ms: round(listMs, 2),
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
