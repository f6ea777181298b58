// The embedded store (format 3): per game a lowdb metadata file and an
// append-only log file (game-files.ts), plus a small index:
//   DATA_DIR/index/         the index rows in 256 shards (index-shards.ts); a
//                           compaction rewrites only the shards whose games changed
//   DATA_DIR/index.journal  the shared write-ahead journal, one line per create
//                           or append: { g: id, c?: GameMeta, m?: meta fields, e: entries }
// Durability: a create or append is acknowledged once its journal line is
// fdatasync'ed. The sync is shared (group commit, group-commit.ts): every
// append that lands while one sync runs joins the next, so 32 concurrent moves
// cost one or two fdatasyncs. A line holds only what changed (the new entries
// and the metadata fields that changed), so a move writes about the size of
// its entry, not of its game.
// Compaction: when the journal has grown past a limit and no write is in
// flight, the journal is moved aside (new lines go to a fresh one) and, in the
// background, each game changed since the last compaction gets its new entries
// appended to its log file and its metadata file rewritten (fdatasync each, one
// folder fsync), then the changed index shards; only then is the old journal removed. A
// crash at any point leaves the journals (replayed at open over the files:
// entries the log file has already are skipped, metadata fields are replaced
// whole, so replaying twice changes nothing) or the rewritten files. A torn
// last journal line (a crash mid-append, never acknowledged) is cut off.
// Opening reads the index shards, the journals and, for the games named in them,
// their metadata files; it never reads every game. In memory: the index rows
// and key hashes of every game (an embedded server's whole index), and the
// metadata and entries not yet compacted into the game files.
// Data folders of format 1 (one whole document per game) are migrated at open
// (lowdb-migrate.ts), and those of format 2 (the index in one index.json) get
// their index in shards; a newer format is refused with StoreFormatError.
import { constants, existsSync } from 'node:fs';
import { access, mkdir, opendir, readFile, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { IndexShards, SHARD_FORMAT } from './index-shards.ts';
import { GameFiles } from './game-files.ts';
import { GroupCommitter, syncDirFast } from './group-commit.ts';
import { indexEntryOf } from './index-entry.ts';
import { IndexTable } from './index-table.ts';
import { isFormat1, migrateFormat1 } from './lowdb-migrate.ts';
import {
  ChainError,
  DamagedGameError,
  GameExistsError,
  StaleSeqError,
  StoreFormatError,
  type Append,
  type GameMeta,
  type GameRead,
  type GameQuery,
  type GameStore,
  type IndexEntry,
  type KeyTarget,
  type LogEnd,
  type LogEntry,
  type Snapshot,
} from './types.ts';

export const INDEX_FORMAT = SHARD_FORMAT;
const GAME_ID = /^[A-Za-z0-9_-]{4,64}$/;
/** Journal lines before the index snapshot is rewritten. */
const COMPACT_AFTER = 20_000;
/** Journal bytes before the game files are rewritten and the journal truncated. */
const COMPACT_BYTES = 8 * 1024 * 1024;

interface JournalLine {
  g: string;
  c?: GameMeta;
  m?: Partial<GameMeta>;
  e: LogEntry[];
}

/** What is durable only in the journal so far, per game. */
interface Pending {
  meta: GameMeta;
  /** Entries after `fileSeq`, in order. */
  entries: LogEntry[];
  /** Last seq in the game's log file. */
  fileSeq: number;
}

export interface LowdbStoreOptions {
  dataDir: string;
  /** Called with a problem worth logging (a damaged file, a failed compaction). */
  onProblem?: (message: string) => void;
  /** Journal lines before compaction (default 20,000). */
  compactAfter?: number;
  /** Journal bytes before compaction (default 8 MiB). */
  compactBytes?: number;
}

export class LowdbGameStore implements GameStore {
  readonly gamesDir: string;
  readonly files: GameFiles;
  /** Every game's index row, and which game each link key opens (index-table.ts). */
  private index = new IndexTable();
  private pending = new Map<string, Pending>();
  /** Per game: the tail of its chain of appends (checks and writes one at a time). */
  private chains = new Map<string, Promise<unknown>>();
  private committer: GroupCommitter;
  private journalLines = 0;
  private journalBytes = 0;
  /** Formats 1 and 2 kept the index in one file; read once and migrated to the shards. */
  private indexFile: string;
  private shards: IndexShards;
  private journalFile: string;
  /** The journal moved aside while its games are written to their files in the background. */
  private oldJournalFile: string;
  private flushing: Promise<void> | null = null;
  private flushFailed = false;

  constructor(private opts: LowdbStoreOptions) {
    this.gamesDir = join(opts.dataDir, 'games');
    this.files = new GameFiles(this.gamesDir, join(opts.dataDir, 'snapshots'));
    this.indexFile = join(opts.dataDir, 'index.json');
    this.shards = new IndexShards(opts.dataDir);
    this.journalFile = join(opts.dataDir, 'index.journal');
    this.oldJournalFile = join(opts.dataDir, 'index.journal.old');
    this.committer = new GroupCommitter(this.gamesDir, this.journalFile);
    this.committer.betweenBatches = () => this.compactIfDue();
  }

  // ---- opening -------------------------------------------------------------

  async open(): Promise<void> {
    await mkdir(this.gamesDir, { recursive: true });
    // A single index.json (formats 1 and 2) wins over shards: it is the older
    // layout, and is removed only once the shards made from it are durable.
    let legacy: { version?: number; games?: IndexEntry[] } | null = null;
    if (existsSync(this.indexFile)) {
      try {
        legacy = JSON.parse(await readFile(this.indexFile, 'utf8'));
      } catch (err) {
        this.opts.onProblem?.(`${this.indexFile} unreadable (${(err as Error).message}); rebuilding the index`);
      }
    }
    if (legacy && typeof legacy.version === 'number' && legacy.version > 2)
      throw new StoreFormatError(
        `${this.indexFile} was written by a newer server (format ${legacy.version}; this server reads formats 1 to ${INDEX_FORMAT}). Run the newer server, or restore a backup of the data folder.`,
      );
    const sharded = !legacy && this.shards.exists();
    if (!sharded && (await isFormat1(this.opts.dataDir, legacy))) {
      await migrateFormat1(this.opts.dataDir, this.files, this.opts.onProblem);
      legacy = JSON.parse(await readFile(this.indexFile, 'utf8'));
    }
    let rebuild = !legacy && !sharded;
    let olderShards = false;
    if (legacy) for (const e of legacy.games ?? []) this.setRow(e);
    else if (sharded) {
      const loaded = await this.shards.load(this.index);
      olderShards = loaded.older;
      if (loaded.damaged) {
        this.opts.onProblem?.(`${loaded.damaged}; rebuilding the index`);
        this.index = new IndexTable();
        rebuild = true;
      }
    }
    const hadOld = existsSync(this.oldJournalFile);
    if (hadOld) await this.replay(this.oldJournalFile, false);
    if (existsSync(this.journalFile)) await this.replay(this.journalFile, true);
    if (rebuild) await this.rebuildIndex();
    else if (legacy || hadOld || olderShards) {
      // From index.json, or from shards of an older format, to shards of this one; or a crash
      // during a background compaction: write everything out now.
      await this.writeSnapshot();
      if (hadOld) await unlink(this.oldJournalFile);
      if (legacy) await unlink(this.indexFile);
      await syncDirFast(this.opts.dataDir);
    }
    void this.removeTempFiles();
  }

  private async replay(file: string, current: boolean): Promise<void> {
    const buf = await readFile(file);
    const end = buf.lastIndexOf(10) + 1;
    for (const text of buf.toString('utf8', 0, end).split('\n')) {
      if (!text) continue;
      let line: JournalLine;
      try {
        line = JSON.parse(text) as JournalLine;
      } catch {
        continue; // unreadable: never acknowledged (only a torn tail can be)
      }
      if (typeof line.g !== 'string') continue;
      try {
        await this.replayLine(line);
      } catch (err) {
        this.opts.onProblem?.(`journal line for game ${line.g} not replayed: ${(err as Error).message}`);
      }
      this.journalLines++;
    }
    if (!current) return;
    this.journalBytes = end;
    if (end < buf.length) await this.committer.cutTornTail(end);
  }

  private async replayLine(line: JournalLine): Promise<void> {
    let p = this.pending.get(line.g);
    if (!p) {
      const meta = line.c ?? (await this.files.readMeta(line.g));
      if (!meta) throw new Error('no metadata');
      p = { meta, entries: [], fileSeq: await this.files.lastSeqInLog(line.g) };
      this.pending.set(line.g, p);
    }
    if (line.c) p.meta = line.c;
    if (line.m) p.meta = { ...p.meta, ...line.m };
    // Entries the log file (or an earlier line) has already are skipped.
    for (const e of line.e) if (e.seq === lastSeqOf(p) + 1) p.entries.push(e);
    const tail = p.entries[p.entries.length - 1];
    const row = this.index.tail(line.g);
    const lastSeq = tail?.seq ?? Math.max(p.fileSeq, row?.lastSeq ?? 0);
    const lastHash = tail?.hash ?? row?.lastHash ?? (await this.lastHashOnFile(line.g));
    this.setRow(indexEntryOf(p.meta, lastSeq, lastHash));
  }

  private async lastHashOnFile(id: string): Promise<string> {
    const log = await this.files.readLog(id);
    return log[log.length - 1]?.hash ?? '';
  }

  /** Only when there is no index at all (a hand-copied data folder): read every game file once. */
  private async rebuildIndex(): Promise<void> {
    const ids = (await readdir(this.gamesDir)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
    for (const id of ids) {
      if (this.pending.has(id) || !GAME_ID.test(id)) continue;
      try {
        const meta = await this.files.readMeta(id);
        const log = await this.files.readLog(id);
        if (meta) this.setRow(indexEntryOf(meta, log.length, log[log.length - 1]?.hash ?? ''));
      } catch (err) {
        this.opts.onProblem?.((err as Error).message);
      }
    }
    await this.writeSnapshot();
  }

  // ---- writing -------------------------------------------------------------

  create(meta: GameMeta, entries: LogEntry[]): Promise<IndexEntry> {
    if (!GAME_ID.test(meta.id)) return Promise.reject(new Error(`bad game id ${meta.id}`));
    return this.serial(meta.id, async () => {
      if (this.index.has(meta.id) || existsSync(this.files.metaFile(meta.id))) throw new GameExistsError(meta.id);
      checkContinues(meta.id, 0, '', entries);
      const line: JournalLine = { g: meta.id, c: meta, e: entries };
      return this.write(line, () => ({ meta, entries: [], fileSeq: 0 }));
    });
  }

  append(gameId: string, change: Append): Promise<IndexEntry> {
    return this.serial(gameId, async () => {
      const row = this.index.tail(gameId);
      if (!row) throw new StaleSeqError(gameId, change.expectedSeq, 0);
      if (row.lastSeq !== change.expectedSeq) throw new StaleSeqError(gameId, change.expectedSeq, row.lastSeq);
      checkContinues(gameId, row.lastSeq, row.lastHash, change.entries);
      let p = this.pending.get(gameId);
      const base: Pending | null = p
        ? null
        : { meta: (await this.files.readMeta(gameId))!, entries: [], fileSeq: row.lastSeq };
      if (base && !base.meta) throw new DamagedGameError(gameId, this.files.metaFile(gameId), 'metadata file missing');
      const line: JournalLine = { g: gameId, e: change.entries };
      if (change.meta && Object.keys(change.meta).length > 0) line.m = change.meta;
      // A compaction may run between this line's joining a batch and its being applied: it
      // writes the pending game to its files and drops it from `pending` (its entries on file,
      // its metadata the file's). The object it dropped is then the game as on file, so the line
      // applies to it again.
      return this.write(line, () => (p = this.pending.get(gameId) ?? p ?? base!));
    });
  }

  /** Journals a line durably, then applies it to the pending state and the index. */
  private async write(line: JournalLine, pendingOf: () => Pending): Promise<IndexEntry> {
    const text = JSON.stringify(line);
    let row!: IndexEntry;
    await this.committer.write(this.files.logFile(line.g), null, text, () => {
      const p = pendingOf();
      if (line.c) p.meta = line.c;
      if (line.m) p.meta = { ...p.meta, ...line.m };
      p.entries.push(...line.e);
      this.pending.set(line.g, p);
      const tail = line.e[line.e.length - 1];
      const before = this.index.tail(line.g);
      row = indexEntryOf(p.meta, tail?.seq ?? before?.lastSeq ?? 0, tail?.hash ?? before?.lastHash ?? '');
      this.setRow(row);
      this.journalLines++;
      this.journalBytes += Buffer.byteLength(text) + 1;
    });
    return row;
  }

  private serial<T>(gameId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(gameId) ?? Promise.resolve();
    const mine = prev.catch(() => {}).then(fn);
    const tail = mine.catch(() => {});
    this.chains.set(gameId, tail);
    void tail.then(() => {
      if (this.chains.get(gameId) === tail) this.chains.delete(gameId);
    });
    return mine;
  }

  // ---- reading -------------------------------------------------------------

  async readMeta(gameId: string): Promise<GameMeta | null> {
    if (!GAME_ID.test(gameId)) return null;
    const p = this.pending.get(gameId);
    if (p) return structuredClone(p.meta);
    if (!this.index.has(gameId)) return null;
    return this.files.readMeta(gameId);
  }

  async readLog(gameId: string, from = 1, to = Infinity): Promise<LogEntry[]> {
    if (!GAME_ID.test(gameId) || !this.index.has(gameId)) return [];
    const p = this.pending.get(gameId);
    // Entries already in the journal need no file read.
    const onFile = p && from > p.fileSeq ? [] : await this.files.readLog(gameId);
    const fileSeq = onFile.length > 0 ? onFile[onFile.length - 1]!.seq : 0;
    const all = p ? [...onFile, ...p.entries.filter((e) => e.seq > fileSeq)] : onFile;
    return all.filter((e) => e.seq >= from && e.seq <= to);
  }

  async readGame(gameId: string, afterSeq: number, opts: { snapshot?: boolean } = {}): Promise<GameRead | null> {
    // One process writes this store, and the service writes a game under its lock: the parts
    // read one after another still belong together.
    const meta = await this.readMeta(gameId);
    const row = this.index.get(gameId);
    if (!meta || !row) return null;
    const entries = await this.readLog(gameId, afterSeq + 1);
    const snapshot = opts.snapshot ? await this.readSnapshot(gameId, row.lastSeq).catch(() => null) : null;
    return { meta, row, entries, snapshot };
  }

  /**
   * A game as another thread reading its files needs it (mail/compose-reader.ts): the index row,
   * and what is only in the journal so far (the metadata, the entries past the log file's end),
   * taken in one synchronous step so the parts belong together. Null: no such game. The log file
   * is only appended to, so the reader finds at least `fileSeq` entries in it.
   */
  captured(
    gameId: string,
  ): { row: IndexEntry; unfiled: { meta: GameMeta; fileSeq: number; entries: LogEntry[] } | null } | null {
    const row = this.index.get(gameId);
    if (!row) return null;
    const p = this.pending.get(gameId);
    return { row, unfiled: p ? { meta: p.meta, fileSeq: p.fileSeq, entries: p.entries } : null };
  }

  saveSnapshot(gameId: string, snapshot: Snapshot): Promise<void> {
    if (!GAME_ID.test(gameId)) return Promise.resolve();
    return this.files.saveSnapshot(gameId, snapshot);
  }

  readSnapshot(gameId: string, atOrBefore: number): Promise<Snapshot | null> {
    if (!GAME_ID.test(gameId)) return Promise.resolve(null);
    return this.files.readSnapshot(gameId, atOrBefore);
  }

  async entry(gameId: string): Promise<IndexEntry | null> {
    return this.index.get(gameId) ?? null;
  }

  async findKey(keyHash: string): Promise<KeyTarget | null> {
    return this.index.findKey(keyHash);
  }

  async listGames(q: GameQuery): Promise<{ entries: IndexEntry[]; total: number }> {
    return this.index.list(q);
  }

  async dueReminders(now: string, limit = Infinity): Promise<IndexEntry[]> {
    return this.index.due(now, limit);
  }

  async logEnds(): Promise<readonly LogEnd[]> {
    return this.index.logEnds();
  }

  /** `changed`: false for a row read from the shards (its shard need not be written again). */
  private setRow(e: IndexEntry, changed = true): void {
    if (changed) this.shards.changed(e.id);
    this.index.set(e);
  }

  // ---- closing and compaction ----------------------------------------------

  async close(): Promise<void> {
    await this.committer.drain();
    await this.flushing;
    if (this.journalLines > 0 || this.pending.size > 0) await this.writeSnapshot();
    await this.committer.close();
  }

  /** The games folder is there and writable (the journal beside it takes every write). */
  async ping(): Promise<void> {
    await access(this.gamesDir, constants.W_OK);
  }

  /** Waits until every write so far is durable and a compaction it set off has ended. */
  async drain(): Promise<void> {
    await this.committer.drain();
    await this.flushing;
  }

  private async compactIfDue(): Promise<void> {
    if (this.flushing || this.flushFailed) return;
    if (
      this.journalLines < (this.opts.compactAfter ?? COMPACT_AFTER) &&
      this.journalBytes < (this.opts.compactBytes ?? COMPACT_BYTES)
    )
      return;
    // Writes wait only for the journal to be moved aside; the games are
    // written to their files while new lines go to a fresh journal.
    await this.committer.rotateJournal(this.oldJournalFile);
    this.journalLines = 0;
    this.journalBytes = 0;
    this.flushing = this.writeGames()
      .then(async () => {
        await this.writeIndex();
        await unlink(this.oldJournalFile);
        await syncDirFast(this.opts.dataDir);
      })
      .catch((err) => {
        // The old journal stays (replayed at the next open); no more compactions.
        this.flushFailed = true;
        this.opts.onProblem?.(`writing game files from the journal failed: ${(err as Error).message}`);
      })
      .finally(() => (this.flushing = null));
  }

  /**
   * Appends each pending game's new entries to its log file and rewrites its
   * metadata file (16 at a time), then fsyncs the folder; what was written
   * leaves the pending state unless it changed meanwhile.
   */
  private async writeGames(): Promise<void> {
    const work = [...this.pending.entries()].map(([id, p]) => ({ id, p, meta: p.meta, upto: lastSeqOf(p) }));
    for (let i = 0; i < work.length; i += 16) {
      await Promise.all(
        work.slice(i, i + 16).map(async ({ id, p, meta, upto }) => {
          const fresh = p.entries.filter((e) => e.seq > p.fileSeq && e.seq <= upto);
          if (fresh.length > 0) await this.files.appendLog(id, fresh);
          await this.files.writeMeta(meta);
        }),
      );
    }
    if (work.length > 0) await syncDirFast(this.gamesDir);
    for (const { id, p, meta, upto } of work) {
      p.entries = p.entries.filter((e) => e.seq > upto);
      p.fileSeq = upto;
      if (p.meta === meta && p.entries.length === 0 && this.pending.get(id) === p) this.pending.delete(id);
    }
  }

  /** The shards whose games changed since the last write (index-shards.ts). */
  private async writeIndex(): Promise<void> {
    await this.shards.write(this.index);
  }

  /** Writes every pending game to its files, then the index, then truncates the journal (no write in flight). */
  private async writeSnapshot(): Promise<void> {
    await this.writeGames();
    await this.writeIndex();
    await this.committer.truncateJournal();
    this.journalLines = 0;
    this.journalBytes = 0;
  }

  private async removeTempFiles(): Promise<void> {
    await this.shards.removeTempFiles();
    try {
      // Read a few hundred names at a time: readdir's one array of every name (200,000 at
      // 100,000 games) is made on the event loop in one go, a stall of about 100 ms while
      // moves land just after the start.
      const dir = await opendir(this.gamesDir, { bufferSize: 256 });
      for await (const e of dir) {
        const f = e.name;
        if (f.includes('.tmp-') && !f.includes(`.tmp-${process.pid}-`))
          await unlink(join(this.gamesDir, f)).catch(() => {});
      }
    } catch {
      /* nothing to tidy */
    }
  }
}

function lastSeqOf(p: Pending): number {
  return p.entries[p.entries.length - 1]?.seq ?? p.fileSeq;
}

/** Entries must continue the chain: seqs lastSeq+1, ... and prev = the hash before. */
export function checkContinues(gameId: string, lastSeq: number, lastHash: string, entries: LogEntry[]): void {
  let seq = lastSeq;
  let prev = lastHash;
  for (const e of entries) {
    if (e.seq !== seq + 1) throw new ChainError(gameId, `entry seq ${e.seq} where ${seq + 1} was due`);
    if (e.prev !== prev) throw new ChainError(gameId, `entry ${e.seq} does not follow the hash of entry ${seq}`);
    seq = e.seq;
    prev = e.hash;
  }
}
