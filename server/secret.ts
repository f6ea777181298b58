// The server secret every link key is derived from (see links.ts).
// Made on first start as DATA_DIR/secret.key (64 hex chars, mode 0600).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadOrCreateSecret(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secret.key');
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex');
    throw new Error(`${file} is not a 64-hex-digit key; delete it only if no game links need to keep working`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32);
  try {
    writeFileSync(file, `${secret.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process made it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSecret(dataDir);
    throw err;
  }
  chmodSync(file, 0o600);
  return secret;
}
