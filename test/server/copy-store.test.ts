// `npm run --silent cli -- copy-store <from> <to>`: games from a data folder into PostgreSQL and
// back, every chain checked; a broken chain is named and not copied. Skipped without PostgreSQL.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { main } from '../../server/cli.ts';
import { LowdbGameStore } from '../../server/store/lowdb-store.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';
import { makeService, TEST_SECRET } from '../support/service.ts';
import { capture } from '../support/verify.ts';

const dirs: string[] = [];
const schemas: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  for (const s of schemas) await dropSchema(s);
});

describePg('cli copy-store', () => {
  it('copies every game into PostgreSQL and back, entries and metadata unchanged, with the secret; refuses a broken chain', async () => {
    const t = await makeService();
    const ids: string[] = [];
    for (let g = 0; g < 3; g++) {
      const c = await t.service.create({
        rules: 'high-card',
        seats: 2,
        name: 'Ada',
        email: 'ada@example.test',
        join: true,
      });
      await t.service.join(c.gameId, { name: 'Bob', email: 'bob@example.test' });
      for (let m = 0; m < 4 + g; m++) {
        const game = await t.service.open(c.gameId);
        const seat = game.rules.toAct(game.state)[0]!;
        const action = t.service.movesFor(game, seat)[0]!.action;
        await t.service.move(c.gameId, seat, { seq: game.stateSeq, action });
      }
      ids.push(c.gameId);
    }
    await t.store.close();
    const from = t.dataDir;
    dirs.push(from);
    writeFileSync(join(from, 'secret.key'), `${TEST_SECRET.toString('hex')}\n`);
    const schema = newSchema();
    schemas.push(schema);

    const into = await capture(() => main(['copy-store', from, pgUrl(), '--schema', schema]));
    expect(into).toEqual({
      code: 0,
      out: `copied 3 games to PostgreSQL (schema ${schema}), 0 there already, 0 not copied; every chain checked\n`,
    });
    // Again: nothing twice.
    expect((await capture(() => main(['copy-store', from, pgUrl(), '--schema', schema]))).out).toMatch(
      /^copied 0 games .*, 3 there already, 0 not copied/,
    );

    const back = mkdtempSync(join(tmpdir(), 'pbem-copy-back-'));
    dirs.push(back);
    rmSync(back, { recursive: true });
    const out = await capture(() => main(['copy-store', pgUrl(), back, '--schema', schema]));
    expect(out.code).toBe(0);
    expect(readFileSync(join(back, 'secret.key'), 'utf8').trim()).toBe(TEST_SECRET.toString('hex'));

    const a = new LowdbGameStore({ dataDir: from });
    const b = new LowdbGameStore({ dataDir: back });
    const p = new PgGameStore({ url: pgUrl(), schema });
    await Promise.all([a.open(), b.open(), p.open()]);
    try {
      for (const id of ids) {
        const log = await a.readLog(id);
        expect(log.length).toBeGreaterThan(5);
        expect(await p.readLog(id)).toEqual(log);
        expect(await b.readLog(id)).toEqual(log);
        expect(await b.readMeta(id)).toEqual(await a.readMeta(id));
        expect(await b.entry(id)).toEqual(await a.entry(id));
      }
      // One entry changed in the database: that game is named and not copied, the others are.
      await p.pool.query(
        'UPDATE game_log SET entry = replace(entry, \'"at":"\', \'"at":"1\') WHERE game_id = $1 AND seq = 3',
        [ids[1]],
      );
    } finally {
      await Promise.all([a.close(), b.close(), p.close()]);
    }
    const third = mkdtempSync(join(tmpdir(), 'pbem-copy-3-'));
    dirs.push(third);
    const broken = await capture(() => main(['copy-store', pgUrl(), third, '--schema', schema]));
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/^copied 2 games .*, 1 not copied/);
    await t.cleanup().catch(() => {});
  });
});
