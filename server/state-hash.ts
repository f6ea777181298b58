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
 *
 * Written out here rather than through JSON.stringify's replacer: the replacer
 * copied every object whose keys were out of order (two in three of a real
 * state's) into a sorted one, once a move, and was about half as fast. The text
 * is the replacer's, character for character (test/server/state-hash.test.ts);
 * anything that is not plain JSON (a Date, a class, a Map, a BigInt) is left to
 * the replacer, which says what JSON.stringify makes of it.
 */
export function canonicalState(state: unknown): string {
  try {
    return canonicalText(state) ?? 'null';
  } catch (err) {
    if (err !== notPlain) throw err;
    return JSON.stringify(state, sortedKeys) ?? 'null';
  }
}

/** Thrown (one object, no stack) when a value needs JSON.stringify's own rules. */
const notPlain = Symbol('not plain JSON');

/** A value's canonical text, or undefined where JSON.stringify leaves a member out. */
function canonicalText(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      throw notPlain; // bigint
  }
  if (v === null) return 'null';
  const proto = Object.getPrototypeOf(v);
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') throw notPlain;
  if (Array.isArray(v)) {
    if (proto !== Array.prototype) throw notPlain;
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ',') + (canonicalText(v[i]) ?? 'null');
    return `${out}]`;
  }
  if (proto !== Object.prototype && proto !== null) throw notPlain;
  const obj = v as Record<string, unknown>;
  let keys = Object.keys(obj);
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1]! < keys[i]!;
  if (!inOrder) {
    // The replacer's sorted copy set a `__proto__` key as the copy's prototype, losing it.
    if (keys.includes('__proto__')) throw notPlain;
    // The replacer's sorted copy lists its integer-like keys first again, in numeric order, as
    // Object.keys gave them; only the keys after them change places.
    let ints = 0;
    while (ints < keys.length && isIndexKey(keys[ints]!)) ints++;
    keys = ints === 0 ? keys.sort() : keys.slice(0, ints).concat(keys.slice(ints).sort());
  }
  let out = '{';
  for (const k of keys) {
    const text = canonicalText(obj[k]);
    if (text === undefined) continue;
    out += (out.length === 1 ? '' : ',') + keyText(k) + text;
  }
  return `${out}}`;
}

/** A string as JSON writes it; most need no escapes (no quote, backslash, control character or surrogate). */
function quote(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** `"key":` for the keys states use again and again (bounded: a state's keys are few). */
const keyTexts = new Map<string, string>();

function keyText(k: string): string {
  let t = keyTexts.get(k);
  if (t === undefined) {
    t = `${quote(k)}:`;
    if (keyTexts.size < 10_000) keyTexts.set(k, t);
  }
  return t;
}

/** A key JavaScript lists before all others, in numeric order: a canonical integer below 2^32 - 1. */
function isIndexKey(k: string): boolean {
  const first = k.charCodeAt(0);
  if (first < 48 || first > 57) return false;
  if (k.length === 1) return true;
  if (first === 48 || k.length > 10) return false;
  for (let i = 1; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(k) < 4294967295;
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
