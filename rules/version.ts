// Which rules version a game is set up under. A rules module that changes what
// an existing log replays to bumps its version and keeps the old behaviour for
// games recorded under the old one (issue 14). The version reaches `setup` as
// the option `rulesVersion`, set by whoever replays a recorded game; a new game
// passes none and gets the current version.
import type { Options } from './types.ts';

export function versionOf(options: Options | undefined, current: number): number {
  const v = options?.rulesVersion;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= current ? v : current;
}
