// Mail pictures drawn on worker threads (picture-worker.ts). Drawing a board is the largest
// piece of work a turn mail costs (tens of milliseconds of pixel work in JavaScript, though
// resvg itself runs on libuv's pool), and a click waits behind it when it runs on the event
// loop. Each worker keeps its own caches, so a game's pictures go to the same worker (by its
// id) and reuse what that worker kept. A worker that dies or overruns fails its pictures (the
// mail queue retries them) and a fresh one takes the next; workers are started when first
// needed and do not keep the process alive when idle.
import type { Worker } from 'node:worker_threads';
import { fnv1a } from '../store/index-shards.ts';
import { startWorker } from '../worker-thread.ts';

const WORKER_FILE = new URL('./picture-worker.ts', import.meta.url);

interface Job {
  resolve: (png: Buffer) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker | null;
  jobs: Map<number, Job>;
}

export class PicturePool {
  private readonly slots: Slot[];
  private nextId = 1;
  private closed = false;

  constructor(private readonly o: { threads: number; timeLimitMs?: number }) {
    this.slots = Array.from({ length: Math.max(1, o.threads) }, () => ({ worker: null, jobs: new Map() }));
  }

  /** The PNG of `svg`, drawn on the worker `route` (a game id) maps to. */
  draw(svg: string, opts: { cache?: boolean }, route: string): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('the picture workers are stopped'));
    const slot = this.slots[fnv1a(route) % this.slots.length]!;
    const w = (slot.worker ??= this.spawn(slot));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // Overran: end this worker (its other pictures fail too, and are retried with the mail).
        this.lose(slot, w, new Error('drawing the picture took too long'));
        void w.terminate();
      }, this.o.timeLimitMs ?? 30_000);
      slot.jobs.set(id, { resolve, reject, timer });
      w.ref();
      w.postMessage({ id, svg, cache: opts.cache });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        const w = slot.worker;
        if (!w) return;
        this.lose(slot, w, new Error('the picture workers are stopped'));
        await w.terminate();
      }),
    );
  }

  private spawn(slot: Slot): Worker {
    const w = startWorker(WORKER_FILE);
    w.unref();
    w.on('message', (m: { id: number; png?: Uint8Array; error?: string }) => {
      const job = slot.jobs.get(m.id);
      if (!job) return;
      slot.jobs.delete(m.id);
      clearTimeout(job.timer);
      if (slot.jobs.size === 0) w.unref();
      if (m.png) job.resolve(Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength));
      else job.reject(new Error(m.error ?? 'the picture was not drawn'));
    });
    w.on('error', (err) => this.lose(slot, w, err));
    w.on('exit', () => this.lose(slot, w, new Error('the picture worker stopped')));
    return w;
  }

  /** Fails the pictures `w` was drawing; the slot's next picture starts a fresh worker. */
  private lose(slot: Slot, w: Worker, err: Error): void {
    if (slot.worker !== w) return;
    slot.worker = null;
    for (const job of slot.jobs.values()) {
      clearTimeout(job.timer);
      job.reject(err);
    }
    slot.jobs.clear();
  }
}

const perProcess = new Map<number, PicturePool>();

/**
 * The process's pool of `threads` workers, shared by every mailer made in it: a server makes one
 * mailer, a test process many, and a worker costs most of a second of CPU to start. It is never
 * closed: its idle workers keep no process alive, and a worker that dies is replaced.
 */
export function processPicturePool(threads: number): PicturePool {
  let pool = perProcess.get(threads);
  if (!pool) {
    pool = new PicturePool({ threads });
    perProcess.set(threads, pool);
  }
  return pool;
}
