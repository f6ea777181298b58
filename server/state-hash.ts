// The hash of a rules state, recorded on every entry that changes it (start,
// move, undo) and on snapshots, so a replay can show it reached the position
// the players saw. It covers the canonical JSON of the whole state (keys
// sorted), keyed by the game's seed: the state holds hidden things (deck
// order, hands, the generator), and a hash of them alone could be matched by
// trying candidates; with the secret seed in it, it says nothing until the
// seed is published at the end.
import { canonicalJson, sha256 } from './store/chain.ts';

export function stateHashOf(seed: string, canonicalState: string): string {
  return sha256(`${seed}\n${canonicalState}`);
}

/** The canonical JSON of a state and its hash. */
export function hashState(seed: string, state: unknown): { json: string; hash: string } {
  const json = canonicalJson(state);
  return { json, hash: stateHashOf(seed, json) };
}
