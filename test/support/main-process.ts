// Runs the real server entry point in its own process, as an operator would:
// server/main.ts through tsx (`npm run dev`) or the build, dist/server/main.js,
// with plain node (`npm start`). Only the variables given (plus PATH and HOME)
// reach it, so the operator's own environment cannot change what a test sees.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface MainProcess {
  child: ChildProcess;
  /** Resolves once the process has exited: its status and everything it wrote to stderr. */
  exited: Promise<{ code: number | null; stderr: string }>;
  /** Resolves with the base URL once it listens; rejects if it exits first. */
  listening: Promise<string>;
}

export function runMain(env: Record<string, string>, entry: 'source' | 'build' = 'source'): MainProcess {
  const args =
    entry === 'source' ? ['--import', 'tsx', join(root, 'server/main.ts')] : [join(root, 'dist/server/main.js')];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += String(d);
      const m = /^listening on (\S+) /m.exec(stdout);
      if (m?.[1]) resolve(m[1]);
    });
    void exited.then(({ code }) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  listening.catch(() => {}); // a test that expects the exit need not wait for this
  return { child, exited, listening };
}
