// The games a compose worker (compose-worker.ts) reads: a GameStore that only reads, for a
// GameService of the worker's own. It never writes: a snapshot it would keep is dropped (a cache),
// and a write (the service recording a game's attention) is refused, and only logged there.
//
// Over PostgreSQL the worker has its own small pool, and the database shows every commit to every
// reader: what the main thread claimed is there. Over the embedded store the worker reads the game
// files itself. Its entries reach those files only at compaction (lowdb-store.ts); until then they
// are in the journal and in the main thread's memory. So the main thread captures, in one
// synchronous step, the game's index row and what of it is not on file yet (`Capture`), and sends
// that with the job: the worker reads the log file, which is only ever appended to (a torn last
// line is left out by GameFiles.readLog), adds the captured entries past it and cuts at the
// captured row's seq, so it renders exactly the position the job was claimed at, however far
// the files have moved meanwhile. The metadata file is rewritten whole by rename (never seen
// half-written); read when nothing was pending, it is checked against the captured row, and a
// newer one (the game moved and was compacted since) makes the worker ask for a fresh capture.
import { GameFiles } from '../store/game-files.ts';
import type {
  Append,
  GameMeta,
  GameQuery,
  GameRead,
  GameStore,
  IndexEntry,
  KeyTarget,
  LogEntry,
  Snapshot,
} from '../store/types.ts';

/** What the main thread knows of an embedded game that its files may not show yet. */
export interface Capture {
  row: IndexEntry;
  /** Null: the files hold all of it (metadata included) up to row.lastSeq. */
  unfiled: { meta: GameMeta; fileSeq: number; entries: LogEntry[] } | null;
}

/** The files no longer match the capture (moved on since): the job is sent again with a fresh one. */
export class StaleCaptureError extends Error {
  constructor(gameId: string, why: string) {
    super(`game ${gameId}: ${why}`);
    this.name = 'StaleCaptureError';
  }
}

const readOnlyError = () => new Error('a compose worker reads games, it does not write them');

/** The reading half of a GameStore, the rest refused or empty. */
abstract class ReadOnlyStore implements GameStore {
  /** Every open checks what the worker keeps in memory against the store (service.ts catchUp). */
  readonly shared = true;
  abstract readGame(gameId: string, afterSeq: number, opts?: { snapshot?: boolean }): Promise<GameRead | null>;
  abstract readSnapshot(gameId: string, atOrBefore: number): Promise<Snapshot | null>;
  async open(): Promise<void> {}
  async close(): Promise<void> {}
  create(): Promise<IndexEntry> {
    return Promise.reject(readOnlyError());
  }
  append(_gameId: string, _change: Append): Promise<IndexEntry> {
    return Promise.reject(readOnlyError());
  }
  async saveSnapshot(): Promise<void> {}
  async readMeta(gameId: string): Promise<GameMeta | null> {
    return (await this.readGame(gameId, Number.MAX_SAFE_INTEGER))?.meta ?? null;
  }
  async readLog(gameId: string, from = 1, to = Infinity): Promise<LogEntry[]> {
    const read = await this.readGame(gameId, from - 1);
    return (read?.entries ?? []).filter((e) => e.seq <= to);
  }
  async entry(gameId: string): Promise<IndexEntry | null> {
    return (await this.readGame(gameId, Number.MAX_SAFE_INTEGER))?.row ?? null;
  }
  async findKey(): Promise<KeyTarget | null> {
    return null;
  }
  async listGames(_q: GameQuery): Promise<{ entries: IndexEntry[]; total: number }> {
    return { entries: [], total: 0 };
  }
  async dueReminders(): Promise<IndexEntry[]> {
    return [];
  }
}

/** A store's reads only (the worker's own PostgreSQL store). */
export class ReadingOf extends ReadOnlyStore {
  constructor(private readonly store: GameStore) {
    super();
  }
  readGame(gameId: string, afterSeq: number, opts?: { snapshot?: boolean }): Promise<GameRead | null> {
    return this.store.readGame(gameId, afterSeq, opts);
  }
  readSnapshot(gameId: string, atOrBefore: number): Promise<Snapshot | null> {
    return this.store.readSnapshot(gameId, atOrBefore);
  }
  override async close(): Promise<void> {
    await this.store.close();
  }
}

/** The embedded store's game files, as of the capture the job brought (see above). */
export class CapturedFiles extends ReadOnlyStore {
  private readonly files: GameFiles;
  /** The capture of the job being composed, per game (jobs run one at a time in a worker). */
  private readonly captures = new Map<string, Capture | null>();

  constructor(dataDir: { gamesDir: string; snapshotsDir: string }) {
    super();
    this.files = new GameFiles(dataDir.gamesDir, dataDir.snapshotsDir);
  }

  /** The position the next reads of `gameId` show (null: the game is gone). */
  expect(gameId: string, capture: Capture | null): void {
    this.captures.set(gameId, capture);
  }

  done(gameId: string): void {
    this.captures.delete(gameId);
  }

  async readGame(gameId: string, afterSeq: number, opts: { snapshot?: boolean } = {}): Promise<GameRead | null> {
    const capture = this.captures.get(gameId);
    if (capture === undefined) throw new Error(`game ${gameId} read without a capture`);
    if (capture === null) return null;
    const { row, unfiled } = capture;
    const upto = row.lastSeq;
    let meta = unfiled?.meta;
    if (!meta) {
      meta = (await this.files.readMeta(gameId)) ?? undefined;
      if (!meta) throw new StaleCaptureError(gameId, 'its metadata file is not there');
      if (meta.updatedAt !== row.updatedAt || (meta.privateRev ?? 0) !== (row.privateRev ?? 0))
        throw new StaleCaptureError(gameId, 'its metadata file is newer than the position asked for');
    }
    // Entries the worker has in memory already need no file read when the rest was captured.
    const fromFile = unfiled && afterSeq >= unfiled.fileSeq ? [] : await this.files.readLog(gameId);
    const fileEnd = fromFile.length > 0 ? fromFile[fromFile.length - 1]!.seq : afterSeq;
    const all = [...fromFile, ...(unfiled?.entries ?? []).filter((e) => e.seq > fileEnd)];
    const entries = all.filter((e) => e.seq > afterSeq && e.seq <= upto);
    const end = entries.length > 0 ? entries[entries.length - 1]!.seq : afterSeq;
    if (end < upto && afterSeq < upto)
      throw new StaleCaptureError(gameId, `the files end at entry ${end}, the job is at ${upto}`);
    const snapshot = opts.snapshot ? await this.readSnapshot(gameId, upto) : null;
    return { meta: structuredClone(meta), row, entries, snapshot };
  }

  async readSnapshot(gameId: string, atOrBefore: number): Promise<Snapshot | null> {
    return this.files.readSnapshot(gameId, atOrBefore).catch(() => null);
  }
}
