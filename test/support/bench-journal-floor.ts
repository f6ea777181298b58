// The journal floor, in its own process: what an append-only store must at
// least do for a durable move. CLIENTS concurrent loops each append a
// SIZE-byte line to one journal and wait until it is durable; lines that
// arrive while a sync runs are written together and share the next fdatasync
// (group commit: one write and one fdatasync per round). SECONDS long.
// Prints one JSON line { ops_per_s, p50_ms, p99_ms, rounds }.
const { mkdtempSync, rmSync } = await import('node:fs');
const { open } = await import('node:fs/promises');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');

const clients = Number(process.env.CLIENTS ?? 32);
const size = Number(process.env.SIZE ?? 400);
const seconds = Number(process.env.SECONDS ?? 2);
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'journal-floor-'));
const journal = await open(join(dir, 'journal'), 'a');
const line = `${'x'.repeat(size - 1)}\n`;

let waiting: (() => void)[] = [];
let syncing = false;
let rounds = 0;

async function commitRounds(): Promise<void> {
  syncing = true;
  while (waiting.length > 0) {
    const batch = waiting;
    waiting = [];
    await journal.write(line.repeat(batch.length));
    await journal.datasync();
    rounds++;
    for (const done of batch) done();
  }
  syncing = false;
}

function append(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!syncing) void commitRounds();
  });
}

const latencies: number[] = [];
const end = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await append();
      latencies.push(performance.now() - t);
    }
  }),
);
await journal.close();
rmSync(dir, { recursive: true, force: true });
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
process.stdout.write(
  `${JSON.stringify({
    ops_per_s: Math.round(latencies.length / seconds),
    p50_ms: Math.round(at(50) * 100) / 100,
    p99_ms: Math.round(at(99) * 100) / 100,
    rounds,
  })}\n`,
);
