// The mail cursor: for each game, the log position up to which the mail of every
// entry has been queued (DATA_DIR/mail/cursor.json). After a crash the entries
// past it are heard again, however long ago the crash was; games at their cursor
// are not even opened.
//
// Per game and by log position, not by time: positions in one game's log only
// grow and do not depend on any clock. The cursor may lag behind the truth (it
// is saved at most once a second, and a crash loses the last second): replaying
// an entry whose mail was queued queues nothing, because every mail is keyed by
// the entry it answers. It must never run ahead, so a position counts as done
// only when every event up to it has been handled; an event whose handling
// failed holds its game's cursor back until the next start replays it.
import { readFile } from 'node:fs/promises';
import { writeFileDurable } from '../store/durable-file.ts';
import { StoreFormatError, type IndexEntry } from '../store/types.ts';

/**
 * Version 2: the games' ids and positions as two arrays, ids in order (version 1 had one object
 * keyed by id, which at 100,000 games took half a second to read at every start). In memory the
 * arrays stay as read, searched by halves, with the changes since in a Map: no Map of every game.
 */
interface CursorFile {
  version: 2;
  ids: string[];
  seqs: number[];
}
const VERSION = 2;

/** What the notifier uses of a cursor: this file one, or the PostgreSQL one (pg-cursor.ts). */
export type MailCursorApi = Pick<MailCursor, 'load' | 'get' | 'set' | 'begin' | 'save'> & {
  /** Only the games whose log is past their cursor (a database answers this from an index). */
  behind?(): Promise<IndexEntry[]>;
};

export class MailCursor {
  /** The positions as last read or saved: ids in order (code-unit order), and their seqs. */
  private savedIds: string[] = [];
  private savedSeqs: number[] = [];
  /** Positions changed since. */
  private readonly marks = new Map<string, number>();
  /** Positions of events being handled (or failed), per game. */
  private readonly open = new Map<string, number[]>();
  private timer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly saveDelayMs = 1000,
  ) {}

  /** Reads the file; false when there is none (a new data folder, or one from before cursors). */
  async load(): Promise<boolean> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.dirty = true; // the first save writes the file even with no game in it
        return false;
      }
      throw err;
    }
    const saved = JSON.parse(text) as
      | CursorFile
      | { version: 1; games: Record<string, number> }
      | { version?: unknown };
    if (saved.version === 1 && 'games' in saved) {
      this.keep(Object.keys(saved.games), Object.values(saved.games));
      this.dirty = true; // written again as version 2 at the first save
    } else if (saved.version === VERSION && 'ids' in saved) this.keep(saved.ids, saved.seqs);
    else
      throw new StoreFormatError(
        `${this.file} was written by a newer server (version ${String(saved.version)}; this server reads versions 1 to ${VERSION}). Run the newer server, or restore a backup of the data folder.`,
      );
    return true;
  }

  /** Keeps read positions, in id order (a file of an earlier version may be in another order). */
  private keep(ids: string[], seqs: number[]): void {
    let ordered = true;
    for (let i = 1; i < ids.length && ordered; i++) ordered = ids[i - 1]! < ids[i]!;
    if (!ordered) {
      const order = Array.from(ids.keys()).sort((a, b) => (ids[a]! < ids[b]! ? -1 : 1));
      ids = order.map((i) => ids[i]!);
      seqs = order.map((i) => seqs[i]!);
    }
    this.savedIds = ids;
    this.savedSeqs = seqs;
  }

  /** The saved position of a game, found by halves. */
  private savedOf(gameId: string): number | undefined {
    const ids = this.savedIds;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid]! < gameId) lo = mid + 1;
      else hi = mid;
    }
    return ids[lo] === gameId ? this.savedSeqs[lo] : undefined;
  }

  /** Every entry of the game up to this position has had its mail queued (undefined: none known). */
  get(gameId: string): number | undefined {
    return this.marks.get(gameId) ?? this.savedOf(gameId);
  }

  /** Moves the game's cursor on to `seq` (never back). */
  set(gameId: string, seq: number): void {
    if ((this.get(gameId) ?? -1) >= seq) return;
    this.marks.set(gameId, seq);
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.save().catch(() => {}); // still dirty: the next save (at the latest the one at stop) retries
    }, this.saveDelayMs);
    this.timer.unref?.();
  }

  /**
   * An event for the entries up to `seq` is being handled. Call the returned
   * function with true once its mail is queued, false if that failed.
   */
  begin(gameId: string, seq: number): (ok: boolean) => void {
    const open = this.open.get(gameId) ?? [];
    open.push(seq);
    this.open.set(gameId, open);
    return (ok) => {
      if (!ok) return; // stays open: the cursor of this game waits for the next start
      open.splice(open.indexOf(seq), 1);
      if (open.length === 0) {
        this.open.delete(gameId);
        this.set(gameId, seq);
      } else this.set(gameId, Math.min(...open) - 1);
    };
  }

  /** Writes the cursor durably now (saves run one after another). */
  save(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.saving = this.saving
      .catch(() => {})
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        // The saved arrays and the changes, merged in id order (the changes are few).
        const changed = [...this.marks.keys()].sort();
        const written = new Map(changed.map((id) => [id, this.marks.get(id)!]));
        const ids: string[] = [];
        const seqs: number[] = [];
        let j = 0;
        for (let i = 0; i < this.savedIds.length; i++) {
          const id = this.savedIds[i]!;
          while (j < changed.length && changed[j]! < id) {
            ids.push(changed[j]!);
            seqs.push(written.get(changed[j++]!)!);
          }
          ids.push(id);
          seqs.push(changed[j] === id ? written.get(changed[j++]!)! : this.savedSeqs[i]!);
        }
        for (; j < changed.length; j++) {
          ids.push(changed[j]!);
          seqs.push(written.get(changed[j]!)!);
        }
        const body: CursorFile = { version: VERSION, ids, seqs };
        try {
          await writeFileDurable(this.file, JSON.stringify(body));
        } catch (err) {
          this.dirty = true;
          throw err;
        }
        // What was written is the saved state; changes made while writing stay in the Map.
        this.savedIds = ids;
        this.savedSeqs = seqs;
        for (const [id, seq] of written) if (this.marks.get(id) === seq) this.marks.delete(id);
      });
    return this.saving;
  }
}
