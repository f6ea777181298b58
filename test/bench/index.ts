// `npm run --silent bench`: every figure as one JSON line on stdout.
// Each file in ./figures exports `run(emit)`; add a file to add a figure. A file that emits
// figures not named like itself (replay-1830.ts emits replay_1830) lists them in `figures`.
// BENCH_ONLY=<substring of a figure name> runs just the files with a matching figure and
// prints just the matching figures.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type Emit = (figure: { name: string; [key: string]: unknown }) => void;

interface FigureFile {
  run: (emit: Emit) => Promise<void> | void;
  figures?: string[];
}

const dir = join(dirname(fileURLToPath(import.meta.url)), 'figures');
const only = process.env.BENCH_ONLY;
const wanted = (name: string): boolean => !only || name.includes(only);
const emit: Emit = (figure) => {
  if (wanted(figure.name)) process.stdout.write(`${JSON.stringify(figure)}\n`);
};

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as FigureFile;
  const ownName = file.replace(/\.ts$/, '').replaceAll('-', '_');
  if (!(mod.figures ?? [ownName]).some(wanted)) continue;
  try {
    await mod.run(emit);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ name: ownName, error: String((err as Error)?.message ?? err) })}\n`);
  }
}
