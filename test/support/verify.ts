// Running the CLI in a test: capture what a command prints, and verify a
// downloaded history document as `npm run cli -- verify <file>` would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { AnyRules } from '../../rules/types.ts';
import { run as verify } from '../../server/cli/verify.ts';

/** Runs a command, keeping its standard output and silencing its errors. */
export async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return { code: await fn(), out };
  } finally {
    spy.mockRestore();
    err.mockRestore();
  }
}

/** Writes a history document to a file of its own and verifies it with the given rules. */
export async function verifyDoc(doc: unknown, registry: AnyRules[]): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pbem-verify-'));
  try {
    const file = join(dir, 'history.json');
    writeFileSync(file, JSON.stringify(doc));
    return await capture(() => verify([file], registry));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
