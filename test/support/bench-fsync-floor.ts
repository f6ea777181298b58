// The fsync floor, in its own process (same thread pool size as the server):
// CLIENTS concurrent loops doing nothing but durable writes of a SIZE-byte
// file (temp, fsync, rename, fsync the folder) over FILES files for SECONDS.
// Prints one JSON line { ops_per_s, p50_ms, p99_ms }.
process.env.UV_THREADPOOL_SIZE ??= '16';
const { mkdtempSync, rmSync } = await import('node:fs');
const { open, rename } = await import('node:fs/promises');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');

const clients = Number(process.env.CLIENTS ?? 32);
const size = Number(process.env.SIZE ?? 8000);
const files = Number(process.env.FILES ?? 1000);
const seconds = Number(process.env.SECONDS ?? 4);
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'fsync-floor-'));
const content = 'x'.repeat(size);
let counter = 0;

async function durableWrite(i: number): Promise<void> {
  const file = join(dir, `g${i}.json`);
  const tmp = `${file}.tmp-${++counter}`;
  const fh = await open(tmp, 'w');
  await fh.writeFile(content);
  await fh.sync();
  await fh.close();
  await rename(tmp, file);
  const d = await open(dir, 'r');
  await d.sync();
  await d.close();
}

const lat: number[] = [];
const warmEnd = performance.now() + 500;
const end = warmEnd + seconds * 1000;
let ops = 0;
await Promise.all(
  Array.from({ length: clients }, async (_, c) => {
    let i = c;
    for (;;) {
      const t = performance.now();
      if (t >= end) return;
      await durableWrite(i % files);
      i += clients;
      const done = performance.now();
      if (t >= warmEnd) {
        lat.push(done - t);
        ops++;
      }
    }
  }),
);
rmSync(dir, { recursive: true, force: true });
lat.sort((a, b) => a - b);
const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((lat.length * p) / 100))] ?? 0;
process.stdout.write(
  `${JSON.stringify({
    ops_per_s: Math.round(ops / seconds),
    p50_ms: Math.round(pct(50) * 100) / 100,
    p99_ms: Math.round(pct(99) * 100) / 100,
  })}\n`,
);
export {};
