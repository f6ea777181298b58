// Standing orders with two servers on one PostgreSQL database: an order left through one server
// is played by the other when a move there makes it its seat's turn (the other server's game in
// memory is read again: the index row's privateRev changed), and it survives in the database.
// Skipped without PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { startServer } from '../../server/app.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

async function call(url: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

describePg('standing orders on PostgreSQL', () => {
  it('are left on one server and played by the other', async () => {
    const schema = newSchema();
    const dirs = [0, 1].map((i) => mkdtempSync(join(tmpdir(), `pbem-orders-pg-${i}-`)));
    const start = (dataDir: string) =>
      startServer({
        dataDir,
        store: new PgGameStore({ url: pgUrl(), schema }),
        registry: games,
        port: 0,
        host: '127.0.0.1',
        logger: pino({ level: 'silent' }),
      });
    const a = await start(dirs[0]!);
    const b = await start(dirs[1]!);
    try {
      const made = await call(a.url, 'POST', '/api/games', {
        rules: '1830',
        seats: 3,
        name: 'Ada',
        email: 'ada@example.test',
        join: true,
      });
      expect(made.status).toBe(201);
      const keys = [made.body.seatKey as string];
      for (const name of ['Bob', 'Cy'])
        keys.push(
          (await call(a.url, 'POST', `/api/join/${made.body.inviteKey}`, { name, email: `${name}@example.test` })).body
            .seatKey,
        );
      const bySeat: string[] = [];
      for (const k of keys) bySeat[(await call(a.url, 'GET', `/api/play/${k}`)).body.you] = k;
      // B has the game in memory before the order is left on A.
      const before = await call(b.url, 'GET', `/api/play/${bySeat[0]}`);
      expect(before.body.view.toAct).toEqual([0]);
      const left = await call(a.url, 'POST', `/api/play/${bySeat[1]}/orders`, {
        order: { kind: 'auctionPass', unless: 'DH' },
      });
      expect(left.status, JSON.stringify(left.body)).toBe(200);
      // Seat 0 buys SV through B: B plays seat 1's order in the same write.
      const moved = await call(b.url, 'POST', `/api/play/${bySeat[0]}/move`, {
        seq: before.body.game.seq,
        action: { type: 'bid', company: 'SV', price: 20 },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      for (const s of [a, b]) {
        const now = await call(s.url, 'GET', `/api/play/${bySeat[2]}`);
        expect(now.body.view.toAct).toEqual([2]);
        const log = (await call(s.url, 'GET', `/api/play/${bySeat[2]}/history`)).body.log;
        expect(log.at(-1)).toMatchObject({ seat: 1, kind: 'move', data: { programmed: true } });
      }
      // The order is still armed (nobody bid on DH), as both servers read it from the database.
      const orders = (await call(b.url, 'GET', `/api/play/${bySeat[1]}`)).body.orders;
      expect(orders.armed).toMatchObject([{ text: 'Pass in the private auction unless somebody bids on DH' }]);
    } finally {
      await a.stop();
      await b.stop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      await dropSchema(schema);
    }
  });
});
