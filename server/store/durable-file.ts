// Small durable-file helpers for the store's index, the mail queue and the outbox.
// A write is complete only once the bytes and the directory entry are on disk:
// temp file, fsync, rename over the target, fsync the folder.
import { access, open, rename, mkdir, unlink } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * fsync of a folder shared by concurrent writers: a caller joins a flush that
 * has not started yet, or queues one to start when the running one ends (a
 * flush that began before the caller's rename might not cover it). Many
 * concurrent writes into one folder then cost one directory flush, not one each.
 */
const dirFlush = new Map<string, { running: Promise<void> | null; next: Promise<void> | null }>();

export function fsyncDirShared(dir: string): Promise<void> {
  let st = dirFlush.get(dir);
  if (!st) {
    st = { running: null, next: null };
    dirFlush.set(dir, st);
  }
  const s = st;
  if (s.next) return s.next;
  const start = (): Promise<void> => {
    const p = fsyncDir(dir).finally(() => {
      if (s.running === p) s.running = null;
    });
    s.running = p;
    return p;
  };
  if (!s.running) return start();
  s.next = s.running
    .catch(() => {})
    .then(() => {
      s.next = null;
      return start();
    });
  return s.next;
}

/** Writes `data` to `path` atomically and durably. */
export async function writeFileDurable(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  await fsyncDirShared(dir);
}

/** Removes a file (if present) and makes the removal durable. */
export async function unlinkDurable(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return;
  }
  await fsyncDirShared(dirname(path));
}

export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Whether a file is there (any error reading its entry counts as not). */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
