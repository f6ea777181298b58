// Mails composed on worker threads (compose-worker.ts, MAIL_COMPOSE_THREADS). Composing a turn
// mail (opening the game, the seat's view, the SVG, the close-up, handlebars, the envelope) took
// about 12 ms of the event loop a mail, on the loop that answers clicks; a worker does it now, and
// the main thread only claims the job, hands it over, gets the finished message back and sends it
// (so claims, receipts and retries stay exactly as the queues make them). One game's mails go to
// one worker (by its id), which keeps the game in memory and its pictures' layers and sprites.
//
// A worker that dies or overruns loses nothing: its jobs are handed to a fresh worker once, and
// if that fails too, compose rejects and the queue counts a failed attempt and tries again later
// (the job was claimed, never sent: no mail is lost and none doubled). A job whose embedded-store
// capture was overtaken by the files (compose-reader.ts) is handed over again with a fresh one.
import type { Worker } from 'node:worker_threads';
import { fnv1a } from '../store/index-shards.ts';
import { startWorker } from '../worker-thread.ts';
import type { Capture } from './compose-reader.ts';
import type { ComposeJob, ComposeWorkerInit } from './compose-worker.ts';
import type { OutgoingMail } from './message.ts';
import type { MailSpec } from './queue.ts';

const WORKER_FILE = new URL('./compose-worker.ts', import.meta.url);

/** Kinds that read the whole index or the digest book: composed on the main thread. */
export const MAIN_THREAD_KINDS = new Set(['digest', 'mygames']);

interface Pending {
  job: Omit<ComposeJob, 'id' | 'capture'>;
  /** The embedded store's capture, taken when the job is handed to a worker (null: no game). */
  capture?: () => Capture | null;
  /** Hand-overs so far (a crash or a stale capture counts one). */
  tries: number;
  resolve: (mail: OutgoingMail | null) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout | null;
}

interface Slot {
  worker: Worker | null;
  jobs: Map<number, Pending>;
}

export interface ComposePoolOptions {
  threads: number;
  init: Omit<ComposeWorkerInit, 'type'>;
  /** A job still composing after this long ends its worker (default 60 s). */
  timeLimitMs?: number;
  /** Hand-overs of one job before compose rejects (default 2: a crash is tried once more). */
  maxTries?: number;
  /** Composes on the main thread what a worker cannot: a game of rules only the main thread has. */
  here: (spec: MailSpec, key: string) => Promise<OutgoingMail | null>;
}

export class ComposePool {
  private readonly slots: Slot[];
  private nextId = 1;
  private closed = false;

  constructor(private readonly o: ComposePoolOptions) {
    this.slots = Array.from({ length: Math.max(1, o.threads) }, () => ({ worker: null, jobs: new Map() }));
  }

  /** The finished mail of `spec` (null: nothing to send), composed on the worker its game maps to. */
  compose(spec: MailSpec, key: string, capture?: () => Capture | null): Promise<OutgoingMail | null> {
    if (this.closed) return Promise.reject(new Error('the compose workers are stopped'));
    const route = typeof spec.gameId === 'string' ? spec.gameId : key;
    const slot = this.slots[fnv1a(route) % this.slots.length]!;
    return new Promise((resolve, reject) => {
      this.handOver(slot, { job: { spec, key }, capture, tries: 0, resolve, reject, timer: null });
    });
  }

  /**
   * Starts every worker now (the mailer's start): a worker takes a second or more to load the
   * rules, templates and resvg, which the first mails would otherwise wait for.
   */
  warm(): void {
    if (this.closed) return;
    for (const slot of this.slots) slot.worker ??= this.spawn(slot);
  }

  /** Jobs handed to a worker and not yet back. */
  get composing(): number {
    return this.slots.reduce((n, slot) => n + slot.jobs.size, 0);
  }

  /** Ends the workers now; jobs they held go to fresh ones (as after a crash). */
  async restartWorkers(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.worker?.terminate()));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        const w = slot.worker;
        if (!w) return;
        slot.worker = null;
        for (const p of slot.jobs.values()) this.fail(p, new Error('the compose workers are stopped'));
        slot.jobs.clear();
        await w.terminate();
      }),
    );
  }

  private handOver(slot: Slot, p: Pending): void {
    if (this.closed) return this.fail(p, new Error('the compose workers are stopped'));
    p.tries++;
    const w = (slot.worker ??= this.spawn(slot));
    const id = this.nextId++;
    // Taken now, in one step with the post: the worker renders the game as it is at this moment.
    let capture: Capture | null | undefined;
    try {
      capture = p.capture?.();
    } catch (err) {
      return this.fail(p, err as Error);
    }
    p.timer = setTimeout(() => {
      // Overran: end this worker; its jobs go to a fresh one (or fail, if tried enough).
      void w.terminate();
    }, this.o.timeLimitMs ?? 60_000);
    slot.jobs.set(id, p);
    w.ref();
    w.postMessage({ id, ...p.job, ...(capture !== undefined ? { capture } : {}) } satisfies ComposeJob);
  }

  private spawn(slot: Slot): Worker {
    const w = startWorker(WORKER_FILE);
    w.unref();
    w.postMessage({ type: 'init', ...this.o.init } satisfies ComposeWorkerInit);
    w.on(
      'message',
      (m: { id: number; mail?: OutgoingMail | null; error?: string; stale?: boolean; elsewhere?: boolean }) => {
        const p = slot.jobs.get(m.id);
        if (!p) return;
        slot.jobs.delete(m.id);
        if (p.timer) clearTimeout(p.timer);
        if (slot.jobs.size === 0) w.unref();
        if (m.elsewhere) this.o.here(p.job.spec, p.job.key).then(p.resolve, p.reject);
        else if (m.error === undefined) p.resolve(m.mail ?? null);
        else if (m.stale && p.tries < 5) this.handOver(slot, p);
        else p.reject(new Error(m.error));
      },
    );
    w.on('error', (err) => this.lose(slot, w, err));
    w.on('exit', () => this.lose(slot, w, new Error('the compose worker stopped')));
    return w;
  }

  /** `w` died: its jobs go to a fresh worker, each at most maxTries times in all. */
  private lose(slot: Slot, w: Worker, err: Error): void {
    if (slot.worker !== w) return;
    slot.worker = null;
    const jobs = [...slot.jobs.values()];
    slot.jobs.clear();
    for (const p of jobs) {
      if (p.timer) clearTimeout(p.timer);
      if (p.tries < (this.o.maxTries ?? 2)) this.handOver(slot, p);
      else this.fail(p, err);
    }
  }

  private fail(p: Pending, err: Error): void {
    if (p.timer) clearTimeout(p.timer);
    p.reject(err);
  }
}
