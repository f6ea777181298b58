// The durable store: group commit, the index journal and its snapshot.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommitter } from '../../server/store/group-commit.ts';
import { LowdbGameStore } from '../../server/store/lowdb-store.ts';
import type { GameDoc } from '../../server/store/types.ts';
import { makeService } from '../support/service.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'pbem-store-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('group commit', () => {
  it('lands concurrent writes of one file in order and resolves every caller', async () => {
    const dir = tempDir();
    const c = new GroupCommitter(dir, join(dir, 'journal'));
    const file = join(dir, 'a.json');
    await Promise.all(Array.from({ length: 40 }, (_, i) => c.write(file, String(i), `line ${i}`)));
    await c.close();
    expect(readFileSync(file, 'utf8')).toBe('39');
    expect(readFileSync(join(dir, 'journal'), 'utf8').trim().split('\n')).toHaveLength(40);
  });
});

describe('group commit rounds', () => {
  it('runs a fresh sync round for each write after the first (each line written and synced before it resolves)', async () => {
    const dir = tempDir();
    const c = new GroupCommitter(dir, join(dir, 'journal'));
    for (let i = 0; i < 5; i++) {
      await c.write(join(dir, 'a.json'), null, `line ${i}`);
      expect(readFileSync(join(dir, 'journal'), 'utf8').trim().split('\n')).toHaveLength(i + 1);
    }
    await c.close();
  });
});

describe('lowdb store', () => {
  it('keeps the index across restarts through journal and snapshot, ignoring a torn last line', async () => {
    const t = await makeService();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        (await t.service.create({ rules: 'high-card', seats: 2, name: 'Ada', email: 'a@example.test', join: true }))
          .gameId,
      );
    appendFileSync(join(t.dataDir, 'index.journal'), '{"id":"torn');
    const again = await t.reopen();
    expect(
      again
        .list()
        .map((e) => e.id)
        .sort(),
    ).toEqual([...ids].sort());
    await t.cleanup();
  });

  it('compacts the journal into index.json', async () => {
    const dir = tempDir();
    const t = await makeService(undefined, dir);
    const store = new LowdbGameStore({ dataDir: dir, compactAfter: 5 });
    await store.open();
    const game = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'a@example.test',
      join: true,
    });
    await t.store.close();
    const doc = (await store.load(game.gameId)) as GameDoc;
    for (let i = 0; i < 12; i++)
      await store.save({ ...doc, updatedAt: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z` });
    await store.drain();
    expect(existsSync(join(dir, 'index.json'))).toBe(true);
    // Some lines moved out of the journal (its games rewritten in the background).
    // After a rewrite the journal starts afresh; until the next write it may not exist at all.
    const journal = join(dir, 'index.journal');
    const lines = existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean).length : 0;
    expect(lines).toBeLessThan(12);
    await store.close();
    const fresh = new LowdbGameStore({ dataDir: dir });
    await fresh.open();
    expect(fresh.entry(game.gameId)?.updatedAt).toBe('2026-01-01T00:00:11.000Z');
    await fresh.close();
  });

  it('acknowledges a save once its journal line is durable, replays it after a crash and cuts a torn tail', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const t = await makeService(undefined, dir);
    const game = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'a@example.test',
      join: true,
    });
    await t.store.close();
    const doc = (await store.load(game.gameId)) as GameDoc;
    await store.save({ ...doc, updatedAt: '2026-01-01T00:00:01.000Z' });
    // No close: as after SIGKILL, the newest copy is only in the journal.
    appendFileSync(join(dir, 'index.journal'), '{"entry":{"id":"torn');
    const s2 = new LowdbGameStore({ dataDir: dir });
    await s2.open();
    expect((await s2.load(game.gameId))?.updatedAt).toBe('2026-01-01T00:00:01.000Z');
    await s2.save({ ...doc, updatedAt: '2026-01-01T00:00:02.000Z' });
    const s3 = new LowdbGameStore({ dataDir: dir });
    await s3.open();
    expect((await s3.load(game.gameId))?.updatedAt).toBe('2026-01-01T00:00:02.000Z');
    expect(s3.entry(game.gameId)?.updatedAt).toBe('2026-01-01T00:00:02.000Z');
    // Closing rewrites the game file and empties the journal.
    await s3.close();
    expect(JSON.parse(readFileSync(join(dir, 'games', `${game.gameId}.json`), 'utf8')).updatedAt).toBe(
      '2026-01-01T00:00:02.000Z',
    );
    expect(statSync(join(dir, 'index.journal')).size).toBe(0);
  });

  it('rewrites changed game files when the journal outgrows its limit', async () => {
    const dir = tempDir();
    const t = await makeService(undefined, dir);
    const game = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'a@example.test',
      join: true,
    });
    await t.store.close();
    const store = new LowdbGameStore({ dataDir: dir, compactBytes: 4000 });
    await store.open();
    const doc = (await store.load(game.gameId)) as GameDoc;
    for (let i = 0; i < 12; i++)
      await store.save({ ...doc, updatedAt: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z` });
    await store.drain();
    // After a rewrite the journal starts afresh; until the next write it may not exist at all.
    const journal = join(dir, 'index.journal');
    const lines = existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean).length : 0;
    expect(lines).toBeLessThan(12);
    expect(existsSync(join(dir, 'index.journal.old'))).toBe(false);
    const onDisk = JSON.parse(readFileSync(join(dir, 'games', `${game.gameId}.json`), 'utf8')) as GameDoc;
    expect(onDisk.updatedAt > '2026-01-01T00:00:00.000Z').toBe(true);
    // As after a crash (no close): the newest copy comes back from the journal.
    const s2 = new LowdbGameStore({ dataDir: dir });
    await s2.open();
    expect((await s2.load(game.gameId))?.updatedAt).toBe('2026-01-01T00:00:11.000Z');
    await s2.close();
    await store.close();
  });

  it('finishes a background rewrite cut short by a crash (old journal left behind)', async () => {
    const dir = tempDir();
    const t = await makeService(undefined, dir);
    const game = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'a@example.test',
      join: true,
    });
    await t.store.close();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const doc = (await store.load(game.gameId)) as GameDoc;
    await store.save({ ...doc, updatedAt: '2026-01-01T00:00:01.000Z' });
    // The crash: the journal was moved aside, its game not yet rewritten.
    renameSync(join(dir, 'index.journal'), join(dir, 'index.journal.old'));
    const s2 = new LowdbGameStore({ dataDir: dir });
    await s2.open();
    expect(existsSync(join(dir, 'index.journal.old'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'games', `${game.gameId}.json`), 'utf8')).updatedAt).toBe(
      '2026-01-01T00:00:01.000Z',
    );
    expect((await s2.load(game.gameId))?.updatedAt).toBe('2026-01-01T00:00:01.000Z');
    await s2.close();
  });

  it('rebuilds a lost index from the game files', async () => {
    const t = await makeService();
    const g = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'a@example.test',
      join: true,
    });
    await t.store.close();
    rmSync(join(t.dataDir, 'index.journal'), { force: true });
    rmSync(join(t.dataDir, 'index.json'), { force: true });
    const again = await t.reopen();
    expect(again.entry(g.gameId)?.status).toBe('open');
    expect(again.resolveKey(g.adminKey)?.role).toBe('admin');
    await t.cleanup();
  });
});
