// A real listening server for tests: 127.0.0.1, port 0, a temp data folder,
// the registry you give it, a fake clock; plus helpers that drive a game
// through the JSON API exactly as a bot would.
//
//   const srv = await startTestServer({ registry: [myRules] });
//   const g = await srv.createGame({ rules: 'my-game', players: ['Ada', 'Bob', 'Cy'] });
//   await srv.playToEnd(g);            // random-free: picks moves[0] unless you pass pick
//   await srv.stop();
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { AnyRules, Options } from '../../rules/types.ts';
import { startServer, type AppContext, type AppPlugin } from '../../server/app.ts';
import type { GameEvent } from '../../server/events.ts';
import type { GameService, MoveChoice } from '../../server/service.ts';
import type { GameStore } from '../../server/store/types.ts';
import { highCard } from './high-card.ts';
import { fakeClock, TEST_SECRET, type TestClock } from './service.ts';

export interface SeatHandle {
  name: string;
  email: string;
  key: string;
  /** Play-order seat (known once the game started). */
  seat: number;
}

export interface TestGame {
  gameId: string;
  adminKey: string;
  inviteKey: string;
  spectatorKey: string;
  /** In play order once started. */
  seats: SeatHandle[];
}

export interface PlayState {
  game: {
    id: string;
    status: string;
    seq: number;
    lastSeq: number;
    players: { seat: number; name: string }[];
    outcome: unknown;
  };
  you: number;
  view: { seat: number | null; toAct: number[]; status: string; [k: string]: unknown };
  yourTurn: boolean;
  moves: MoveChoice[];
  canUndo: boolean;
  sinceLastTurn: { seq: number; text: string }[];
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
}

export interface TestServer {
  url: string;
  ctx: AppContext;
  service: GameService;
  dataDir: string;
  clock: TestClock;
  events: GameEvent[];
  api<T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>>;
  /** Creates a game (the first player is the creator), seats everyone, starts it. */
  createGame(opts: {
    rules: string;
    players: string[];
    seats?: number;
    options?: Options;
    start?: boolean;
    listed?: boolean;
  }): Promise<TestGame>;
  state(key: string): Promise<PlayState>;
  move(key: string, seq: number, action: unknown): Promise<ApiResult>;
  /** Posts the personal page's move form as a browser without script would (fields: seq, action or command). */
  postMoveForm(key: string, fields: Record<string, string>): Promise<{ status: number; text: string }>;
  /** Plays until the game is over (or maxMoves), each seat to act choosing with `pick` (default: the first move). */
  playToEnd(
    game: TestGame,
    opts?: { pick?: (moves: MoveChoice[], state: PlayState) => MoveChoice; maxMoves?: number },
  ): Promise<{ moves: number; final: PlayState }>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  registry?: AnyRules[];
  /** Default: the lowdb store in the data folder (a PgGameStore: games and mail in PostgreSQL). */
  store?: GameStore;
  dataDir?: string;
  now?: () => Date;
  onEvent?: (e: GameEvent) => void | Promise<void>;
  plugins?: AppPlugin[];
  /** Keep the data folder after stop (default: removed unless dataDir was given). */
  keepData?: boolean;
  postLimit?: { windowMs: number; limit: number };
  trustProxy?: boolean | number | string;
  quotas?: { createsPerClientPerHour: number; createsPerAddressPerDay: number };
  confirmOrganiser?: boolean;
  importLimits?: { timeLimitMs?: number; perClientPerHour?: number };
  /** Default: a silent pino logger. */
  logger?: Logger;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'pbem-http-'));
  const clock = fakeClock();
  const events: GameEvent[] = [];
  const running = await startServer({
    dataDir,
    ...(opts.store ? { store: opts.store } : {}),
    registry: opts.registry ?? [highCard],
    now: opts.now ?? clock.now,
    secret: TEST_SECRET,
    logger: opts.logger ?? pino({ level: 'silent' }),
    onEvent: [(e) => void events.push(e), ...(opts.onEvent ? [opts.onEvent] : [])],
    plugins: opts.plugins,
    postLimit: opts.postLimit ?? { windowMs: 60_000, limit: 1_000_000 },
    // Suites create many games from one address; the quota tests pass their own.
    quotas: opts.quotas ?? { createsPerClientPerHour: 1e9, createsPerAddressPerDay: 1e9 },
    confirmOrganiser: opts.confirmOrganiser,
    importLimits: opts.importLimits ?? { perClientPerHour: 1e9 },
    trustProxy: opts.trustProxy,
  });
  const url = running.url;

  const api = async <T = any>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>> => {
    const res = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T };
  };

  const must = <T>(r: ApiResult<T>, what: string): T => {
    if (r.status >= 400) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  const state = async (key: string) => must(await api<PlayState>('GET', `/api/play/${key}`), 'state');

  const srv: TestServer = {
    url,
    ctx: running.ctx,
    service: running.ctx.service,
    dataDir,
    clock,
    events,
    api,
    state,
    async createGame(o) {
      const [first, ...rest] = o.players;
      const email = (n: string) => `${n.toLowerCase().replace(/[^a-z0-9]/g, '')}@example.test`;
      const created = must(
        await api('POST', '/api/games', {
          rules: o.rules,
          seats: o.seats ?? o.players.length,
          options: o.options,
          name: first,
          email: email(first!),
          join: true,
          listed: o.listed ?? true,
        }),
        'create',
      );
      const seats: SeatHandle[] = [{ name: first!, email: email(first!), key: created.seatKey, seat: -1 }];
      for (const name of rest) {
        const j = must(
          await api('POST', `/api/join/${created.inviteKey}`, { name, email: email(name) }),
          `join ${name}`,
        );
        seats.push({ name, email: email(name), key: j.seatKey, seat: -1 });
      }
      const game: TestGame = {
        gameId: created.gameId,
        adminKey: created.adminKey,
        inviteKey: created.inviteKey,
        spectatorKey: created.spectatorKey,
        seats,
      };
      const admin = must(await api('GET', `/api/admin/${created.adminKey}`), 'admin');
      if (admin.status === 'open' && o.start !== false)
        must(await api('POST', `/api/admin/${created.adminKey}/start`), 'start');
      if (o.start !== false) {
        for (const s of seats) s.seat = (await state(s.key)).you;
        seats.sort((a, b) => a.seat - b.seat);
      }
      return game;
    },
    move: (key, seq, action) => api('POST', `/api/play/${key}/move`, { seq, action }),
    postMoveForm: async (key, fields) => {
      const res = await fetch(`${url}/play/${key}/move`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      });
      return { status: res.status, text: await res.text() };
    },
    async playToEnd(game, o = {}) {
      const max = o.maxMoves ?? 100_000;
      let moves = 0;
      for (;;) {
        const any = await state(game.seats[0]!.key);
        if (any.game.status !== 'active' || moves >= max) return { moves, final: any };
        const seat = any.view.toAct[0]!;
        const handle = game.seats.find((s) => s.seat === seat)!;
        const mine = seat === any.you ? any : await state(handle.key);
        const choice = o.pick ? o.pick(mine.moves, mine) : mine.moves[0]!;
        must(await srv.move(handle.key, mine.game.seq, choice.action), `move ${moves + 1} by seat ${seat}`);
        moves++;
      }
    },
    async stop() {
      await running.stop();
      if (!opts.keepData && !opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return srv;
}
