// The embedded store's own workings: group commit, the journal, compaction, crashes, formats.
// (What every store must do is in store-contract.ts, run by lowdb-store.test.ts.)
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommitter } from '../../server/store/group-commit.ts';
import { shardFile } from '../../server/store/index-shards.ts';
import { LowdbGameStore } from '../../server/store/lowdb-store.ts';
import { splitEntry, toStored } from '../../server/store/index-row.ts';
import { StoreFormatError, type IndexEntry, type LogEntry } from '../../server/store/types.ts';
import { makeService } from '../support/service.ts';
import { entriesAfter, metaFor } from './store-contract.ts';

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
    appendFileSync(join(t.dataDir, 'index.journal'), '{"g":"torn');
    const again = await t.reopen();
    const listed = await again.listGames({ limit: 10 });
    expect(listed.entries.map((e) => e.id).sort()).toEqual([...ids].sort());
    await t.cleanup();
  });

  it('acknowledges an append once its journal line is durable, replays it after a crash and cuts a torn tail', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const meta = metaFor();
    const log: LogEntry[] = [];
    await store.create(meta, entriesAfter(log, 2));
    await store.append(meta.id, { expectedSeq: 2, entries: entriesAfter(log, 1), meta: { updatedAt: 'T1' } });
    // No close: as after SIGKILL, the newest copy is only in the journal.
    appendFileSync(join(dir, 'index.journal'), '{"g":"torn');
    const s2 = new LowdbGameStore({ dataDir: dir });
    await s2.open();
    expect((await s2.readMeta(meta.id))?.updatedAt).toBe('T1');
    expect(await s2.readLog(meta.id)).toEqual(log);
    await s2.append(meta.id, { expectedSeq: 3, entries: entriesAfter(log, 1), meta: { updatedAt: 'T2' } });
    const s3 = new LowdbGameStore({ dataDir: dir });
    await s3.open();
    expect((await s3.readMeta(meta.id))?.updatedAt).toBe('T2');
    expect((await s3.entry(meta.id))?.lastSeq).toBe(4);
    // Closing writes the game's files and empties the journal.
    await s3.close();
    expect(JSON.parse(readFileSync(join(dir, 'games', `${meta.id}.json`), 'utf8')).meta.updatedAt).toBe('T2');
    expect(
      readFileSync(join(dir, 'games', `${meta.id}.jsonl`), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(4);
    expect(statSync(join(dir, 'index.journal')).size).toBe(0);
  });

  it('writes a move as about the size of its entry, however long the game (journal, then the log file)', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const meta = metaFor();
    const log: LogEntry[] = [];
    await store.create(meta, entriesAfter(log, 2000));
    await store.close();
    const s2 = new LowdbGameStore({ dataDir: dir });
    await s2.open();
    const journal = join(dir, 'index.journal');
    const before = existsSync(journal) ? statSync(journal).size : 0;
    const [entry] = entriesAfter(log, 1);
    await s2.append(meta.id, { expectedSeq: 2000, entries: [entry!], meta: { updatedAt: '2026-01-02T00:00:00.000Z' } });
    const line = statSync(journal).size - before;
    expect(line).toBeLessThan(JSON.stringify(entry).length + 200);
    await s2.close();
  });

  it('writes changed games to their files when the journal outgrows its limit, and replays what came after', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir, compactBytes: 3000 });
    await store.open();
    const meta = metaFor();
    const log: LogEntry[] = [];
    await store.create(meta, entriesAfter(log, 1));
    for (let i = 0; i < 20; i++)
      await store.append(meta.id, {
        expectedSeq: log.length,
        entries: entriesAfter(log, 1),
        meta: { updatedAt: `T${i}` },
      });
    await store.drain();
    const journal = join(dir, 'index.journal');
    const lines = existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean).length : 0;
    expect(lines).toBeLessThan(20);
    expect(existsSync(join(dir, 'index.journal.old'))).toBe(false);
    const onFile = readFileSync(join(dir, 'games', `${meta.id}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    expect(onFile.length).toBeGreaterThan(1);
    expect(onFile.length + lines).toBe(21);
    // As after a crash (no close): the rest comes back from the journal.
    const s2 = new LowdbGameStore({ dataDir: dir });
    await s2.open();
    expect(await s2.readLog(meta.id)).toEqual(log);
    expect((await s2.readMeta(meta.id))?.updatedAt).toBe('T19');
    await s2.close();
    await store.close();
  });

  it('finishes a compaction cut short by a crash; entries already in the log file are not written twice', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const meta = metaFor();
    const log: LogEntry[] = [];
    await store.create(meta, entriesAfter(log, 3));
    await store.close();
    const s1 = new LowdbGameStore({ dataDir: dir });
    await s1.open();
    await s1.append(meta.id, { expectedSeq: 3, entries: entriesAfter(log, 2), meta: { updatedAt: 'T1' } });
    // The crash: the journal was moved aside and one of its entries reached the log file (with a torn line after it).
    renameSync(join(dir, 'index.journal'), join(dir, 'index.journal.old'));
    appendFileSync(join(dir, 'games', `${meta.id}.jsonl`), JSON.stringify(log[3]) + '\n{"seq":5,"to');
    const s2 = new LowdbGameStore({ dataDir: dir });
    await s2.open();
    expect(existsSync(join(dir, 'index.journal.old'))).toBe(false);
    const onFile = readFileSync(join(dir, 'games', `${meta.id}.jsonl`), 'utf8')
      .trim()
      .split('\n');
    expect(onFile.map((l) => (JSON.parse(l) as LogEntry).seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await s2.readLog(meta.id)).toEqual(log);
    expect((await s2.readMeta(meta.id))?.updatedAt).toBe('T1');
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
    rmSync(join(t.dataDir, 'index'), { recursive: true, force: true });
    const again = await t.reopen();
    expect((await again.entry(g.gameId))?.status).toBe('open');
    expect((await again.resolveKey(g.adminKey))?.role).toBe('admin');
    await t.cleanup();
  });

  it('rebuilds the index when one of its shards is damaged, and says so', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const metas = Array.from({ length: 40 }, () => metaFor());
    for (const meta of metas) await store.create(meta, entriesAfter([], 1));
    await store.close();
    const shards = Object.keys(JSON.parse(readFileSync(join(dir, 'index', 'manifest.json'), 'utf8')).shards);
    expect(shards.length).toBeGreaterThan(10); // 40 games spread over the shards
    writeFileSync(join(dir, 'index', `${shards[0]}.idx`), '{"format":5,"count":3,"text":'); // torn by hand
    const problems: string[] = [];
    const again = new LowdbGameStore({ dataDir: dir, onProblem: (m) => problems.push(m) });
    await again.open();
    expect(problems.join('\n')).toMatch(/index\/[0-9a-f]{2}\.idx unreadable .*; rebuilding the index/);
    for (const meta of metas) expect((await again.entry(meta.id))?.id).toBe(meta.id);
    expect((await again.listGames({ limit: 100 })).total).toBe(40);
    await again.close();
  });

  it('keeps the listing newest first while games change after it was first sorted', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const metas = Array.from({ length: 30 }, (_, i) =>
      metaFor({ updatedAt: `2026-01-01T12:${String(i % 7).padStart(2, '0')}:00.000Z` }),
    );
    const logs = new Map<string, LogEntry[]>();
    for (const meta of metas) {
      const log: LogEntry[] = [];
      logs.set(meta.id, log);
      await store.create(meta, entriesAfter(log, 1));
    }
    const expectNewestFirst = async () => {
      const listed = (await store.listGames({ limit: 100 })).entries;
      const want = [...listed].sort((a, b) =>
        a.updatedAt !== b.updatedAt ? (a.updatedAt < b.updatedAt ? 1 : -1) : a.id < b.id ? 1 : -1,
      );
      expect(listed.map((e) => e.id)).toEqual(want.map((e) => e.id));
      expect(listed).toHaveLength(30);
    };
    await expectNewestFirst();
    // Changes in a scrambled order, some to the same time, some back in time (a clock set back).
    for (let i = 0; i < 60; i++) {
      const meta = metas[(i * 7) % 30]!;
      const log = logs.get(meta.id)!;
      const more = entriesAfter(log, 1); // (pushed onto log too)
      const minute = String((i * 13) % 50).padStart(2, '0');
      await store.append(meta.id, {
        expectedSeq: log.length - 1,
        entries: more,
        meta: { updatedAt: `2026-01-01T13:${minute}:00.000Z` },
      });
      if (i % 10 === 9) await expectNewestFirst();
    }
    await store.close();
  });

  it('moves a format-2 index (one index.json) into shards at start, and removes index.json only then', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const metas = Array.from({ length: 12 }, () => metaFor());
    for (const meta of metas) await store.create(meta, entriesAfter([], 2));
    const rows = await Promise.all(metas.map((m) => store.entry(m.id)));
    await store.close();
    // The same folder as the code before shards wrote it: the rows in one index.json of version 2.
    expect(rows).toHaveLength(12);
    rmSync(join(dir, 'index'), { recursive: true });
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ version: 2, games: rows }));
    // A crash after some shards were written: index.json still wins (it is complete).
    mkdirSync(join(dir, 'index'));
    writeFileSync(join(dir, 'index', 'manifest.json'), JSON.stringify({ format: 3, shards: { '00': 99 } }));

    const problems: string[] = [];
    const again = new LowdbGameStore({ dataDir: dir, onProblem: (m) => problems.push(m) });
    await again.open();
    expect(problems).toEqual([]); // read, not rebuilt
    expect(existsSync(join(dir, 'index.json'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'index', 'manifest.json'), 'utf8')).format).toBe(5);
    for (const meta of metas) {
      expect((await again.entry(meta.id))?.lastSeq).toBe(2);
      expect(await again.findKey(meta.adminKeyHash)).toEqual({ gameId: meta.id, role: 'admin' });
    }
    await again.close();
    const third = new LowdbGameStore({ dataDir: dir, onProblem: (m) => problems.push(m) });
    await third.open();
    expect((await third.listGames({ limit: 100 })).total).toBe(12);
    expect(problems).toEqual([]);
    await third.close();
  });

  it('refuses a data folder or game file written by a newer server, saying what to do', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'index'));
    writeFileSync(join(dir, 'index', 'manifest.json'), JSON.stringify({ format: 6, shards: {} }));
    await expect(new LowdbGameStore({ dataDir: dir }).open()).rejects.toThrow(
      /written by a newer server \(format 6; this server reads formats 1 to 5\)\. Run the newer server/,
    );
    const d1 = tempDir();
    writeFileSync(join(d1, 'index.json'), JSON.stringify({ version: 6, games: [] }));
    await expect(new LowdbGameStore({ dataDir: d1 }).open()).rejects.toThrow(
      /format 6; this server reads formats 1 to 5/,
    );
    const d2 = tempDir();
    const store = new LowdbGameStore({ dataDir: d2 });
    await store.open();
    const meta = metaFor();
    await store.create(meta, entriesAfter([], 1));
    await store.close();
    writeFileSync(join(d2, 'games', `${meta.id}.json`), JSON.stringify({ format: 3, meta }));
    const s2 = new LowdbGameStore({ dataDir: d2 });
    await s2.open();
    await expect(s2.readMeta(meta.id)).rejects.toBeInstanceOf(StoreFormatError);
    await s2.close();
  });

  it('keeps every game in the index when a later run changes only a few (each shard is written whole)', async () => {
    const dir = tempDir();
    const first = new LowdbGameStore({ dataDir: dir });
    await first.open();
    // 600 games: every one of the 256 shards holds some.
    const metas = Array.from({ length: 600 }, () => metaFor());
    const logs = new Map<string, LogEntry[]>();
    for (const meta of metas) {
      const log: LogEntry[] = [];
      logs.set(meta.id, log);
      await first.create(meta, entriesAfter(log, 1));
    }
    await first.close();
    // A second run moves one game each in a few shards; its compactions rewrite those shards while
    // the other rows of each are not read yet (they are read from the shard file when asked for,
    // so they must be taken into memory before the file is replaced). Then it stops; a third starts.
    const second = new LowdbGameStore({ dataDir: dir, compactAfter: 1 });
    await second.open();
    for (const meta of metas.slice(0, 5)) {
      await second.append(meta.id, { expectedSeq: 1, entries: entriesAfter(logs.get(meta.id)!, 1) });
      await second.drain();
    }
    for (const meta of metas) expect((await second.entry(meta.id))?.names).toEqual(['Ada']);
    await second.close();
    const third = new LowdbGameStore({ dataDir: dir });
    await third.open();
    expect((await third.listGames({ limit: 1000 })).total).toBe(600);
    for (const meta of metas)
      expect(await third.findKey(meta.adminKeyHash)).toEqual({ gameId: meta.id, role: 'admin' });
    expect((await third.entry(metas[0]!.id))!.lastSeq).toBe(2);
    expect((await third.entry(metas[9]!.id))!.lastSeq).toBe(1);
    await third.close();
  });

  it.each([3, 4])('reads an index in shards of format %i and writes it again as format 5', async (format) => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const metas = Array.from({ length: 30 }, () => metaFor());
    for (const meta of metas) await store.create(meta, entriesAfter([], 2));
    const rows = await Promise.all(metas.map((m) => store.entry(m.id)));
    await store.close();
    // The index as an earlier server wrote it: format 3, xx.json shards of IndexEntry rows with hex
    // hashes; format 4, xx.idx shards of one JSON line of rows as arrays, then their hashes' bytes.
    rmSync(join(dir, 'index'), { recursive: true });
    mkdirSync(join(dir, 'index'));
    const byShard = new Map<string, unknown[]>();
    for (const row of rows) {
      const name = shardFile(dir, row!.id).slice(-6, -4);
      byShard.set(name, [...(byShard.get(name) ?? []), row]);
    }
    for (const [name, games] of byShard) {
      if (format === 3) writeFileSync(join(dir, 'index', `${name}.json`), JSON.stringify({ format, games }));
      else {
        const split = (games as IndexEntry[]).map(splitEntry);
        const hashes = Buffer.concat(split.map((x) => x.bytes ?? Buffer.alloc(0)));
        const head = JSON.stringify({ format, bytes: hashes.length, rows: split.map((x) => toStored(x.row)) });
        writeFileSync(join(dir, 'index', `${name}.idx`), Buffer.concat([Buffer.from(`${head}\n`), hashes]));
      }
    }
    const counts = Object.fromEntries([...byShard].map(([n, g]) => [n, g.length]));
    writeFileSync(join(dir, 'index', 'manifest.json'), JSON.stringify({ format, shards: counts }));

    const problems: string[] = [];
    const again = new LowdbGameStore({ dataDir: dir, onProblem: (m) => problems.push(m) });
    await again.open();
    expect(problems).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'index', 'manifest.json'), 'utf8')).format).toBe(5);
    const files = readdirSync(join(dir, 'index'));
    expect(files.filter((f) => f.endsWith('.json') && f !== 'manifest.json')).toEqual([]);
    expect(files.filter((f) => f.endsWith('.idx'))).toHaveLength(byShard.size);
    for (const [i, meta] of metas.entries()) {
      expect(await again.entry(meta.id)).toEqual(rows[i]);
      expect(await again.findKey(meta.seats[0]!.keyHash)).toEqual({ gameId: meta.id, role: 'seat', seat: 0 });
    }
    await again.close();
  });

  it('keeps names and titles past ASCII across a restart (the shards store them escaped)', async () => {
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir });
    await store.open();
    const meta = metaFor({ title: 'Zürich – 東京 🚂' });
    meta.seats[0]!.name = 'Zoë';
    await store.create(meta, entriesAfter([], 1));
    await store.close();
    const again = new LowdbGameStore({ dataDir: dir });
    await again.open();
    const row = (await again.entry(meta.id))!;
    expect([row.title, row.names]).toEqual(['Zürich – 東京 🚂', ['Zoë']]);
    await again.close();
  });
});

describe('appends racing compaction', () => {
  it('an append to a game that a compaction writes out and drops from memory before the append is applied lands, and survives a restart', async () => {
    // The race, made certain: a compaction runs after every line (compactAfter 1); the game's
    // create leaves it pending and sets one off; the append starts while the game is still
    // pending, and its sync round is held until that compaction has written the game to its
    // files and dropped it from memory. Before the fix the append then found no pending game
    // to apply to and threw, after its line was durable in the journal.
    const dir = tempDir();
    const store = new LowdbGameStore({ dataDir: dir, compactAfter: 1 });
    await store.open();
    const meta = metaFor();
    const log: LogEntry[] = [];
    await store.create(meta, entriesAfter(log, 1));
    const inside = store as unknown as {
      pending: Map<string, unknown>;
      flushing: Promise<void> | null;
      committer: { syncRound: () => Promise<void> };
    };
    expect(inside.pending.has(meta.id)).toBe(true);
    const syncRound = inside.committer.syncRound.bind(inside.committer);
    let held = 0;
    inside.committer.syncRound = async () => {
      while (inside.flushing) {
        held++;
        await inside.flushing;
      }
      return syncRound();
    };
    await store.append(meta.id, {
      expectedSeq: 1,
      entries: entriesAfter(log, 1),
      meta: { updatedAt: '2026-01-01T13:00:00.000Z' },
    });
    expect(held).toBeGreaterThan(0);
    inside.committer.syncRound = syncRound;
    await store.append(meta.id, { expectedSeq: 2, entries: entriesAfter(log, 1) });
    expect((await store.entry(meta.id))!.lastSeq).toBe(3);
    expect((await store.readLog(meta.id)).map((e) => e.hash)).toEqual(log.map((e) => e.hash));
    expect((await store.readMeta(meta.id))!.updatedAt).toBe('2026-01-01T13:00:00.000Z');
    await store.close();
    const again = new LowdbGameStore({ dataDir: dir });
    await again.open();
    expect((await again.readLog(meta.id)).map((e) => e.hash)).toEqual(log.map((e) => e.hash));
    expect((await again.readMeta(meta.id))!.updatedAt).toBe('2026-01-01T13:00:00.000Z');
    await again.close();
  });
});
