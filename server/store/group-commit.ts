// Durable writes with group commit.
//
// Each game file is written the safe way: a temp file, fsync, rename over the
// old file, fsync the folder. Under load many games are written at once, so
// the writes waiting at a moment form one batch: every file is written and
// fsynced in parallel, renamed in order, then ONE folder fsync (and one fsync
// of the index journal, whose lines ride in the same batch) makes the whole
// batch durable. Each caller's promise resolves only after that.
// File contents use fdatasync (data and the size needed to read it back; not
// the timestamps); the folder gets a full fsync so the renames are durable.
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

interface PendingWrite {
  file: string;
  /** null: only a journal line. */
  content: string | null;
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
  private inFlight = new Set<Promise<void>>();
  private busyFiles = new Set<string>();
  private journal: FileHandle | null = null;
  private compacting: Promise<void> | null = null;
  /** Runs with no batch in flight (index compaction); no batch starts until it is done. */
  betweenBatches: (() => Promise<void>) | null = null;

  /**
   * @param maxInFlight batches committing at once; a file is never in two of
   *   them, so its writes land in order.
   */
  constructor(private dir: string, private journalPath: string | null, private maxInFlight = 3) {}

  /** Resolves once `content` is durably in `file` and `journalLine` durably in the journal. */
  write(file: string, content: string | null, journalLine: string | null = null): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ file, content, journalLine, resolve, reject });
      this.pump();
    });
  }

  /** Waits for every write queued so far. */
  async drain(): Promise<void> {
    while (this.pending.length > 0 || this.inFlight.size > 0 || this.compacting) {
      await Promise.allSettled([...this.inFlight, this.compacting ?? Promise.resolve()]);
      if (this.pending.length > 0 && this.inFlight.size === 0 && !this.compacting) this.pump();
    }
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

  /** Starts batches while there is room and work whose files are not already being written. */
  private pump(): void {
    while (!this.compacting && this.inFlight.size < this.maxInFlight && this.pending.length > 0) {
      const batch: PendingWrite[] = [];
      const rest: PendingWrite[] = [];
      const files = new Set<string>();
      for (const w of this.pending) {
        if (this.busyFiles.has(w.file)) rest.push(w);
        else {
          batch.push(w);
          files.add(w.file);
        }
      }
      if (batch.length === 0) return;
      this.pending = rest;
      for (const f of files) this.busyFiles.add(f);
      const run: Promise<void> = this.commitBatch(batch).then(
        () => batch.forEach((w) => w.resolve()),
        (err) => batch.forEach((w) => w.reject(err)),
      ).finally(() => {
        for (const f of files) this.busyFiles.delete(f);
        this.inFlight.delete(run);
        if (this.inFlight.size === 0 && this.betweenBatches && !this.compacting) {
          const between = this.betweenBatches;
          this.compacting = between().catch(() => {}).finally(() => {
            this.compacting = null;
            this.pump();
          });
        } else this.pump();
      });
      this.inFlight.add(run);
    }
  }

  private async commitBatch(batch: PendingWrite[]): Promise<void> {
    // Only the last write of a file in a batch needs to reach the disk; the
    // earlier ones are superseded and resolve with it.
    const last = new Map<string, PendingWrite>();
    for (const w of batch) if (w.content !== null) last.set(w.file, w);
    await Promise.all(
      [...last.values()].map(async (w) => {
        const tmp = `${w.file}.tmp-${process.pid}-${++tmpCounter}`;
        const fh = await open(tmp, 'w', 0o600);
        try {
          await fh.writeFile(w.content!);
          await fh.datasync();
        } finally {
          await fh.close();
        }
        await rename(tmp, w.file);
      }),
    );
    const lines = batch.flatMap((w) => (w.journalLine ? [w.journalLine + '\n'] : [])).join('');
    const journalDone = (async () => {
      if (!lines) return;
      const j = (await this.journalHandle())!;
      await j.appendFile(lines);
      await j.datasync();
    })();
    await Promise.all([last.size > 0 ? fsyncDir(this.dir) : Promise.resolve(), journalDone]);
  }
}
