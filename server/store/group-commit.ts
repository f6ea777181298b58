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
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

let tmpCounter = 0;

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Writes `content` to `file` durably on its own (temp, fsync, rename, fsync folder). */
export async function writeFileDurably(file: string, content: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${++tmpCounter}`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
  await fsyncDir(dirname(file));
}

async function writeAndRename(file: string, content: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${++tmpCounter}`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(content);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
}

export class GroupCommitter {
  private fileChains = new Map<string, Promise<void>>();
  private active = 0;
  private journal: Promise<FileHandle> | null = null;
  private roundRunning: Promise<void> | null = null;
  private nextRound: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private idleWaiters: (() => void)[] = [];
  /** Runs when no write is in progress (index compaction); new writes wait for it. */
  betweenBatches: (() => Promise<void>) | null = null;

  constructor(private dir: string, private journalPath: string | null) {}

  /**
   * Resolves once `content` is durably in `file` and `journalLine` durably in
   * the journal. `onDurable` runs right then, before any compaction can start
   * (the store updates its in-memory index there).
   */
  async write(file: string, content: string | null, journalLine: string | null = null, onDurable?: () => void): Promise<void> {
    while (this.compacting) await this.compacting;
    this.active++;
    const prev = this.fileChains.get(file) ?? Promise.resolve();
    const mine = prev.catch(() => {}).then(async () => {
      if (content !== null) await writeAndRename(file, content);
      if (journalLine) await (await this.journalHandle())!.appendFile(journalLine + '\n');
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
    if (this.journal) await (await this.journal).close();
    this.journal = null;
  }

  /** Truncates the journal (after the index snapshot is durable). Only call from betweenBatches. */
  async truncateJournal(): Promise<void> {
    const j = await this.journalHandle();
    if (!j) return;
    await j.truncate(0);
    await j.sync();
  }

  private journalHandle(): Promise<FileHandle> | null {
    if (!this.journalPath) return null;
    if (!this.journal) this.journal = open(this.journalPath, 'a', 0o600);
    return this.journal;
  }

  /** Joins the next sync round: one folder fsync and one journal fdatasync for all who joined. */
  private syncRound(): Promise<void> {
    if (!this.nextRound) {
      this.nextRound = (async () => {
        while (this.roundRunning) await this.roundRunning.catch(() => {});
        this.nextRound = null;
        const run = (async () => {
          const j = this.journalHandle();
          await Promise.all([fsyncDir(this.dir), j ? j.then((h) => h.datasync()) : undefined]);
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
