// An 1830 game of ours as an 18xx.games export, from a history.json document or the stored game
// (the export-18xx command and the game page's download link). The moves in force are taken as
// the replay takes them (undone moves left out); rules/1830/import/export.ts writes the export.
import { export18xx, ExportError } from '../rules/1830/import/export.ts';
import type { Action1830 } from '../rules/1830/actions.ts';
import type { Options } from '../rules/types.ts';
import { effectiveMoves } from './game-log.ts';
import type { LogEntry } from './store/types.ts';

export { ExportError };

export interface HistoryFile {
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

/** The export as the text of a file (one JSON document and a newline). */
export function exportText(doc: HistoryFile): string {
  return `${JSON.stringify(exportHistory(doc))}\n`;
}
