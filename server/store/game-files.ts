// The files of one game in the embedded store (format 2):
//   games/<id>.json    lowdb document { format: 2, meta: GameMeta }: small, rewritten whole
//   games/<id>.jsonl   the log, one entry per line, only ever appended to
//   snapshots/<id>/<seq>.json   cached rules states (Snapshot), written without fsync
// Entries reach these files at compaction (lowdb-store.ts); until then they are
// durable in the shared journal.
import fs from 'node:fs';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { writeAndRename } from './group-commit.ts';
import { DamagedGameError, StoreFormatError, type GameMeta, type LogEntry, type Snapshot } from './types.ts';

export const GAME_FORMAT = 2;

export interface GameFile {
  format: number;
  meta: GameMeta;
}

const call = <T>(f: (cb: (err: NodeJS.ErrnoException | null, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => f((err, v) => (err ? reject(err) : resolve(v as T))));

/** lowdb adapter for a game's metadata file: reads and checks it, writes it durably (temp, fdatasync, rename). */
class MetaAdapter implements Adapter<GameFile | null> {
  constructor(
    private id: string,
    private file: string,
  ) {}

  async read(): Promise<GameFile | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new DamagedGameError(this.id, this.file, (err as Error).message);
    }
    let data: GameFile;
    try {
      data = JSON.parse(text) as GameFile;
    } catch (err) {
      throw new DamagedGameError(this.id, this.file, `not valid JSON (${(err as Error).message})`);
    }
    if (typeof data?.format === 'number' && data.format > GAME_FORMAT)
      throw new StoreFormatError(
        `${this.file} was written by a newer server (game format ${data.format}; this one reads up to ${GAME_FORMAT}). Run the newer server, or restore a backup.`,
      );
    if (data?.format !== GAME_FORMAT || !data.meta || data.meta.id !== this.id || !Array.isArray(data.meta.seats))
      throw new DamagedGameError(this.id, this.file, 'not a game file');
    return data;
  }

  async write(data: GameFile | null): Promise<void> {
    if (data) await writeAndRename(this.file, JSON.stringify(data));
  }
}

export class GameFiles {
  constructor(
    readonly gamesDir: string,
    readonly snapshotsDir: string,
  ) {}

  metaFile(id: string): string {
    return join(this.gamesDir, `${id}.json`);
  }

  logFile(id: string): string {
    return join(this.gamesDir, `${id}.jsonl`);
  }

  async readMeta(id: string): Promise<GameMeta | null> {
    const db = new Low<GameFile | null>(new MetaAdapter(id, this.metaFile(id)), null);
    await db.read();
    return db.data?.meta ?? null;
  }

  /** Durable once the caller fsyncs the folder (a new name) — the content is fdatasynced here. */
  async writeMeta(meta: GameMeta): Promise<void> {
    const db = new Low<GameFile | null>(new MetaAdapter(meta.id, this.metaFile(meta.id)), null);
    db.data = { format: GAME_FORMAT, meta };
    await db.write();
  }

  /**
   * The entries in the log file, in order. A torn last line (a crash while
   * appending at compaction; those entries are still in the journal) is left out.
   */
  async readLog(id: string): Promise<LogEntry[]> {
    let buf: Buffer;
    try {
      buf = await readFile(this.logFile(id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new DamagedGameError(id, this.logFile(id), (err as Error).message);
    }
    const end = buf.lastIndexOf(10) + 1;
    const out: LogEntry[] = [];
    if (end === 0) return out;
    for (const line of buf.toString('utf8', 0, end - 1).split('\n')) {
      try {
        out.push(JSON.parse(line) as LogEntry);
      } catch (err) {
        throw new DamagedGameError(id, this.logFile(id), `line ${out.length + 1}: ${(err as Error).message}`);
      }
    }
    return out;
  }

  /** Seq of the last complete entry in the log file (reads only its tail); 0 for none. */
  async lastSeqInLog(id: string): Promise<number> {
    let fd: number;
    try {
      fd = await call<number>((cb) => fs.open(this.logFile(id), 'r', cb));
    } catch {
      return 0;
    }
    try {
      const size = (await call<fs.Stats>((cb) => fs.fstat(fd, cb))).size;
      for (let span = 4096; ; span *= 4) {
        const from = Math.max(0, size - span);
        const buf = Buffer.alloc(size - from);
        await call<number>((cb) => fs.read(fd, buf, 0, buf.length, from, cb));
        const end = buf.lastIndexOf(10);
        if (end < 0 && from === 0) return 0;
        const start = end < 0 ? -1 : buf.lastIndexOf(10, end - 1);
        if (start >= 0 || from === 0) return (JSON.parse(buf.toString('utf8', start + 1, end)) as LogEntry).seq;
      }
    } finally {
      await call<void>((cb) => fs.close(fd, cb));
    }
  }

  /**
   * Appends entries to the log file and fdatasyncs it (the caller fsyncs the
   * folder for a new file). A torn tail is cut first, so lines start clean.
   */
  async appendLog(id: string, entries: LogEntry[]): Promise<void> {
    const file = this.logFile(id);
    const fd = await call<number>((cb) => fs.open(file, 'a+', 0o600, cb));
    try {
      const size = (await call<fs.Stats>((cb) => fs.fstat(fd, cb))).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await call<number>((cb) => fs.read(fd, last, 0, 1, size - 1, cb));
        if (last[0] !== 10) {
          const whole = await readFile(file);
          await call<void>((cb) => fs.ftruncate(fd, whole.lastIndexOf(10) + 1, cb));
        }
      }
      const data = Buffer.from(entries.map((e) => JSON.stringify(e) + '\n').join(''));
      let off = 0;
      while (off < data.length) off += await call<number>((cb) => fs.write(fd, data, off, data.length - off, null, cb));
      await call<void>((cb) => fs.fdatasync(fd, cb));
    } finally {
      await call<void>((cb) => fs.close(fd, cb));
    }
  }

  /** Writes the whole log (migration): temp file, fdatasync, rename. */
  async writeLog(id: string, entries: LogEntry[]): Promise<void> {
    await writeAndRename(this.logFile(id), entries.map((e) => JSON.stringify(e) + '\n').join(''));
  }

  async saveSnapshot(id: string, snap: Snapshot): Promise<void> {
    const dir = join(this.snapshotsDir, id);
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `.${snap.seq}.${process.pid}.tmp`);
    await writeFile(tmp, JSON.stringify({ format: GAME_FORMAT, ...snap }));
    await rename(tmp, join(dir, `${snap.seq}.json`));
  }

  async readSnapshot(id: string, atOrBefore: number): Promise<Snapshot | null> {
    let names: string[];
    try {
      names = await readdir(join(this.snapshotsDir, id));
    } catch {
      return null;
    }
    let best = -1;
    for (const n of names) {
      const m = /^(\d+)\.json$/.exec(n);
      if (m && Number(m[1]) <= atOrBefore && Number(m[1]) > best) best = Number(m[1]);
    }
    if (best < 0) return null;
    try {
      const s = JSON.parse(await readFile(join(this.snapshotsDir, id, `${best}.json`), 'utf8')) as Snapshot & {
        format: number;
      };
      if (s.format !== GAME_FORMAT || s.seq !== best) return null;
      const { format: _f, ...snap } = s;
      return snap;
    } catch {
      return null; // a cache: unreadable means absent
    }
  }
}
