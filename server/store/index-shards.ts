// The embedded store's index on disk, in shards (format 5):
//   DATA_DIR/index/xx.idx         the rows of the games whose id hashes to xx, as
//                                 index-table.ts lays a shard out: a header line, each
//                                 row's plain fields as a line of JSON, fixed records of
//                                 what scans read, and the rows' hashes as raw bytes
//   DATA_DIR/index/manifest.json  { format: 5, shards: { xx: rows } }, written after the shards
// Older formats are read and rewritten as format 5 at the first start of a newer server:
// format 3 kept each shard as JSON rows with hex hashes (xx.json), format 4 as one line of
// JSON rows followed by their hashes (xx.idx).
// Why shards: one index document of every game is stringified whole on the
// event loop at each compaction (about 77 MB at 100,000 games: stalls of
// seconds while moves wait) and stops fitting in one JavaScript string at
// about 700,000 games. A compaction rewrites only the shards whose games
// changed, one at a time, yielding to the event loop between them; each is a
// few hundred rows at 100,000 games.
// Why this layout: a start-up with 100,000 games parsed every row and every
// hash as hex, which took most of its time and memory; now it reads fixed
// records and copies bytes, and parses a row only when somebody asks for it.
// Crash safety: each shard is written to a temp file, fsynced and renamed;
// the folder is fsynced once; then the manifest. The journal that the
// compaction folds in is removed only after that, so a crash leaves the
// journal to replay over whatever mix of old and new shards is on disk. A
// shard the manifest counts rows for but which is missing or unreadable makes
// the index damaged: the store rebuilds it from the game files. Each .idx file
// says its own format, so a migration cut short reads whatever mix it left.
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeFileDurable } from './durable-file.ts';
import { syncDirFast } from './group-commit.ts';
import { SHARD_BYTES_FORMAT, type IndexTable } from './index-table.ts';
import type { StoredRow } from './index-row.ts';
import { StoreFormatError, type IndexEntry } from './types.ts';

export const SHARD_FORMAT = SHARD_BYTES_FORMAT;
const SHARDS = 256;

/** FNV-1a of a string's characters (32 bits): spreads random ids evenly, cheaply. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The shard of a game id: FNV-1a of its characters, low byte (ids are random, so shards fill evenly). */
export function shardOf(id: string): number {
  return fnv1a(id) & (SHARDS - 1);
}

const shardName = (n: number) => n.toString(16).padStart(2, '0');

/** The file holding a game's index row. */
export function shardFile(dataDir: string, id: string): string {
  return join(dataDir, 'index', `${shardName(shardOf(id))}.idx`);
}

export interface LoadedShards {
  /** A shard the manifest counts is missing or unreadable: rebuild the index from the game files. */
  damaged: string | null;
  /** The shards were of an older format: write them all again. */
  older: boolean;
}

export class IndexShards {
  readonly dir: string;
  readonly manifestFile: string;
  /** The ids of each shard's games. */
  private members: Set<string>[] = Array.from({ length: SHARDS }, () => new Set());
  private dirty = new Set<number>();

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'index');
    this.manifestFile = join(this.dir, 'manifest.json');
  }

  /** Whether an index in shards was ever written here. */
  exists(): boolean {
    return existsSync(this.manifestFile);
  }

  /**
   * Reads every shard into `table`; StoreFormatError for a newer format. Synchronous reads:
   * this runs once, before the server answers anything, and fs.promises' readFile is several
   * times slower on files of this size.
   */
  async load(table: IndexTable): Promise<LoadedShards> {
    let manifest: { format?: unknown; shards?: Record<string, number> };
    try {
      manifest = JSON.parse(await readFile(this.manifestFile, 'utf8'));
    } catch (err) {
      return { damaged: `${this.manifestFile} unreadable (${(err as Error).message})`, older: false };
    }
    this.refuseNewer(this.manifestFile, manifest.format);
    const older = manifest.format !== SHARD_FORMAT;
    const json = typeof manifest.format === 'number' && manifest.format <= 3; // format 3: xx.json
    table.expect(Object.values(manifest.shards ?? {}).reduce((a, b) => a + (Number(b) || 0), 0));
    let damaged: string | null = null;
    for (const [name, count] of Object.entries(manifest.shards ?? {})) {
      if (!/^[0-9a-f]{2}$/.test(name) || count === 0) continue;
      const file = join(this.dir, `${name}.${json ? 'json' : 'idx'}`);
      const members = this.members[Number.parseInt(name, 16)]!;
      try {
        const ids = json ? this.loadFormat3(file, table) : this.loadShard(file, table);
        for (const id of ids) members.add(id);
      } catch (err) {
        if (err instanceof StoreFormatError) throw err;
        damaged ??= `${file} unreadable (${(err as Error).message})`;
      }
    }
    if (older) for (let n = 0; n < SHARDS; n++) if (this.members[n]!.size > 0) this.dirty.add(n);
    return { damaged, older };
  }

  private loadShard(file: string, table: IndexTable): string[] {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const start = Buffer.alloc(24);
      readSync(fd, start, 0, 24, 0);
      const format = Number(/^\{"format":(\d+)/.exec(start.toString('latin1'))?.[1]);
      this.refuseNewer(file, format);
      if (format === SHARD_FORMAT)
        return table.decode({
          size,
          file,
          read(into, at, length, position) {
            if (readSync(fd, into, at, length, position) !== length) throw new Error('cut short');
          },
        });
      if (format !== 4) throw new Error('no header line');
    } finally {
      closeSync(fd);
    }
    const buf = readFileSync(file);
    const nl = buf.indexOf(10);
    const head = JSON.parse(buf.toString('latin1', 0, nl)) as { bytes?: number; rows?: StoredRow[] };
    const hashes = buf.subarray(nl + 1);
    if (hashes.length !== head.bytes)
      throw new Error(`${hashes.length} bytes of hashes where ${head.bytes} were written`);
    return table.decodeFormat4(head.rows ?? [], hashes);
  }

  private loadFormat3(file: string, table: IndexTable): string[] {
    const shard = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; games?: IndexEntry[] };
    this.refuseNewer(file, shard.format);
    const rows = shard.games ?? [];
    for (const e of rows) table.set(e);
    return rows.map((e) => e.id);
  }

  private refuseNewer(file: string, format: unknown): void {
    if (typeof format === 'number' && format > SHARD_FORMAT)
      throw new StoreFormatError(
        `${file} was written by a newer server (format ${format}; this server reads formats 1 to ${SHARD_FORMAT}). Run the newer server, or restore a backup of the data folder.`,
      );
  }

  /** A game's row changed (or is new): its shard is written at the next write(). */
  changed(id: string): void {
    const n = shardOf(id);
    this.members[n]!.add(id);
    this.dirty.add(n);
  }

  /**
   * Writes the changed shards, one at a time with a turn of the event loop between them, then
   * the manifest; then removes shard files of an older format.
   */
  async write(table: IndexTable): Promise<void> {
    const work = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    if (work.length === 0 && this.exists()) return;
    try {
      await mkdir(this.dir, { recursive: true });
      for (const n of work) {
        await this.writeShard(n, table.encode(this.members[n]!));
        await new Promise((r) => setImmediate(r));
      }
      await syncDirFast(this.dir);
      const shards: Record<string, number> = {};
      for (let n = 0; n < SHARDS; n++) if (this.members[n]!.size > 0) shards[shardName(n)] = this.members[n]!.size;
      await writeFileDurable(this.manifestFile, JSON.stringify({ format: SHARD_FORMAT, shards }));
    } catch (err) {
      for (const n of work) this.dirty.add(n); // written again at the next compaction
      throw err;
    }
    // Shards of format 3, now that the manifest no longer names them.
    for (const f of await readdir(this.dir).catch(() => [] as string[]))
      if (/^[0-9a-f]{2}\.json$/.test(f)) await unlink(join(this.dir, f)).catch(() => {});
  }

  /** Temp file, fsync, rename (the folder is fsynced once for all shards). */
  private async writeShard(n: number, bytes: Buffer): Promise<void> {
    const path = join(this.dir, `${shardName(n)}.idx`);
    const tmp = join(this.dir, `.${shardName(n)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  }
  /** Temp files of an earlier process that died mid-write. */
  async removeTempFiles(): Promise<void> {
    try {
      for (const f of await readdir(this.dir))
        if (f.endsWith('.tmp') && !f.includes(`.${process.pid}.`)) await unlink(join(this.dir, f)).catch(() => {});
    } catch {
      /* no folder yet */
    }
  }
}
