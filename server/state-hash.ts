// The hash of a rules state, recorded on every entry that changes it (start,
// move, undo), on snapshots and in the corpus of recorded games, so a replay
// can show it reached the position the players saw. It covers the canonical
// JSON of the whole state (canonicalState: the same whatever order the keys
// were added in), keyed by the game's seed: the state holds hidden things (deck
// order, hands, the generator), and a hash of them alone could be matched by
// trying candidates; with the secret seed in it, it says nothing until the
// seed is published at the end.
import { sha256 } from './store/chain.ts';

/** JSON.stringify's replacer that hands on every plain object with its keys sorted (arrays keep their order). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1]! < keys[i]!;
  if (inOrder) return value;
  keys.sort();
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = obj[k];
  return out;
}

/**
 * Canonical JSON of a plain-JSON state: JSON.stringify with every object's keys
 * sorted (integer-like keys, which JavaScript always lists first in numeric
 * order, stay so), so the text does not depend on the order keys were added
 * in. Several times faster than canonicalJson on large states.
 */
export function canonicalState(state: unknown): string {
  return JSON.stringify(state, sortedKeys) ?? 'null';
}

/**
 * The state a hash covers: all of it but a top-level `version`, the engine's own note of
 * the rules version the state follows (rules/version.ts). That note says which rules,
 * not where the game stands, and a recorded game's version is kept beside its hashes;
 * so an engine that starts writing it down does not change what old games hash to.
 */
function hashed(state: unknown): unknown {
  if (state === null || typeof state !== 'object' || Array.isArray(state) || !('version' in state)) return state;
  const { version: _version, ...rest } = state as Record<string, unknown>;
  return rest;
}

export function stateHashOf(seed: string, canonical: string): string {
  return sha256(`${seed}\n${canonical}`);
}

/** The canonical JSON of a state and its hash. */
export function hashState(seed: string, state: unknown): { json: string; hash: string } {
  const json = canonicalState(hashed(state));
  return { json, hash: stateHashOf(seed, json) };
}
