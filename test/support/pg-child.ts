// Starts test/support/pg-server-child.ts (a server on a shared PostgreSQL schema) in its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface PgChild {
  url: string;
  child: ChildProcess;
  alive: boolean;
  exited: Promise<void>;
}

// nodeArgs: extra flags for node itself (a profile: ['--cpu-prof', '--cpu-prof-dir=...']).
export async function startPgChild(env: Record<string, string>, nodeArgs: string[] = []): Promise<PgChild> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(root, 'test/support/pg-server-child.ts')],
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
