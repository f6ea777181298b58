// Two servers on one PostgreSQL database: a move by a link key is decided on the game as the
// server holds it, without reading it first (service.decideOnKey), and any refusal that copy
// would give is decided again on a fresh read: a player is never refused because the server was
// behind, a key retired on the other server never moves on a stale copy, and a change the other
// server made to the game's metadata alone is kept. Skipped without PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { expect, it, vi } from 'vitest';
import { startServer } from '../../server/app.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { highCard } from '../support/high-card.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

async function call(s: Server, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(s.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** Runs `test` on two servers sharing a fresh schema, then stops them and drops it. */
async function onTwoServers(test: (a: Server, b: Server) => Promise<void>): Promise<void> {
  const schema = newSchema();
  const dirs = [0, 1].map((i) => mkdtempSync(join(tmpdir(), `pbem-held-${i}-`)));
  const start = (dataDir: string) =>
    startServer({
      dataDir,
      store: new PgGameStore({ url: pgUrl(), schema }),
      registry: [highCard],
      port: 0,
      host: '127.0.0.1',
      logger: pino({ level: 'silent' }),
      postLimit: { windowMs: 60_000, limit: 100_000 },
    });
  const servers: Server[] = [];
  try {
    for (const dir of dirs) servers.push(await start(dir));
    await test(servers[0]!, servers[1]!);
  } finally {
    for (const s of servers) await s.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await dropSchema(schema);
  }
}

/** A two-seat High Card game made and joined on `s`; both seats' pages opened there. */
async function newGame(s: Server) {
  const made = await call(s, 'POST', '/api/games', {
    rules: 'high-card',
    seats: 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
  });
  const joined = await call(s, 'POST', `/api/join/${made.body.inviteKey}`, { name: 'Bob', email: 'bob@example.test' });
  const keys: string[] = [];
  for (const key of [made.body.seatKey as string, joined.body.seatKey as string]) {
    const page = await call(s, 'GET', `/api/play/${key}`);
    keys[page.body.you] = key;
  }
  return { gameId: made.body.gameId as string, adminKey: made.body.adminKey as string, keys };
}

const reads = (s: Server) => vi.spyOn(s.ctx.service.store, 'readGame');

describePg('a move on a game the server holds', () => {
  it('is one write when the copy is current; a copy behind is read again, never a refusal', async () => {
    await onTwoServers(async (a, b) => {
      const { keys } = await newGame(a);
      const seq = (await call(a, 'GET', `/api/play/${keys[0]}`)).body.game.seq as number;
      const readsA = reads(a);

      // Both stakes (a simultaneous opening) on the server that holds the game: no read.
      const first = await call(a, 'POST', `/api/play/${keys[0]}/move`, { seq, n: 0 });
      expect(first.status).toBe(200);
      const second = await call(a, 'POST', `/api/play/${keys[1]}/move`, { seq: first.body.seq, n: 0 });
      expect(second.status).toBe(200);
      expect(readsA).not.toHaveBeenCalled();

      // The next move is made on the other server; the one after it comes back to the first,
      // whose copy is now behind: it reads what it missed and takes the move.
      let to = second.body.toAct[0] as number;
      const onB = await call(b, 'POST', `/api/play/${keys[to]}/move`, { seq: second.body.seq, n: 0 });
      expect(onB.status).toBe(200);
      to = onB.body.toAct[0] as number;
      const back = await call(a, 'POST', `/api/play/${keys[to]}/move`, { seq: onB.body.seq, n: 0 });
      expect(back.status).toBe(200);
      expect(readsA).toHaveBeenCalledTimes(1);

      // A second click on the same link (its page made before that move) is refused, on a fresh read.
      const again = await call(b, 'POST', `/api/play/${keys[to]}/move`, { seq: onB.body.seq, n: 0 });
      expect(again.status).toBe(409);
      const history = (await call(a, 'GET', `/api/play/${keys[0]}/history`)).body;
      expect(history.log.filter((e: { kind: string }) => e.kind === 'move')).toHaveLength(4);
    });
  });

  it('refuses a key retired on the other server, though its copy still lists the key', async () => {
    await onTwoServers(async (a, b) => {
      const { adminKey, keys } = await newGame(a);
      const seq = (await call(a, 'GET', `/api/play/${keys[1]}`)).body.game.seq as number;
      // On the other server the organiser gives seat 2 to somebody new, who takes it.
      const reopened = await call(b, 'POST', `/api/admin/${adminKey}/reopen`, { seat: 1 });
      expect(reopened.status).toBe(200);
      const carl = await call(b, 'POST', `/api/join/${reopened.body.inviteKey}`, {
        name: 'Carl',
        email: 'carl@example.test',
      });
      expect(carl.status).toBe(201);

      // The first server's copy still has the old key at seat 2, with a stake to make (taken
      // against an older position in this opening): it is decided again on a fresh read, 410.
      const old = await call(a, 'POST', `/api/play/${keys[1]}/move`, { seq, n: 0 });
      expect(old.status).toBe(410);
      const page = await call(a, 'GET', `/api/play/${carl.body.seatKey}`);
      expect(page.status).toBe(200);
      expect(page.body.name).toBe('Carl');
      expect(page.body.yourTurn).toBe(true);
      const history = (await call(b, 'GET', `/api/play/${keys[0]}/history`)).body;
      expect(history.log.filter((e: { kind: string }) => e.kind === 'move')).toHaveLength(0);
    });
  });

  it('keeps a change the other server made to the metadata alone, deciding the move again', async () => {
    await onTwoServers(async (a, b) => {
      const { gameId, keys } = await newGame(a);
      const seq = (await call(a, 'GET', `/api/play/${keys[0]}`)).body.game.seq as number;
      // A seat's private settings, changed on the other server: no log entry, the same seq.
      await b.ctx.service.setSeatPrefs(gameId, 0, { mail: 'digest' });
      const readsA = reads(a);
      const moved = await call(a, 'POST', `/api/play/${keys[0]}/move`, { seq, n: 0 });
      expect(moved.status).toBe(200);
      // The append made on the old copy was refused (the game changed), the move decided again.
      expect(readsA).toHaveBeenCalled();
      for (const s of [a, b])
        expect((await s.ctx.service.open(gameId)).doc.seats[0]!.prefs).toEqual({ mail: 'digest' });
      expect((await b.ctx.service.open(gameId)).doc.log.filter((e) => e.kind === 'move')).toHaveLength(1);
    });
  });
  it('answers a move with a read sent after it arrived, not with one in flight since before', async () => {
    await onTwoServers(async (a, b) => {
      const { gameId, keys } = await newGame(a);
      const seq = (await call(a, 'GET', `/api/play/${keys[0]}`)).body.game.seq as number;
      for (const key of keys) await call(b, 'GET', `/api/play/${key}`); // b holds the game and knows its keys
      // b reads the game for something else (a mail, a page): the read has its answer, from
      // before the move below, but is still in flight when that move's player clicks on.
      const store = b.ctx.service.store;
      const realRead = store.readGame.bind(store);
      let answered!: () => void;
      const readAnswered = new Promise<void>((r) => (answered = r));
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      vi.spyOn(store, 'readGame').mockImplementationOnce(async (...args) => {
        const read = await realRead(...args);
        answered();
        await held;
        return read;
      });
      const earlier = b.ctx.service.open(gameId);
      await readAnswered;

      const onA = await call(a, 'POST', `/api/play/${keys[0]}/move`, { seq, n: 0 });
      expect(onA.status).toBe(200);
      // The other seat, told by that answer, moves through b while b's earlier read is in flight.
      const onB = call(b, 'POST', `/api/play/${keys[1]}/move`, { seq: onA.body.seq, n: 0 });
      const opened = b.ctx.service.openByKey(keys[1]!, ['seat']);
      release();
      await earlier;
      expect((await opened).game.stateSeq).toBe(onA.body.seq);
      expect((await onB).status).toBe(200);
      const moves = (await a.ctx.service.open(gameId)).doc.log.filter((e) => e.kind === 'move');
      expect(moves.map((e) => e.seat)).toEqual([0, 1]);
    });
  });
});
