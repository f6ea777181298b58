// mail_throughput: does mail keep up with moves? One server process on the embedded store (the
// default most hosts run), then server processes (1, then 2) on one PostgreSQL database; mail on,
// sending over SMTP to a sink on loopback; real games of the five
// kinds (1830: the real 18xx.games game imported halfway; the others after 20 random moves),
// each move queueing a turn mail (picture included) that any process may claim and send.
// 8 clients post moves for SECONDS, spread over the processes as a load balancer would.
// Reported: moves/s, turn mails sent per second during that time, mails the moves made
// (counted once the queue has drained), backlog_per_s (how fast the queue grew while moves came
// in; goal: 0, the queue does not grow), drain_s (how long after the last move the last mail
// left) and duplicates (a Message-ID seen twice at the sink; must be 0).
// The queue itself is also sampled every 250 ms while moves come in (PostgreSQL: in the database,
// mail jobs waiting plus games whose moves are not yet queued as mail, behind the mail cursor;
// embedded: the mails the process says wait, on /readyz, its moves' mail being queued with them). Its
// growth per second (a least-squares slope over the samples; goal 0) and its largest size say
// whether mail keeps up. A turn mail composed after the same player moved again is skipped (the
// newer position gets its own): jobs_handled_per_s counts sent and skipped jobs alike, since
// both leave the queue (embedded: as its /readyz counts them).
// MAIL_COMPOSE_THREADS is passed on to the servers (unset: their default); MAIL_BENCH_STORE
// (embedded or postgres) runs only that store's figures; MAIL_BENCH_CLIENTS sets the clients (8).
// Without DATABASE_URL or TEST_DATABASE_URL the PostgreSQL figures are skipped with one line.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import type { Emit } from '../index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { games as registry } from '../../../rules/index.ts';
import { createLinks } from '../../../server/links.ts';
import { GameService } from '../../../server/service.ts';
import { loadOrCreateSecret } from '../../../server/secret.ts';
import { LowdbGameStore } from '../../../server/store/lowdb-store.ts';
import { PgGameStore } from '../../../server/store/pg-store.ts';
import type { GameStore } from '../../../server/store/types.ts';
import { jsonClient, round, type JsonClient } from '../../support/bench-http.ts';
import { startChildServer } from '../../support/child.ts';
import { startPgChild, type PgChild } from '../../support/pg-child.ts';
import { seedRandom, randomInt } from '../../../rules/random.ts';

/**
 * How long moves come in (MAIL_BENCH_SECONDS). 30 s: in the first seconds every game's first
 * turn mails are composed at once and the queue rises whatever the rate; 8 s windows showed only
 * that rise (growth 3-6/s), 30 s ones where the queue levels off.
 */
const SECONDS = Number(process.env.MAIL_BENCH_SECONDS ?? 30);
/** Clients posting moves at once (MAIL_BENCH_CLIENTS: the issue asks about 8 and 32). */
const CLIENTS = Number(process.env.MAIL_BENCH_CLIENTS ?? 8);
/** Games of each kind: at least two games a client, so that no client waits for a game in flight. */
const PER_KIND = Math.max(6, Math.ceil((2 * CLIENTS) / 5));

export const figures = ['mail_throughput'];

interface BenchGame {
  keys: string[];
  seq: number;
  toAct: number[];
}

/** An SMTP sink that only counts: Message-IDs and arrival times. */
async function startSink() {
  const ids: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10_000_000,
    onData(stream, _session, done) {
      let head = '';
      stream.on('data', (d: Buffer) => {
        if (head.length < 8192) head += d.toString('latin1');
      });
      stream.on('end', () => {
        ids.push(/^message-id:\s*(\S+)/im.exec(head)?.[1] ?? `none-${ids.length}`);
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, ids, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Waits until no mail arrived for `quietMs` (at most `maxMs`); the time of the last arrival. */
async function quiet(ids: string[], quietMs: number, maxMs: number): Promise<number> {
  const start = performance.now();
  let seen = ids.length;
  let last = performance.now();
  while (performance.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 100));
    if (ids.length !== seen) {
      seen = ids.length;
      last = performance.now();
    } else if (performance.now() - last >= quietMs) break;
  }
  return last;
}

async function makeGames(store: GameStore, secret: Buffer): Promise<BenchGame[]> {
  await store.open();
  const service = new GameService({ store, registry, links: createLinks(secret, 'http://127.0.0.1') });
  await service.init();
  const pick = seedRandom('bench-mail-throughput');
  const real = importExport(
    JSON.parse(
      readFileSync(new URL('../../fixtures/18xx.games/1830/1830_game_end_bank.json', import.meta.url), 'utf8'),
    ) as Export18xx,
  );
  const out: BenchGame[] = [];
  for (const rules of registry) {
    for (let i = 0; i < PER_KIND; i++) {
      let gameId: string;
      const seats = Math.min(rules.players.max, Math.max(rules.players.min, 3));
      if (rules.id === '1830') {
        ({ gameId } = await service.importGame({
          rules: '1830',
          options: real.options,
          creator: { name: 'Ada', email: 'ada@example.test' },
          seats: real.seats.map((_, s) => ({ name: `P${s + 1}`, email: `p${s + 1}.${i}@example.test` })),
          actions: real.log.slice(0, Math.floor(real.log.length / 2)).map(({ seat, action }) => ({ seat, action })),
        }));
      } else {
        ({ gameId } = await service.create({
          rules: rules.id,
          seats,
          name: 'P1',
          email: `p1.${i}@example.test`,
          join: true,
        }));
        for (let s = 1; s < seats; s++)
          await service.join(gameId, { name: `P${s + 1}`, email: `p${s + 1}.${i}@example.test` });
        for (let n = 0; n < 20; n++) {
          const g = await service.open(gameId);
          if (g.doc.status !== 'active' || !g.state) break;
          const seat = g.rules.toAct(g.state)[0]!;
          const moves = service.movesFor(g, seat);
          await service.move(gameId, seat, { seq: g.stateSeq, action: moves[randomInt(pick, moves.length)]!.action });
        }
      }
      const game = await service.open(gameId);
      if (game.doc.status !== 'active' || !game.state) continue;
      out.push({
        keys: game.doc.seats.map((_, s) => service.links.seatKeyOf(game.doc, s)),
        seq: game.stateSeq,
        toAct: game.rules.toAct(game.state),
      });
    }
  }
  return out;
}

/** Server processes on games made for them, and how to look at their mail queue. */
interface Servers {
  store: 'embedded' | 'postgres';
  games: BenchGame[];
  urls: string[];
  /** Mail waiting now (see the top). */
  depth(): Promise<number>;
  /** Mail jobs sent or skipped so far. */
  handled(): Promise<number>;
  close(): Promise<void>;
}

const threads: Record<string, string> = process.env.MAIL_COMPOSE_THREADS
  ? { MAIL_COMPOSE_THREADS: process.env.MAIL_COMPOSE_THREADS }
  : {};

async function embeddedServer(smtpUrl: string): Promise<Servers> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mail-'));
  const store = new LowdbGameStore({ dataDir: dir });
  const games = await makeGames(store, loadOrCreateSecret(dir));
  await store.close();
  const server = await startChildServer(dir, { REGISTRY: 'all', SMTP_URL: `${smtpUrl}?pool=true`, ...threads });
  const ready = jsonClient(server.url, 4);
  return {
    store: 'embedded',
    games,
    urls: [server.url],
    async depth() {
      const r = await ready.call('GET', '/readyz');
      return Number(/(\d+) waiting/.exec(String(r.body?.checks?.mail))?.[1] ?? 0);
    },
    async handled() {
      const r = await ready.call('GET', '/readyz');
      const mail = String(r.body?.checks?.mail);
      const count = (what: string) => Number(new RegExp(`(\\d+) ${what}`).exec(mail)?.[1] ?? 0);
      // A server before the readiness said so: its receipts (sent and skipped) in mail/sent/.
      if (!/ sent/.test(mail)) return readdirSync(join(dir, 'mail', 'sent')).filter((f) => f.endsWith('.json')).length;
      return count('sent') + count('skipped');
    },
    async close() {
      ready.close();
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function pgServers(url: string, processes: number, smtpUrl: string): Promise<Servers> {
  const schema = `bench_mail_${Date.now().toString(36)}`;
  const store = new PgGameStore({ url, schema });
  const games = await makeGames(store, await store.loadOrCreateSecret());
  await store.close();
  const dirs: string[] = [];
  const procs: PgChild[] = [];
  for (let p = 0; p < processes; p++) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-mail-'));
    dirs.push(dir);
    procs.push(
      await startPgChild({
        TEST_DATABASE_URL: url,
        PG_SCHEMA: schema,
        DATA_DIR: dir,
        SMTP_URL: smtpUrl,
        GAMES: 'all',
        RECONCILE_MS: '1000',
        ...threads,
      }),
    );
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const q = `"${schema}"`;
  return {
    store: 'postgres',
    games,
    urls: procs.map((p) => p.url),
    async depth() {
      const r = await admin.query(
        `SELECT (SELECT count(*) FROM ${q}.mail_jobs WHERE state = 'pending')
           + (SELECT count(*) FROM ${q}.games WHERE last_seq > mail_seq) AS n`,
      );
      return Number(r.rows[0].n);
    },
    async handled() {
      const r = await admin.query(`SELECT count(*) AS n FROM ${q}.mail_jobs WHERE state IN ('sent', 'skipped')`);
      return Number(r.rows[0].n);
    },
    async close() {
      for (const p of procs) p.child.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exited));
      await admin.query(`DROP SCHEMA IF EXISTS ${q} CASCADE`).catch(() => {});
      await admin.end();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

export async function run(emit: Emit): Promise<void> {
  const url = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  // MAIL_BENCH_STORE=embedded or postgres: only that one.
  const only = process.env.MAIL_BENCH_STORE;
  const setups: ((smtpUrl: string) => Promise<Servers>)[] = [];
  if (only !== 'postgres') setups.push((smtp) => embeddedServer(smtp));
  if (url && only !== 'embedded')
    for (const processes of [1, 2]) setups.push((smtp) => pgServers(url, processes, smtp));
  for (const setUp of setups) {
    const sink = await startSink();
    let servers: Servers | null = null;
    const clients: JsonClient[] = [];
    try {
      servers = await setUp(sink.url);
      const { games } = servers;
      const processes = servers.urls.length;
      for (const u of servers.urls) clients.push(jsonClient(u, 64));
      // Whatever the start sends (nothing, or mail for positions the processes found) goes first.
      await quiet(sink.ids, 2000, 60_000);
      const before = sink.ids.length;
      let moves = 0;
      let errors = 0;
      let turn = 0;
      const queue = [...games];
      const handled0 = await servers.handled();
      const t0 = performance.now();
      const end = t0 + SECONDS * 1000;
      const samples: [number, number][] = [];
      const s = servers;
      const sampling = (async () => {
        while (performance.now() < end) {
          samples.push([(performance.now() - t0) / 1000, await s.depth()]);
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (performance.now() < end) {
            const g = queue.shift();
            if (!g) return;
            const client = clients[turn++ % processes]!;
            const r = await client.call('POST', `/api/play/${g.keys[g.toAct[0]!]}/move`, { seq: g.seq, n: 0 });
            if (r.status !== 200) errors++;
            else {
              moves++;
              g.seq = r.body.seq;
              g.toAct = r.body.toAct;
            }
            if (r.status === 200 && r.body.status === 'active' && g.toAct.length > 0) queue.push(g);
          }
        }),
      );
      const moved = performance.now();
      await sampling;
      const handledInWindow = (await servers.handled()) - handled0;
      const duringWindow = sink.ids.length - before;
      const last = await quiet(sink.ids, 3000, 180_000);
      const made = sink.ids.length - before;
      const seconds = (moved - t0) / 1000;
      emit({
        name: 'mail_throughput',
        store: servers.store,
        seconds: SECONDS,
        processes,
        clients: CLIENTS,
        games: games.length,
        moves_per_s: round(moves / seconds, 1),
        mails_sent_per_s: round(duringWindow / seconds, 1),
        mails_made: made,
        mails_per_move: round(made / Math.max(1, moves), 2),
        backlog_per_s: round((made - duringWindow) / seconds, 1),
        drain_s: round(Math.max(0, last - moved) / 1000, 1),
        jobs_handled_per_s: round(handledInWindow / seconds, 1),
        queue_start: samples[0]?.[1] ?? 0,
        queue_max: Math.max(0, ...samples.map(([, n]) => n)),
        queue_growth_per_s: round(slope(samples), 1),
        duplicates: sink.ids.length - new Set(sink.ids).size,
        errors,
        goal_backlog_per_s: 0,
        goal_queue_growth_per_s: 0,
      });
    } finally {
      for (const c of clients) c.close();
      await servers?.close();
      await sink.close();
    }
  }
  if (!url) emit({ name: 'mail_throughput', store: 'postgres', skipped: 'no DATABASE_URL or TEST_DATABASE_URL' });
}

/** The least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  if (points.length < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}
