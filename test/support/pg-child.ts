// Starts test/support/pg-server-child.ts (a server on a shared PostgreSQL schema) in its own process:
// from the source under tsx (the tests), or, for the benches, as the build runs in production
// (`npm start` is plain node on tsc's output): buildPgChild() compiles the server, the rules and
// this child into dist/pg-child/ (inside the checkout, so the server finds its templates and
// node_modules as dist/server does) and startPgChild(..., { built: true }) runs that.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILT = join(root, 'dist/pg-child/test/support/pg-server-child.js');

/** Compiles the child as the production build is compiled (tsconfig.build.json); a few seconds. */
export async function buildPgChild(): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'test/support/tsconfig.pg-child.json')],
    { cwd: root },
  );
}

export interface PgChild {
  url: string;
  child: ChildProcess;
  alive: boolean;
  exited: Promise<void>;
}

// nodeArgs: extra flags for node itself (a profile: ['--cpu-prof', '--cpu-prof-dir=...']).
// built: run the compiled child (buildPgChild first) with plain node, as `npm start` runs the server.
export async function startPgChild(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  opts: { built?: boolean } = {},
): Promise<PgChild> {
  const child = spawn(
    process.execPath,
    opts.built ? [...nodeArgs, BUILT] : [...nodeArgs, '--import', 'tsx', join(root, 'test/support/pg-server-child.ts')],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { url, child, alive: true, exited };
}
