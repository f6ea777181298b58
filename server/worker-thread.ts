// Starting a worker thread on one of our own modules, however the server runs. Under
// `npm start` the server is the build's JavaScript (dist/), and the worker is the .js file
// next to the .ts one named. Under tsx or vitest (tests, `npm run dev`, the bench) only the
// TypeScript exists, and a worker does not inherit the loader the parent was started with,
// so the worker registers tsx first and then imports the module.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const BOOT = `(async () => {
  const { workerData } = await import('node:worker_threads');
  const { register } = await import(workerData.tsx);
  register();
  await import(workerData.file);
})();`;

let tsxApi: string | null = null;
/** tsx's ESM API as this module finds it, whatever the worker's working folder. */
function tsx(): string {
  if (tsxApi) return tsxApi;
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(pkg, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  tsxApi = pathToFileURL(join(dirname(pkg), exports['./esm/api']!.import.default)).href;
  return tsxApi;
}

/**
 * A worker running `file` (a URL of a .ts module, made with `new URL('./x.ts', import.meta.url)`).
 * Its `workerData` is not available to the module (the boot uses it); pass data by message.
 */
export function startWorker(file: URL, opts: Omit<WorkerOptions, 'eval' | 'workerData'> = {}): Worker {
  const js = new URL(file.href.replace(/\.ts$/, '.js'));
  if (!existsSync(fileURLToPath(file)) && existsSync(fileURLToPath(js))) return new Worker(js, opts);
  // execArgv: [] so the worker does not also inherit a parent's `--import tsx`: one loader,
  // registered once (two sets of loader hooks in one worker can wait on each other).
  return new Worker(BOOT, { ...opts, eval: true, execArgv: [], workerData: { file: file.href, tsx: tsx() } });
}
