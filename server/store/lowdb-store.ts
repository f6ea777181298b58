// The embedded store: one lowdb JSON document per game (DATA_DIR/games/<id>.json)
// written through a durable adapter, plus a small index:
//   DATA_DIR/index.json     snapshot of every game's IndexEntry
//   DATA_DIR/index.journal  IndexEntry lines written since the snapshot,
//                           made durable in the same group commit as the game file
// Opening the store reads only those two files. A game file is read when the
// game is opened; its hash chain is checked then, and a damaged one is
// reported by name (DamagedGameError) without touching the others.
import { readFile, readdir, mkdir, unlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { checkChain } from './chain';
import { GroupCommitter, writeFileDurably } from './group-commit';
import { indexEntryOf } from './index-entry';
import { DamagedGameError, type GameDoc, type GameStore, type IndexEntry } from './types';

const GAME_ID = /^[A-Za-z0-9_-]{4,64}$/;
/** Journal lines before the index snapshot is rewritten. */
const COMPACT_AFTER = 20_000;

/** lowdb adapter: reads a game file, writes it durably through the group committer. */
class DurableGameAdapter implements Adapter<GameDoc | null> {
  constructor(private id: string, private file: string, private committer: GroupCommitter, private onWritten: (entry: IndexEntry) => void) {}

  async read(): Promise<GameDoc | null> {
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
    await this.committer.write(this.file, JSON.stringify(doc), JSON.stringify(entry), () => this.onWritten(entry));
  }
}

export interface LowdbStoreOptions {
  dataDir: string;
  /** Called with the file name of a damaged index line or game file (logging). */
  onProblem?: (message: string) => void;
  /** Journal lines before the index snapshot is rewritten (default 20,000). */
  compactAfter?: number;
}

export class LowdbGameStore implements GameStore {
  readonly gamesDir: string;
  private index = new Map<string, IndexEntry>();
  private dbs = new Map<string, Low<GameDoc | null>>();
  private committer: GroupCommitter;
  private journalLines = 0;
  private indexFile: string;
  private journalFile: string;

  constructor(private opts: LowdbStoreOptions) {
    this.gamesDir = join(opts.dataDir, 'games');
    this.indexFile = join(opts.dataDir, 'index.json');
    this.journalFile = join(opts.dataDir, 'index.journal');
    this.committer = new GroupCommitter(this.gamesDir, this.journalFile);
    this.committer.betweenBatches = () => this.compactIfDue();
  }

  async open(): Promise<void> {
    await mkdir(this.gamesDir, { recursive: true });
    const hadIndex = existsSync(this.indexFile) || existsSync(this.journalFile);
    if (existsSync(this.indexFile)) {
      try {
        const snap = JSON.parse(await readFile(this.indexFile, 'utf8')) as { games: IndexEntry[] };
        for (const e of snap.games) this.index.set(e.id, e);
      } catch (err) {
        this.opts.onProblem?.(`${this.indexFile} unreadable (${(err as Error).message}); rebuilding the index from the game files`);
        await this.rebuildIndex();
        return;
      }
    }
    if (existsSync(this.journalFile)) {
      const text = await readFile(this.journalFile, 'utf8');
      for (const line of text.split('\n')) {
        if (!line) continue;
        try {
          const e = JSON.parse(line) as IndexEntry;
          this.index.set(e.id, e);
          this.journalLines++;
        } catch {
          // A torn last line of a batch that was never acknowledged.
        }
      }
    }
    if (!hadIndex) await this.rebuildIndex();
    void this.removeTempFiles();
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
    await db.write();
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
    if (this.journalLines > 0) await this.writeSnapshot();
    await this.committer.close();
  }

  /** Waits until every write so far is durable. */
  drain(): Promise<void> {
    return this.committer.drain();
  }

  private db(gameId: string): Low<GameDoc | null> {
    let db = this.dbs.get(gameId);
    if (!db) {
      const file = join(this.gamesDir, `${gameId}.json`);
      db = new Low<GameDoc | null>(
        new DurableGameAdapter(gameId, file, this.committer, (entry) => {
          this.index.set(entry.id, entry);
          this.journalLines++;
        }),
        null,
      );
      this.dbs.set(gameId, db);
    }
    return db;
  }

  private async compactIfDue(): Promise<void> {
    if (this.journalLines >= (this.opts.compactAfter ?? COMPACT_AFTER)) await this.writeSnapshot();
  }

  private async writeSnapshot(): Promise<void> {
    await writeFileDurably(this.indexFile, JSON.stringify({ version: 1, games: this.list() }));
    await this.committer.truncateJournal();
    this.journalLines = 0;
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
    if (files.length > 0) await this.writeSnapshot();
  }

  private async removeTempFiles(): Promise<void> {
    try {
      for (const f of await readdir(this.gamesDir)) {
        if (f.includes('.tmp-') && !f.includes(`.tmp-${process.pid}-`)) await unlink(join(this.gamesDir, f)).catch(() => {});
      }
    } catch {
      /* nothing to tidy */
    }
  }
}
