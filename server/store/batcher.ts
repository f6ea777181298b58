// Calls that arrive together, run together: a store's reads and appends of many
// games (a reminder tick opening a hundred due games, thirty-two players moving
// at once) become one statement each instead of one round trip per game.
// Nothing waits on purpose: a call made while fewer than maxInFlight batches
// are running starts at the end of the current turn of the event loop
// (setImmediate), with every call made in that turn; calls made while
// maxInFlight batches run wait for one of them to finish, and go together.
// Under light load a batch is one call, as before; under heavy load batches
// grow by themselves (the way a database groups the commits that arrive
// while it flushes).

export interface BatcherOptions<I> {
  /** Most calls in one batch. */
  maxBatch: number;
  /** Most batches running at once. */
  maxInFlight: number;
  /**
   * Calls with the same key never share a batch (they run in order, in later batches):
   * two appends to one game must not be one statement.
   */
  key?: (item: I) => string;
}

interface Waiting<I, O> {
  item: I;
  resolve: (out: O) => void;
  reject: (err: unknown) => void;
}

export class Batcher<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;

  /** run: the outcomes of a batch's items, in their order (an Error in a slot fails only that call). */
  constructor(
    private readonly run: (items: I[]) => Promise<(O | Error)[]>,
    private readonly opts: BatcherOptions<I>,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.opts.maxInFlight || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.opts.maxInFlight && this.waiting.length > 0) {
      const batch = this.take();
      this.inFlight++;
      this.run(batch.map((w) => w.item))
        .then(
          (outs) => {
            batch.forEach((w, i) => {
              const out = outs[i];
              if (out instanceof Error) w.reject(out);
              else if (i >= outs.length) w.reject(new Error('batch gave no answer for this call'));
              else w.resolve(out as O);
            });
          },
          (err) => {
            for (const w of batch) w.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.schedule();
        });
    }
  }

  /** The next batch: up to maxBatch waiting calls in order, one per key. */
  private take(): Waiting<I, O>[] {
    const { key, maxBatch } = this.opts;
    if (!key) return this.waiting.splice(0, maxBatch);
    const batch: Waiting<I, O>[] = [];
    const rest: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    for (const w of this.waiting) {
      const k = key(w.item);
      if (batch.length < maxBatch && !keys.has(k)) {
        keys.add(k);
        batch.push(w);
      } else rest.push(w);
    }
    this.waiting = rest;
    return batch;
  }
}
