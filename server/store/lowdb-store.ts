// The embedded store: one lowdb JSON document per game (DATA_DIR/games/<id>.json)
// written through a durable adapter, plus a small index:
//   DATA_DIR/index.json     snapshot of every game's IndexEntry
//   DATA_DIR/index.journal  the shared write-ahead journal: one line per write,
//                           { entry, doc } for a game document (its IndexEntry
//                           and the whole document), or a bare IndexEntry for an
//                           index-only change.
// Durability (improving on "temp, fsync, rename per write" of DESIGN.md): a save
// is acknowledged once its journal line is fdatasync'ed. That sync is shared
// (group commit): every save that lands while one sync runs joins the next, so
// 32 concurrent moves cost one or two fdatasyncs instead of 32 file syncs and
// renames. Game files are rewritten lazily: when the journal has grown past a
// limit and no write is in flight (and on close), every game changed since the
// last compaction is written durably (temp, fdatasync, rename, one folder
// fsync), then index.json, and only then is the journal truncated. A crash at
// any point leaves either the journal (replayed at open: the last line of a
// game supersedes its file) or the rewritten files, so every acknowledged save
// is present. A torn last line (a crash mid-append, never acknowledged) is
// ignored and cut off before new lines are appended.
// Opening the store reads only index.json and the journal. A game file is read
// when the game is opened (unless the journal holds a newer copy); its hash
// chain is checked then, and a damaged one is reported by name
// (DamagedGameError) without touching the others.
import { access, readFile, readdir, mkdir, unlink } from 'node:fs/promises';
import { constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { checkChain } from './chain.ts';
import { writeFileDurable } from './durable-file.ts';
import { GroupCommitter, syncDirFast, writeAndRename } from './group-commit.ts';
import { indexEntryOf } from './index-entry.ts';
import { DamagedGameError, type GameDoc, type GameStore, type IndexEntry } from './types.ts';

const GAME_ID = /^[A-Za-z0-9_-]{4,64}$/;
/** Journal lines before the index snapshot is rewritten. */
const COMPACT_AFTER = 20_000;
/** Journal bytes before the game files are rewritten and the journal truncated. */
const COMPACT_BYTES = 8 * 1024 * 1024;

/** lowdb adapter: reads a game file, writes it durably through the group committer. */
class DurableGameAdapter implements Adapter<GameDoc | null> {
  constructor(
    private id: string,
    private file: string,
    private committer: GroupCommitter,
    private onWritten: (doc: GameDoc, entry: IndexEntry, bytes: number) => void,
    private fromJournal: () => GameDoc | undefined,
  ) {}

  async read(): Promise<GameDoc | null> {
    const journaled = this.fromJournal();
    if (journaled) return this.checked(journaled);
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new DamagedGameError(this.id, this.file, (err as Error).message);
    }
    let doc: GameDoc;
    try {
      doc = JSON.parse(text) as GameDoc;
    } catch (err) {
      throw new DamagedGameError(this.id, this.file, `not valid JSON (${(err as Error).message})`);
    }
    return this.checked(doc);
  }

  private checked(doc: GameDoc): GameDoc {
    if (!doc || typeof doc !== 'object' || doc.id !== this.id || !Array.isArray(doc.log) || !Array.isArray(doc.seats)) {
      throw new DamagedGameError(this.id, this.file, 'not a game document');
    }
    const broken = checkChain(doc.log);
    if (broken) throw new DamagedGameError(this.id, this.file, `hash chain broken at seq ${broken.seq}: ${broken.why}`);
    return doc;
  }

  async write(doc: GameDoc | null): Promise<void> {
    if (!doc) return;
    const entry = indexEntryOf(doc);
    const line = `{"entry":${JSON.stringify(entry)},"doc":${JSON.stringify(doc)}}`;
    await this.committer.write(this.file, null, line, () => this.onWritten(doc, entry, Buffer.byteLength(line) + 1));
  }
}

export interface LowdbStoreOptions {
  dataDir: string;
  /** Called with the file name of a damaged index line or game file (logging). */
  onProblem?: (message: string) => void;
  /** Journal lines before the index snapshot is rewritten (default 20,000). */
  compactAfter?: number;
  /** Journal bytes before game files are rewritten and the journal truncated (default 8 MiB). */
  compactBytes?: number;
}

export class LowdbGameStore implements GameStore {
  readonly gamesDir: string;
  private index = new Map<string, IndexEntry>();
  private dbs = new Map<string, Low<GameDoc | null>>();
  /** Writes under way, per game (a game being written is never forgotten). */
  private writing = new Map<string, number>();
  private committer: GroupCommitter;
  private journalLines = 0;
  private journalBytes = 0;
  /** Games whose newest durable copy is only in the journal (rewritten to their files at compaction). */
  private pending = new Map<string, GameDoc>();
  private indexFile: string;
  private journalFile: string;
  /** The journal moved aside while its games are rewritten in the background. */
  private oldJournalFile: string;
  private flushing: Promise<void> | null = null;
  private flushFailed = false;

  constructor(private opts: LowdbStoreOptions) {
    this.gamesDir = join(opts.dataDir, 'games');
    this.indexFile = join(opts.dataDir, 'index.json');
    this.journalFile = join(opts.dataDir, 'index.journal');
    this.oldJournalFile = join(opts.dataDir, 'index.journal.old');
    this.committer = new GroupCommitter(this.gamesDir, this.journalFile);
    this.committer.betweenBatches = () => this.compactIfDue();
  }

  async open(): Promise<void> {
    await mkdir(this.gamesDir, { recursive: true });
    let rebuild = !(existsSync(this.indexFile) || existsSync(this.journalFile) || existsSync(this.oldJournalFile));
    if (existsSync(this.indexFile)) {
      try {
        const snap = JSON.parse(await readFile(this.indexFile, 'utf8')) as { games: IndexEntry[] };
        for (const e of snap.games) this.index.set(e.id, e);
      } catch (err) {
        this.opts.onProblem?.(
          `${this.indexFile} unreadable (${(err as Error).message}); rebuilding the index from the game files`,
        );
        rebuild = true;
      }
    }
    const hadOld = existsSync(this.oldJournalFile);
    if (hadOld) await this.replay(this.oldJournalFile, false);
    if (existsSync(this.journalFile)) await this.replay(this.journalFile, true);
    // (The journals are replayed first: a game's newest copy may be only there.)
    if (rebuild) await this.rebuildIndex();
    if (hadOld) {
      // A crash during a background rewrite: finish it now.
      if (this.pending.size > 0 || this.journalLines > 0) await this.writeSnapshot();
      await unlink(this.oldJournalFile);
      await syncDirFast(this.opts.dataDir);
    }
    void this.removeTempFiles();
  }

  private async replay(file: string, current: boolean): Promise<void> {
    {
      const buf = await readFile(file);
      const end = buf.lastIndexOf(10) + 1;
      const text = buf.toString('utf8', 0, end);
      for (const line of text.split('\n')) {
        if (!line) continue;
        try {
          const rec = JSON.parse(line) as IndexEntry | { entry: IndexEntry; doc: GameDoc };
          if ('doc' in rec) {
            this.index.set(rec.entry.id, rec.entry);
            this.pending.set(rec.entry.id, rec.doc);
          } else this.index.set(rec.id, rec);
          this.journalLines++;
        } catch {
          // Unreadable line: never acknowledged (only a torn tail can be).
        }
      }
      if (!current) return;
      this.journalBytes = end;
      // A torn last line (a crash mid-append) is cut so new lines start clean.
      if (end < buf.length) await this.committer.cutTornTail(end);
    }
  }

  list(): IndexEntry[] {
    return [...this.index.values()];
  }

  entry(gameId: string): IndexEntry | undefined {
    return this.index.get(gameId);
  }

  async load(gameId: string): Promise<GameDoc | null> {
    if (!GAME_ID.test(gameId)) return null;
    const db = this.db(gameId);
    await db.read();
    return db.data;
  }

  async save(doc: GameDoc): Promise<void> {
    if (!GAME_ID.test(doc.id)) throw new Error(`bad game id ${doc.id}`);
    const db = this.db(doc.id);
    db.data = doc;
    this.writing.set(doc.id, (this.writing.get(doc.id) ?? 0) + 1);
    try {
      await db.write();
    } finally {
      const n = this.writing.get(doc.id)! - 1;
      if (n > 0) this.writing.set(doc.id, n);
      else this.writing.delete(doc.id);
    }
  }

  forget(gameId: string): void {
    if (!this.writing.has(gameId)) this.dbs.delete(gameId);
  }

  async reindex(doc: GameDoc): Promise<void> {
    const entry = indexEntryOf(doc);
    if (JSON.stringify(entry) === JSON.stringify(this.index.get(doc.id))) return;
    await this.committer.write(join(this.gamesDir, `${doc.id}.json`), null, JSON.stringify(entry), () => {
      this.index.set(doc.id, entry);
      this.journalLines++;
    });
  }

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

  /** Waits until every write so far is durable. */
  async drain(): Promise<void> {
    await this.committer.drain();
    await this.flushing;
  }

  private db(gameId: string): Low<GameDoc | null> {
    let db = this.dbs.get(gameId);
    if (!db) {
      const file = join(this.gamesDir, `${gameId}.json`);
      db = new Low<GameDoc | null>(
        new DurableGameAdapter(
          gameId,
          file,
          this.committer,
          (doc, entry, bytes) => {
            this.index.set(entry.id, entry);
            this.journalLines++;
            this.journalBytes += bytes;
            this.pending.set(entry.id, doc);
          },
          () => this.pending.get(gameId),
        ),
        null,
      );
      this.dbs.set(gameId, db);
    }
    return db;
  }

  private async compactIfDue(): Promise<void> {
    if (this.flushing || this.flushFailed) return;
    if (
      this.journalLines < (this.opts.compactAfter ?? COMPACT_AFTER) &&
      this.journalBytes < (this.opts.compactBytes ?? COMPACT_BYTES)
    )
      return;
    if (this.pending.size === 0) {
      await this.writeSnapshot();
      return;
    }
    // Writes wait only for the journal to be moved aside; the games are
    // rewritten while new lines go to a fresh journal.
    await this.committer.rotateJournal(this.oldJournalFile);
    this.journalLines = 0;
    this.journalBytes = 0;
    const docs = [...this.pending.values()];
    this.flushing = this.rewriteGames(docs)
      .then(async () => {
        await writeFileDurable(this.indexFile, JSON.stringify({ version: 1, games: this.list() }));
        await unlink(this.oldJournalFile);
        await syncDirFast(this.opts.dataDir);
        for (const doc of docs) if (this.pending.get(doc.id) === doc) this.pending.delete(doc.id);
      })
      .catch((err) => {
        // The old journal stays (replayed at the next open); no more rotations.
        this.flushFailed = true;
        this.opts.onProblem?.(`rewriting game files from the journal failed: ${(err as Error).message}`);
      })
      .finally(() => (this.flushing = null));
  }

  private async rewriteGames(docs: GameDoc[]): Promise<void> {
    for (let i = 0; i < docs.length; i += 16) {
      await Promise.all(
        docs.slice(i, i + 16).map((doc) => writeAndRename(join(this.gamesDir, `${doc.id}.json`), JSON.stringify(doc))),
      );
    }
    if (docs.length > 0) await syncDirFast(this.gamesDir);
  }

  /** Rewrites every game changed since the last compaction, then the index, then truncates the journal. */
  private async writeSnapshot(): Promise<void> {
    const docs = [...this.pending.values()];
    await this.rewriteGames(docs);
    await writeFileDurable(this.indexFile, JSON.stringify({ version: 1, games: this.list() }));
    await this.committer.truncateJournal();
    this.journalLines = 0;
    this.journalBytes = 0;
    for (const doc of docs) if (this.pending.get(doc.id) === doc) this.pending.delete(doc.id);
  }

  /** Only when there is no index at all (a fresh or hand-copied data folder): read every game file once. */
  private async rebuildIndex(): Promise<void> {
    const files = (await readdir(this.gamesDir)).filter((f) => f.endsWith('.json'));
    for (const f of files) {
      const id = f.slice(0, -5);
      try {
        const doc = await this.load(id);
        if (doc) this.index.set(id, indexEntryOf(doc));
      } catch (err) {
        this.opts.onProblem?.((err as Error).message);
      }
    }
    if (files.length > 0 || this.pending.size > 0) await this.writeSnapshot();
  }

  private async removeTempFiles(): Promise<void> {
    try {
      for (const f of await readdir(this.gamesDir)) {
        if (f.includes('.tmp-') && !f.includes(`.tmp-${process.pid}-`))
          await unlink(join(this.gamesDir, f)).catch(() => {});
      }
    } catch {
      /* nothing to tidy */
    }
  }
}
