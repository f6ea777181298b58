// The hash of a rules state, recorded on every entry that changes it (start,
// move, undo), on snapshots and in the corpus of recorded games, so a replay
// can show it reached the position the players saw. It covers the canonical
// JSON of the whole state (canonicalState: the same whatever order the keys
// were added in), keyed by the game's seed: the state holds hidden things (deck
// order, hands, the generator), and a hash of them alone could be matched by
// trying candidates; with the secret seed in it, it says nothing until the
// seed is published at the end.
import { sha256 } from './store/chain.ts';

/**
 * Canonical JSON of a plain-JSON state: the text JSON.stringify gives once every object's keys
 * are sorted (integer-like keys, which JavaScript always lists first in numeric order, stay
 * so), so the text does not depend on the order keys were added in. The hash of every recorded
 * state is of this text, so it must never change by a byte: test/server/state-hash.test.ts
 * holds it to the definition (JSON.stringify with a key-sorting replacer) over every state of
 * the corpus and over the odd values JSON has. Written out directly, because the replacer,
 * called back for every value of a large state, cost a third more time and garbage per move.
 */
export function canonicalState(state: unknown): string {
  return canonicalText(state, false);
}

/** The JSON text of `value` with sorted keys; `skipVersion`: without the top-level `version` (hashed()). */
function canonicalText(value: unknown, skipVersion: boolean): string {
  out = '';
  try {
    const written = write(value, skipVersion);
    return written ? out : 'null';
  } finally {
    out = '';
  }
}

/** The text being written (one at a time: the writer never yields). */
let out = '';

/** The quoted forms of keys seen (the same few hundred keys recur in every state). */
const quotedKeys = new Map<string, string>();
function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 100_000) quotedKeys.set(k, q);
  }
  return q;
}

const plainProto = Object.prototype;

/** Appends the text of `v`; false for what JSON leaves out (undefined, a function, a symbol). */
function write(v: unknown, skipVersion = false): boolean {
  switch (typeof v) {
    case 'string':
      out += JSON.stringify(v);
      return true;
    case 'number':
      out += Number.isFinite(v) ? String(v) : 'null';
      return true;
    case 'boolean':
      out += v ? 'true' : 'false';
      return true;
    case 'object':
      break;
    case 'bigint':
      // As JSON.stringify does.
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return false;
  }
  if (v === null) {
    out += 'null';
    return true;
  }
  if (Array.isArray(v)) {
    const n = v.length;
    out += '[';
    for (let i = 0; i < n; i++) {
      if (i > 0) out += ',';
      if (!write(v[i])) out += 'null';
    }
    out += ']';
    return true;
  }
  const o = v as Record<string, unknown>;
  const proto = Object.getPrototypeOf(o);
  if ((proto !== plainProto && proto !== null) || typeof o.toJSON === 'function') {
    // Not plain data (a Date, a boxed number, a toJSON): the definition itself.
    const before = out; // a toJSON may hash a state of its own
    const text = JSON.stringify(skipVersion ? withoutVersion(o) : o, sortedKeys);
    out = before;
    if (text === undefined) return false;
    out += text;
    return true;
  }
  let keys = Object.keys(o);
  if (skipVersion) keys = keys.filter((k) => k !== 'version');
  // JavaScript lists integer-like keys first, in numeric order; the others follow as added.
  let first = 0;
  while (first < keys.length && isIndexKey(keys[first]!)) first++;
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1]! < keys[i]!;
  let sorted = keys;
  if (!inOrder) {
    // The definition copies the object with its keys sorted, and a key "__proto__" set on the
    // copy sets its prototype instead of a key: the text leaves it out.
    const rest = keys.slice(first).sort();
    sorted = first === 0 ? rest : keys.slice(0, first).concat(rest);
  }
  let sep = '{';
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i]!;
    if (!inOrder && k === '__proto__') continue;
    const x = o[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out += sep;
    out += quotedKey(k);
    out += ':';
    sep = ',';
    write(x);
  }
  out += sep === '{' ? '{}' : '}';
  return true;
}

/** Whether JavaScript treats `k` as an array index (listed first, in numeric order). */
function isIndexKey(k: string): boolean {
  const c = k.charCodeAt(0);
  if (c < 48 || c > 57 || (c === 48 && k.length > 1)) return false;
  for (let i = 1; i < k.length; i++) {
    const d = k.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return k.length < 10 || Number(k) < 4294967295;
}

/** The definition of the canonical text: JSON.stringify's replacer that sorts every plain object's keys. */
export function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1]! < keys[i]!;
  if (inOrder) return value;
  keys.sort();
  const sorted: Record<string, unknown> = {};
  for (const k of keys) sorted[k] = obj[k];
  return sorted;
}

/**
 * The state a hash covers: all of it but a top-level `version`, the engine's own note of
 * the rules version the state follows (rules/version.ts). That note says which rules,
 * not where the game stands, and a recorded game's version is kept beside its hashes;
 * so an engine that starts writing it down does not change what old games hash to.
 */
function withoutVersion(state: Record<string, unknown>): Record<string, unknown> {
  const { version: _version, ...rest } = state;
  return rest;
}

export function stateHashOf(seed: string, canonical: string): string {
  return sha256(`${seed}\n${canonical}`);
}

function hasVersion(state: unknown): boolean {
  return state !== null && typeof state === 'object' && !Array.isArray(state) && 'version' in state;
}

/** The canonical JSON of a state (without its top-level `version`: withoutVersion) and its hash. */
export function hashState(seed: string, state: unknown): { json: string; hash: string } {
  const json = canonicalText(state, hasVersion(state));
  return { json, hash: stateHashOf(seed, json) };
}
