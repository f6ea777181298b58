// Durable writes with group commit.
//
// Each game file is written the safe way: a temp file, fdatasync, rename over
// the old file, fsync the folder. The expensive last step is shared: every
// write, once renamed (and its index journal line appended), joins the next
// "sync round", which fsyncs the folder and fdatasyncs the journal once for
// everybody who joined. A round starts only after the one before it ended, so
// whoever joins while a round runs is covered by the next. Writes never wait
// for each other's files (no batch is held up by its slowest file); writes of
// one file run one after the other, so they land in order. Each caller's
// promise resolves only once its file and journal line are durable.
// File contents use fdatasync (data and the size needed to read it back; not
// the timestamps); the folder gets a full fsync so the renames are durable.
import fs from 'node:fs';
import { dirname } from 'node:path';

let tmpCounter = 0;

// The hot path uses the callback API on plain descriptors: no FileHandle
// objects to make and finalise for every move.
const call = <T>(f: (cb: (err: NodeJS.ErrnoException | null, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => f((err, v) => (err ? reject(err) : resolve(v as T))));

async function writeAll(fd: number, data: Buffer): Promise<void> {
  let off = 0;
  while (off < data.length) off += await call<number>((cb) => fs.write(fd, data, off, data.length - off, null, cb));
}

export async function writeAndRename(file: string, content: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${++tmpCounter}`;
  const fd = await call<number>((cb) => fs.open(tmp, 'w', 0o600, cb));
  try {
    await writeAll(fd, Buffer.from(content));
    await call<void>((cb) => fs.fdatasync(fd, cb));
  } finally {
    await call<void>((cb) => fs.close(fd, cb));
  }
  await call<void>((cb) => fs.rename(tmp, file, cb));
}

export async function syncDirFast(dir: string): Promise<void> {
  const fd = await call<number>((cb) => fs.open(dir, 'r', cb));
  try {
    await call<void>((cb) => fs.fsync(fd, cb));
  } finally {
    await call<void>((cb) => fs.close(fd, cb));
  }
}

export class GroupCommitter {
  private fileChains = new Map<string, Promise<void>>();
  private active = 0;
  private journal: Promise<number> | null = null;
  private roundRunning: Promise<void> | null = null;
  private nextRound: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private idleWaiters: (() => void)[] = [];
  /** A rename landed since the last round started: the next round fsyncs the folder. */
  private dirDirty = false;
  /** Journal lines waiting for the next sync round, in the order their writes reached it. */
  private queuedLines: string[] = [];
  /** Runs when no write is in progress (index compaction); new writes wait for it. */
  betweenBatches: (() => Promise<void>) | null = null;

  constructor(
    private dir: string,
    private journalPath: string | null,
  ) {}

  /**
   * Resolves once `content` is durably in `file` and `journalLine` durably in
   * the journal. `onDurable` runs right then, before any compaction can start
   * (the store updates its in-memory index there).
   */
  async write(
    file: string,
    content: string | null,
    journalLine: string | null = null,
    onDurable?: () => void,
  ): Promise<void> {
    while (this.compacting) await this.compacting;
    this.active++;
    const prev = this.fileChains.get(file) ?? Promise.resolve();
    const mine = prev
      .catch(() => {})
      .then(async () => {
        if (content !== null) {
          await writeAndRename(file, content);
          this.dirDirty = true;
        }
        // The line is appended by the next sync round, together with every
        // other line queued meanwhile (one write and one fdatasync per round).
        if (journalLine && this.journalPath) this.queuedLines.push(`${journalLine}\n`);
      });
    const tail = mine.catch(() => {});
    this.fileChains.set(file, tail);
    try {
      await mine;
      await this.syncRound();
      onDurable?.();
    } finally {
      if (this.fileChains.get(file) === tail) this.fileChains.delete(file);
      this.active--;
      if (this.active === 0) this.whenIdle();
    }
  }

  /** Waits for every write begun so far (and a compaction it set off). */
  async drain(): Promise<void> {
    while (this.active > 0 || this.compacting) {
      if (this.compacting) await this.compacting;
      else await new Promise<void>((r) => this.idleWaiters.push(r));
    }
  }

  async close(): Promise<void> {
    await this.drain();
    if (this.journal) {
      const fd = await this.journal;
      await call<void>((cb) => fs.close(fd, cb));
    }
    this.journal = null;
  }

  /**
   * Cuts a torn tail (a line without its newline, from a crash mid-append) so
   * the next line starts clean. Call before the first write.
   */
  async cutTornTail(validBytes: number): Promise<void> {
    const fd = await this.journalHandle();
    if (fd === null) return;
    await call<void>((cb) => fs.ftruncate(fd, validBytes, cb));
    await call<void>((cb) => fs.fsync(fd, cb));
  }

  /**
   * Moves the journal aside to `oldPath` (durably) so later lines go to a fresh
   * journal. Only call from betweenBatches (no append or sync in flight).
   */
  async rotateJournal(oldPath: string): Promise<void> {
    if (!this.journalPath) return;
    if (this.journal) {
      const fd = await this.journal;
      this.journal = null;
      await call<void>((cb) => fs.close(fd, cb));
    }
    await call<void>((cb) => fs.rename(this.journalPath!, oldPath, cb));
    await syncDirFast(dirname(this.journalPath));
  }

  /** Truncates the journal (after the index snapshot is durable). Only call from betweenBatches. */
  async truncateJournal(): Promise<void> {
    const fd = await this.journalHandle();
    if (fd === null) return;
    await call<void>((cb) => fs.ftruncate(fd, 0, cb));
    await call<void>((cb) => fs.fsync(fd, cb));
  }

  private journalHandle(): Promise<number | null> {
    if (!this.journalPath) return Promise.resolve(null);
    if (!this.journal) {
      const path = this.journalPath;
      this.journal = call<number>((cb) => fs.open(path, 'a', 0o600, cb));
    }
    return this.journal;
  }

  /** Joins the next sync round: one folder fsync and one journal fdatasync for all who joined. */
  private syncRound(): Promise<void> {
    if (!this.nextRound) {
      this.nextRound = (async () => {
        // Yield first: otherwise, with no round running, the lines below would
        // clear nextRound before the assignment around them sets it, leaving a
        // finished round in nextRound for every later caller (no sync at all).
        await Promise.resolve();
        while (this.roundRunning) await this.roundRunning.catch(() => {});
        this.nextRound = null;
        const lines = this.queuedLines.splice(0);
        const run = (async () => {
          const syncJournal = async () => {
            const fd = await this.journalHandle();
            if (fd === null) return;
            if (lines.length > 0) await writeAll(fd, Buffer.from(lines.join('')));
            await call<void>((cb) => fs.fdatasync(fd, cb));
          };
          const syncDir = this.dirDirty;
          this.dirDirty = false;
          await Promise.all([syncDir ? syncDirFast(this.dir) : Promise.resolve(), syncJournal()]);
        })();
        this.roundRunning = run;
        try {
          await run;
        } finally {
          if (this.roundRunning === run) this.roundRunning = null;
        }
      })();
    }
    return this.nextRound;
  }

  private whenIdle(): void {
    const waiters = this.idleWaiters.splice(0);
    if (this.betweenBatches && !this.compacting) {
      const between = this.betweenBatches;
      this.compacting = between()
        .catch(() => {})
        .finally(() => {
          this.compacting = null;
          for (const w of waiters) w();
        });
    } else for (const w of waiters) w();
  }
}
