// Which rules version a game is set up under. A rules module that changes what
// an existing log replays to bumps its `version` and keeps the old behaviour for
// games recorded under the old one (issue 14; how, at `version` in types.ts).
// The server passes the game's version to `setup` as its 4th argument; tests
// may also give it as the option `rulesVersion`. A new game gets the current one.
import type { Options } from './types.ts';

export function versionOf(options: Options | undefined, current: number, given?: number): number {
  const v = given ?? options?.rulesVersion;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= current ? v : current;
}
