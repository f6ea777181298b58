// Runs 18xx.games imports in a worker thread (server/import-worker.ts), one
// at a time, each within a time limit: a worker that overruns is ended and a
// fresh one takes the next job. A few jobs may wait; beyond that the server
// says it is busy rather than queueing without end.
import type { Worker } from 'node:worker_threads';
import { RuleError } from '../../rules/types.ts';
import type { Imported18xx } from '../../rules/1830/import/index.ts';
import { ServiceError } from '../errors.ts';
import { startWorker } from '../worker-thread.ts';

const WORKER_FILE = new URL('../import-worker.ts', import.meta.url);

interface Job {
  id: number;
  export: unknown;
  resolve: (v: Imported18xx) => void;
  reject: (e: Error) => void;
}

export class ImportPool {
  private worker: Worker | null = null;
  private queue: Job[] = [];
  private current: (Job & { timer: NodeJS.Timeout }) | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly o: { timeLimitMs: number; maxWaiting: number }) {}

  /** Reads, converts and replays an export off the event loop. RuleError for an export that is not one. */
  run(exp: unknown): Promise<Imported18xx> {
    if (this.closed) return Promise.reject(new ServiceError(503, 'The server is stopping.'));
    if (this.queue.length >= this.o.maxWaiting)
      return Promise.reject(new ServiceError(503, 'Too many imports are under way; please try again in a minute.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, export: exp, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new ServiceError(503, 'The server is stopping.'));
    await this.worker?.terminate();
    this.worker = null;
  }

  private spawn(): Worker {
    const w = startWorker(WORKER_FILE);
    w.unref();
    w.on('message', (m: { id: number; ok: boolean; imported?: Imported18xx; rule?: boolean; message?: string }) => {
      const job = this.current;
      if (!job || job.id !== m.id) return;
      clearTimeout(job.timer);
      this.current = null;
      if (m.ok) job.resolve(m.imported!);
      else job.reject(m.rule ? new RuleError(m.message!) : new Error(m.message));
      this.pump();
    });
    w.on('error', (err) => this.lost(err));
    w.on('exit', () => {
      if (this.worker === w) this.worker = null;
      if (this.current) this.lost(new Error('the import worker stopped'));
    });
    return w;
  }

  private lost(err: Error): void {
    const job = this.current;
    this.current = null;
    if (job) {
      clearTimeout(job.timer);
      job.reject(err);
    }
    this.pump();
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.worker ??= this.spawn();
    const w = this.worker;
    const timer = setTimeout(() => {
      // Overran: end this worker (the next job gets a fresh one) and say so.
      this.worker = null;
      this.current = null;
      void w.terminate();
      job.reject(
        new ServiceError(
          422,
          `Reading the export took longer than ${Math.round(this.o.timeLimitMs / 1000)} s, so it was stopped. Nothing was created.`,
        ),
      );
      this.pump();
    }, this.o.timeLimitMs);
    this.current = { ...job, timer };
    w.postMessage({ id: job.id, export: job.export });
  }
}
