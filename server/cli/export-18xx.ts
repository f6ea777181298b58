// `npm run --silent cli -- export-18xx <history.json> [--out <export.json>]`
// Writes an 1830 game of ours (the history.json download of a finished game, or of a running
// one for its players' own use when every move is in it) as an 18xx.games export, to stdout or
// the file named. 18xx.games can load it (Tools → Import game), and its engine can replay it.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { export18xx, ExportError } from '../../rules/1830/import/export.ts';
import type { Action1830 } from '../../rules/1830/actions.ts';
import { effectiveMoves } from '../game-log.ts';
import type { LogEntry } from '../store/types.ts';
import type { Options } from '../../rules/types.ts';

export const summary =
  'export-18xx <history.json> [--out <export.json>]   write an 1830 game of ours as an 18xx.games export';

interface HistoryFile {
  rules?: unknown;
  rulesVersion?: unknown;
  options?: unknown;
  seats?: unknown;
  log?: unknown;
}

/** The export of a history.json document; throws ExportError in words when it cannot be one. */
export function exportHistory(doc: HistoryFile): ReturnType<typeof export18xx> {
  if (doc.rules !== '1830') throw new ExportError(`this is a history of ${String(doc.rules)}, not of 1830`);
  if (!Array.isArray(doc.log) || !Array.isArray(doc.seats)) throw new ExportError('this is not a history.json file');
  const log = doc.log as LogEntry[];
  const start = log.find((e) => e.kind === 'start');
  if (!start) throw new ExportError('the game has not started');
  const moves = effectiveMoves(log);
  const hidden = moves.find((e) => e.action === undefined);
  if (hidden)
    throw new ExportError(
      `move ${hidden.seq} is withheld in this download (the game is running): export a finished game, or from the game page`,
    );
  const seats = doc.seats as { seat: number; name: string }[];
  const count = (start.data?.order as number[] | undefined)?.length ?? seats.length;
  const players = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: seats.find((s) => s.seat === i)?.name ?? `Player ${i + 1}`,
  }));
  return export18xx({
    players,
    options: (doc.options ?? {}) as Options,
    log: moves.map((e) => ({ seat: e.seat!, action: e.action as Action1830 })),
    ...(typeof doc.rulesVersion === 'number' ? { rulesVersion: doc.rulesVersion } : {}),
  });
}

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

/** The export as the text of a file (one JSON document and a newline). */
export function exportText(doc: HistoryFile): string {
  return `${JSON.stringify(exportHistory(doc))}\n`;
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
