// Durable writes with group commit.
//
// Each game file is written the safe way: a temp file, fsync, rename over the
// old file, fsync the folder. Under load many games are written at once, so
// the writes waiting at a moment form one batch: every file is written and
// fsynced in parallel, renamed in order, then ONE folder fsync (and one fsync
// of the index journal, whose lines ride in the same batch) makes the whole
// batch durable. Each caller's promise resolves only after that.
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

interface PendingWrite {
  file: string;
  content: string;
  journalLine: string | null;
  resolve: () => void;
  reject: (err: unknown) => void;
}

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

export class GroupCommitter {
  private pending: PendingWrite[] = [];
  private flushing: Promise<void> | null = null;
  private journal: FileHandle | null = null;
  /** Runs between batches with nothing else writing (index compaction). */
  betweenBatches: (() => Promise<void>) | null = null;

  constructor(private dir: string, private journalPath: string | null) {}

  /** Resolves once `content` is durably in `file` and `journalLine` durably in the journal. */
  write(file: string, content: string, journalLine: string | null = null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ file, content, journalLine, resolve, reject });
      if (!this.flushing) this.flushing = this.flushLoop();
    });
  }

  /** Waits for every write queued so far. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  async close(): Promise<void> {
    await this.drain();
    if (this.journal) await this.journal.close();
    this.journal = null;
  }

  /** Truncates the journal (after the index snapshot is durable). Only call from betweenBatches. */
  async truncateJournal(): Promise<void> {
    const j = await this.journalHandle();
    if (!j) return;
    await j.truncate(0);
    await j.sync();
  }

  private async journalHandle(): Promise<FileHandle | null> {
    if (!this.journalPath) return null;
    if (!this.journal) this.journal = await open(this.journalPath, 'a', 0o600);
    return this.journal;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.commitBatch(batch);
          for (const w of batch) w.resolve();
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
        if (this.betweenBatches) {
          try {
            await this.betweenBatches();
          } catch {
            /* compaction is retried after the next batch */
          }
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  private async commitBatch(batch: PendingWrite[]): Promise<void> {
    const tmps = await Promise.all(
      batch.map(async (w) => {
        const tmp = `${w.file}.tmp-${process.pid}-${++tmpCounter}`;
        const fh = await open(tmp, 'w', 0o600);
        try {
          await fh.writeFile(w.content);
          await fh.sync();
        } finally {
          await fh.close();
        }
        return tmp;
      }),
    );
    // In queue order, so two writes of one file in a batch end with the later one.
    for (let i = 0; i < batch.length; i++) await rename(tmps[i]!, batch[i]!.file);
    const lines = batch.flatMap((w) => (w.journalLine ? [w.journalLine + '\n'] : [])).join('');
    const journalDone = (async () => {
      if (!lines) return;
      const j = (await this.journalHandle())!;
      await j.appendFile(lines);
      await j.sync();
    })();
    await Promise.all([fsyncDir(this.dir), journalDone]);
  }
}
