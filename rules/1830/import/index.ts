// The 18xx.games importer for the server (POST /api/import/18xx) and the CLI.
//
//   import18xx(json) -> { rules: '1830', seats: [{ name, id }], options, actions: [{ seat, action }], report }
//
// `json` is an 18xx.games export (object or JSON text). The actions are our actions, in
// order, ready to be appended to a new game's log after `setup(seats.length, seed, options)`;
// replaying them gives `state`. When `report.stoppedAt` is not null the export could not be
// replayed completely (the error says why) and should be refused. Throws RuleError when the
// input is not an 18xx.games export of 1830.
import { RuleError, type Options } from '../../types.ts';
import type { Action1830 } from '../actions.ts';
import type { Checkpoint } from './compare.ts';
import { importExport, type Export18xx, type ImportReport } from './replay.ts';

export type { Export18xx, ImportReport } from './replay.ts';
export type { Checkpoint } from './compare.ts';
export { importExport } from './replay.ts';

export interface Imported18xx {
  rules: '1830';
  seats: { id: string; name: string }[];
  options: Options;
  actions: { seat: number; action: Action1830 }[];
  report: ImportReport;
}

export function import18xx(input: unknown, checkpoints?: Checkpoint[]): Imported18xx {
  let exp: unknown = input;
  if (typeof input === 'string') {
    try {
      exp = JSON.parse(input);
    } catch {
      throw new RuleError('the file is not JSON; export the game from 18xx.games (Tools → Export game)');
    }
  }
  const e = exp as Export18xx;
  if (!e || typeof e !== 'object' || !Array.isArray(e.players) || !Array.isArray(e.actions)) {
    throw new RuleError('this is not an 18xx.games export: players and actions are missing');
  }
  if (e.players.length < 2 || e.players.length > 6)
    throw new RuleError(`1830 is for 2 to 6 players, the export has ${e.players.length}`);
  const { seats, options, log, report } = importExport(e, checkpoints);
  return { rules: '1830', seats, options, actions: log.map(({ seat, action }) => ({ seat, action })), report };
}
