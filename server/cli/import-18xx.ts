// `npm run --silent cli -- import-18xx <export.json> [--checkpoints <file.jsonl>]`
// Replays an 18xx.games export of 1830 through our engine and prints one JSON line.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { importExport, type Export18xx } from '../../rules/1830/import/replay.ts';
import type { Checkpoint } from '../../rules/1830/import/compare.ts';

export const summary =
  'import-18xx <export.json> [--checkpoints <file.jsonl>]   replay an 18xx.games 1830 export through our engine (one JSON line)';

export async function run(args: string[]): Promise<number> {
  let file: string | undefined;
  let checkpointsFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--checkpoints') checkpointsFile = args[++i];
    else if (!file) file = a;
  }
  if (!file) {
    process.stderr.write('usage: import-18xx <export.json> [--checkpoints <file.jsonl>]\n');
    return 2;
  }
  const exp = JSON.parse(readFileSync(file, 'utf8')) as Export18xx;
  const checkpoints = checkpointsFile
    ? readFileSync(checkpointsFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Checkpoint)
    : undefined;
  const { report } = importExport(exp, checkpoints);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  return report.stoppedAt || report.firstDivergence ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${String(err?.stack ?? err)}\n`);
      process.exit(2);
    },
  );
}
