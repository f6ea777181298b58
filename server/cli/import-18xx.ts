// `npm run --silent cli -- import-18xx <export.json> [--checkpoints <file.jsonl>] [--dump <file.x.jsonl>]`
// Replays an 18xx.games export of 1830 through our engine and prints one JSON line; compares
// with 18xx.games's checkpoints and with the oracle's fuller state dump (state-dump.rb) if given.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { importExport, type Export18xx } from '../../rules/1830/import/replay.ts';
import type { Checkpoint } from '../../rules/1830/import/compare.ts';
import type { StateDump } from '../../rules/1830/import/compare-dump.ts';

function jsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export const summary =
  'import-18xx <export.json> [--checkpoints <file.jsonl>] [--dump <file.x.jsonl>]   replay an 18xx.games 1830 export through our engine (one JSON line)';

export async function run(args: string[]): Promise<number> {
  let file: string | undefined;
  let checkpointsFile: string | undefined;
  let dumpFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--checkpoints') checkpointsFile = args[++i];
    else if (a === '--dump') dumpFile = args[++i];
    else if (!file) file = a;
  }
  if (!file) {
    process.stderr.write('usage: import-18xx <export.json> [--checkpoints <file.jsonl>] [--dump <file.x.jsonl>]\n');
    return 2;
  }
  const exp = JSON.parse(readFileSync(file, 'utf8')) as Export18xx;
  const checkpoints = checkpointsFile ? jsonLines<Checkpoint>(checkpointsFile) : undefined;
  const dumps = dumpFile ? jsonLines<StateDump>(dumpFile) : undefined;
  const { report } = importExport(exp, checkpoints, dumps);
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
