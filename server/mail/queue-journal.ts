// The mail queue's append-only journal (queue/journal-<time>-<random>.jsonl):
// one line per queued message, made durable by one fdatasync shared by every
// line that arrived meanwhile (group commit), instead of a file of its own per
// message (temp file, fsync, rename, fsync of the folder). A reply waits for its
// answer to be queued (inbound/desk.ts): this is that wait.
//
// A journal file takes at most ROTATE_AFTER lines, then the next line opens a
// new one (its creation made durable by an fsync of the folder, once). The queue
// treats a journal file as it treats a batch file (queue.ts): its messages get a
// file of their own only when they are attempted, and the journal file goes once
// every message in it is done and no line can be added to it any more. At start
// every line of every journal file is read; a last line cut short by a crash was
// never acknowledged to anybody and is left out.
//
// The receipts of sent mail are kept the same way (sent/receipts-*.jsonl, queue.ts):
// such a file is never retired by its messages, only removed whole when pruned.
import fs from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsyncDirShared } from '../store/durable-file.ts';

const ROTATE_AFTER = 500;

const call = <T>(f: (cb: (err: NodeJS.ErrnoException | null, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => f((err, v) => (err ? reject(err) : resolve(v as T))));

interface Waiting {
  line: string;
  resolve: (file: string) => void;
  reject: (err: unknown) => void;
}

export const isJournalFile = (name: string) => name.startsWith('journal-') && name.endsWith('.jsonl');
export const isReceiptsFile = (name: string) => name.startsWith('receipts-') && name.endsWith('.jsonl');

export class QueueJournal {
  private fd: number | null = null;
  private file: string | null = null;
  private lines = 0;
  private waiting: Waiting[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly now: () => number,
    /** What its files' names start with (the queue's: journal-; the receipts': receipts-). */
    private readonly prefix = 'journal-',
  ) {}

  /** The file lines go to now (null: the next line opens a new one). */
  get current(): string | null {
    return this.file;
  }

  /** Appends one line (no line breaks in it); resolves with the journal file's name once it is durable. */
  append(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ line, resolve, reject });
      this.flushing ??= this.flush().finally(() => {
        this.flushing = null;
      });
    });
  }

  /** Stops adding to `file` if it is the current one and nothing is being written (it may then be removed). */
  retire(file: string): boolean {
    if (this.file !== file) return true;
    if (this.flushing || this.waiting.length > 0) return false;
    this.closeCurrent();
    return true;
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.closeCurrent();
  }

  private closeCurrent(): void {
    if (this.fd !== null) fs.close(this.fd, () => {});
    this.fd = null;
    this.file = null;
    this.lines = 0;
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const room = this.fd === null ? ROTATE_AFTER : ROTATE_AFTER - this.lines;
      const batch = this.waiting.splice(0, Math.max(1, room));
      try {
        let created = false;
        if (this.fd === null) {
          const name = `${this.prefix}${this.now()}-${randomBytes(6).toString('hex')}.jsonl`;
          this.fd = await call<number>((cb) => fs.open(join(this.dir, name), 'wx', 0o600, cb));
          this.file = name;
          this.lines = 0;
          created = true;
        }
        const fd = this.fd;
        const data = Buffer.from(batch.map((w) => `${w.line}\n`).join(''));
        let off = 0;
        while (off < data.length)
          off += await call<number>((cb) => fs.write(fd, data, off, data.length - off, null, cb));
        await call<void>((cb) => fs.fdatasync(fd, cb));
        if (created) await fsyncDirShared(this.dir);
        const file = this.file!;
        this.lines += batch.length;
        if (this.lines >= ROTATE_AFTER) this.closeCurrent();
        for (const w of batch) w.resolve(file);
      } catch (err) {
        // A file that failed a write may hold part of a line: no more lines go to it.
        this.closeCurrent();
        for (const w of batch) w.reject(err);
      }
    }
  }
}

/** The records of a journal file; a line that cannot be read (the last, cut by a crash) is left out. */
export function journalLines(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // cut short by a crash: never acknowledged
    }
  }
  return out;
}
