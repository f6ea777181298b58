// `npm run --silent bench`: every figure as one JSON line on stdout.
// Each file in ./figures exports `run(emit)`; add a file to add a figure.
// BENCH_ONLY=<substring of a file name> runs just the matching files.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type Emit = (figure: { name: string; [key: string]: unknown }) => void;

const dir = join(dirname(fileURLToPath(import.meta.url)), 'figures');
const only = process.env.BENCH_ONLY;
const emit: Emit = (figure) => process.stdout.write(`${JSON.stringify(figure)}\n`);

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  if (only && !file.includes(only)) continue;
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { run: (emit: Emit) => Promise<void> | void };
  try {
    await mod.run(emit);
  } catch (err) {
    emit({ name: file.replace(/\.ts$/, ''), error: String((err as Error)?.message ?? err) });
  }
}
