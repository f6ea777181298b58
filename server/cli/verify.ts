// verify <history.json>: checks the chain and replays the game; prints one line.
import { readFileSync } from 'node:fs';
import type { AnyRules } from '../../rules/types.ts';
import { games } from '../../rules/index.ts';
import { formatVerify, verifyHistory } from '../verify.ts';

export const summary = 'verify <history.json>   check the hash chain and replay the game';

export async function run(args: string[], registry: AnyRules[] = games): Promise<number> {
  const file = args[0];
  if (!file) {
    process.stderr.write('usage: cli verify <history.json>\n');
    return 2;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    process.stdout.write(`broken at 0: cannot read ${file} (${(err as Error).message})\n`);
    return 1;
  }
  const result = verifyHistory(doc, registry);
  process.stdout.write(`${formatVerify(result)}\n`);
  if (result.ok && result.note) process.stderr.write(`note: ${result.note}\n`);
  return result.ok ? 0 : 1;
}
