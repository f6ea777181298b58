// Migrates a data folder of store format 1 (until issue 14: one whole lowdb
// document per game, `games/<id>.json` = GameDoc with its log, and journal
// lines holding whole documents) to format 2 (lowdb-store.ts).
// Per game, the newest copy (the journal's last document, else the file) is
// written as its log file first, then its metadata file over the old document;
// a crash in between leaves the old document (it still has `log`), so the next
// start migrates that game again. Then the journals go and index.json is
// written as format 2, rebuilt from the game files. Nothing is deleted before
// its replacement is durable.
import { existsSync } from 'node:fs';
import { readFile, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from './durable-file.ts';
import type { GameFiles } from './game-files.ts';
import { syncDirFast } from './group-commit.ts';
import { indexEntryOf, metaOf } from './index-entry.ts';
import type { GameDoc, IndexEntry } from './types.ts';

/** Whether the folder holds format-1 data: an index.json of version 1, or format-1 journal lines or game files. */
export async function isFormat1(dataDir: string, snap: { version?: number } | null): Promise<boolean> {
  if (snap && snap.version === 1) return true;
  if (snap && snap.version !== undefined) return false;
  for (const j of ['index.journal.old', 'index.journal']) {
    const file = join(dataDir, j);
    if (!existsSync(file)) continue;
    const first = (await readFile(file, 'utf8')).split('\n', 1)[0] ?? '';
    if (first.startsWith('{"entry"') || first.startsWith('{"id"')) return true;
  }
  const games = join(dataDir, 'games');
  if (!existsSync(games)) return false;
  for (const f of await readdir(games)) {
    if (!f.endsWith('.json')) continue;
    try {
      return Array.isArray((JSON.parse(await readFile(join(games, f), 'utf8')) as GameDoc).log);
    } catch {}
  }
  return false;
}

export async function migrateFormat1(
  dataDir: string,
  files: GameFiles,
  onProblem?: (message: string) => void,
): Promise<void> {
  const newest = new Map<string, GameDoc>();
  for (const j of ['index.journal.old', 'index.journal']) {
    const file = join(dataDir, j);
    if (!existsSync(file)) continue;
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      try {
        const rec = JSON.parse(line) as { doc?: GameDoc };
        if (rec.doc?.id) newest.set(rec.doc.id, rec.doc);
      } catch {
        /* a torn line was never acknowledged */
      }
    }
  }
  const rows: IndexEntry[] = [];
  const ids = new Set([
    ...newest.keys(),
    ...(await readdir(files.gamesDir)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)),
  ]);
  for (const id of ids) {
    try {
      let doc = newest.get(id);
      if (!doc) {
        const onDisk = JSON.parse(await readFile(files.metaFile(id), 'utf8')) as GameDoc | { format: number };
        if (!Array.isArray((onDisk as GameDoc).log)) {
          // Migrated already (a crash after this game, before the index).
          const meta = await files.readMeta(id);
          const log = await files.readLog(id);
          if (meta) rows.push(indexEntryOf(meta, log.length, log[log.length - 1]?.hash ?? ''));
          continue;
        }
        doc = onDisk as GameDoc;
      }
      const meta = { ...metaOf(doc), rulesVersion: doc.rulesVersion ?? 1 };
      await files.writeLog(id, doc.log);
      await files.writeMeta(meta);
      rows.push(indexEntryOf(meta, doc.log.length, doc.log[doc.log.length - 1]?.hash ?? ''));
    } catch (err) {
      onProblem?.(`game ${id} not migrated: ${(err as Error).message}`);
    }
  }
  await syncDirFast(files.gamesDir);
  for (const j of ['index.journal.old', 'index.journal']) {
    if (existsSync(join(dataDir, j))) await unlink(join(dataDir, j));
  }
  await syncDirFast(dataDir);
  await writeFileDurable(join(dataDir, 'index.json'), JSON.stringify({ version: 2, games: rows }));
}
