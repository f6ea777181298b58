// `npm run --silent cli -- export-18xx <history.json> [--out <export.json>]`
// Writes an 1830 game of ours (the history.json download of a finished game, or of a running
// one for its players' own use when every move is in it) as an 18xx.games export, to stdout or
// the file named. 18xx.games can load it (Tools → Import game), and its engine can replay it.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ExportError, exportText, type HistoryFile } from '../export-18xx.ts';

export { exportHistory } from '../export-18xx.ts';

export const summary =
  'export-18xx <history.json> [--out <export.json>]   write an 1830 game of ours as an 18xx.games export';

export async function run(args: string[]): Promise<number> {
  let file: string | undefined;
  let outFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--out') outFile = args[++i];
    else if (!file) file = a;
  }
  if (!file) {
    process.stderr.write('usage: export-18xx <history.json> [--out <export.json>]\n');
    return 2;
  }
  let text: string;
  try {
    text = exportText(JSON.parse(readFileSync(file, 'utf8')) as HistoryFile);
  } catch (err) {
    if (!(err instanceof ExportError) && !(err instanceof SyntaxError)) throw err;
    process.stderr.write(`cannot export ${file}: ${err.message}\n`);
    return 1;
  }
  if (outFile) writeFileSync(outFile, text);
  else process.stdout.write(text);
  return 0;
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
