// The corpus of recorded games (test/corpus/<rules id>/v<version>/<name>.json): complete
// games with the state hash after every action, as the engine of that version played
// them. A recorded game is the contract for its version: replayed through today's
// engine it must reach every recorded state exactly, unless its version is older than
// the engine's `oldestVersion` (the engine has said it no longer replays those games).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyRules, Options, Seat } from '../../rules/types.ts';
import { hashState } from '../../server/state-hash.ts';

export interface RecordedGame {
  format: 1;
  rules: string;
  /** The rules version the game was recorded under. */
  version: number;
  /** Where it comes from: "random playout", "18xx.games 26855". */
  source: string;
  seats: number;
  seed: string;
  options: Options;
  /** State hash right after set-up. */
  setup: string;
  /** [seat, action, state hash after it]. */
  actions: [Seat, unknown, string][];
}

export const CORPUS_DIR = new URL('.', import.meta.url).pathname;

/** Every recorded game, with its file name relative to the corpus folder. */
export function loadCorpus(): { file: string; game: RecordedGame }[] {
  const out: { file: string; game: RecordedGame }[] = [];
  for (const rules of readdirSync(CORPUS_DIR, { withFileTypes: true })) {
    if (!rules.isDirectory()) continue;
    for (const v of readdirSync(join(CORPUS_DIR, rules.name))) {
      for (const f of readdirSync(join(CORPUS_DIR, rules.name, v))
        .filter((n) => n.endsWith('.json'))
        .sort()) {
        const file = join(rules.name, v, f);
        out.push({ file, game: JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')) as RecordedGame });
      }
    }
  }
  return out;
}

/** Plays a game through `rules` under `version`, recording every state hash. */
export function record(
  rules: AnyRules,
  game: Omit<RecordedGame, 'format' | 'rules' | 'version' | 'setup' | 'actions'>,
  actions: { seat: Seat; action: unknown }[],
): RecordedGame {
  const state = rules.setup(game.seats, game.seed, game.options, rules.version);
  const setup = hashState(game.seed, state).hash;
  const out: RecordedGame['actions'] = [];
  for (const { seat, action } of actions) {
    rules.apply(state, seat, structuredClone(action));
    out.push([seat, action, hashState(game.seed, state).hash]);
  }
  return { format: 1, rules: rules.id, version: rules.version, ...game, setup, actions: out };
}

/**
 * Replays a recorded game through `rules`. Null when it reaches every recorded
 * state (or its version is one the engine no longer replays: 'retired');
 * otherwise the first place it differs, in words.
 */
export function replayRecorded(rules: AnyRules, game: RecordedGame): string | null | 'retired' {
  if (game.version < (rules.oldestVersion ?? 1)) return 'retired';
  if (game.version > rules.version) return `recorded under version ${game.version}, the engine is at ${rules.version}`;
  const state = rules.setup(game.seats, game.seed, game.options, game.version);
  if (hashState(game.seed, state).hash !== game.setup) return 'the set-up differs';
  for (let i = 0; i < game.actions.length; i++) {
    const [seat, action, hash] = game.actions[i]!;
    try {
      rules.apply(state, seat, structuredClone(action));
    } catch (err) {
      return `action ${i + 1} (${JSON.stringify(action)}) no longer applies: ${(err as Error).message}`;
    }
    if (hashState(game.seed, state).hash !== hash)
      return `after action ${i + 1} (${JSON.stringify(action)}) the state differs`;
  }
  return null;
}
