// The hash chain over a game's log.
// Canonical JSON: object keys sorted, no whitespace, undefined members left
// out. An entry's hash covers the entry without `hash`, with its `action` and
// `salt` replaced by `actionHash`, so a history that withholds other seats'
// actions (while the game runs) still verifies.
// The salt: every entry carrying an action gets 128 random bits (base64url)
// when it is sealed, and actionHash = sha256(salt + canonical action). Without
// it a withheld low-entropy action (a card number, a stake) could be found by
// hashing every candidate. Entries sealed before salts existed have none and
// keep actionHash = sha256(canonical action), so old game files still load.
// A download (history.json) writes players' names into `text` where the rules
// wrote {seat:N} and keeps the sealed text as `sealedText`; the hash covers that.
import { createHash, randomFillSync } from 'node:crypto';
import type { LogEntry } from './types.ts';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (value === undefined) return 'null';
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function actionHashOf(action: unknown, salt?: string): string {
  return sha256(salt === undefined ? canonicalJson(action) : salt + canonicalJson(action));
}

/**
 * Random bytes for salts, drawn from the system's secure generator 4 KiB at a time (one call
 * into it per 256 salts instead of one per move); each 16 bytes are used once.
 */
const saltPool = Buffer.alloc(4096);
let saltAt = saltPool.length;

/** A fresh salt for an action entry: 128 random bits, base64url. */
export function newSalt(): string {
  if (saltAt + 16 > saltPool.length) {
    randomFillSync(saltPool);
    saltAt = 0;
  }
  const salt = saltPool.toString('base64url', saltAt, saltAt + 16);
  saltAt += 16;
  return salt;
}

/** The hash an entry must carry. */
export function entryHash(entry: Omit<LogEntry, 'hash'> & { hash?: string }): string {
  const { hash: _hash, action, salt, sealedText, ...rest } = entry;
  const body: Record<string, unknown> = { ...rest };
  if (action !== undefined) body.actionHash = actionHashOf(action, salt);
  // A download shows `text` with players' names written in; the hash covers the text as sealed.
  if (sealedText !== undefined) body.text = sealedText;
  return sha256(canonicalJson(body));
}

/** Seals a new entry onto the end of `log` (fills prev and hash) and returns it. */
export function sealEntry(log: LogEntry[], entry: Omit<LogEntry, 'seq' | 'prev' | 'hash'>): LogEntry {
  return sealAfter(log[log.length - 1], entry);
}

/**
 * Seals a new entry after the entry with this seq and hash (undefined: the first entry). What a
 * writer that knows only a log's end (an index row's lastSeq and lastHash) seals with.
 */
export function sealAfter(
  last: { seq: number; hash: string } | undefined,
  entry: Omit<LogEntry, 'seq' | 'prev' | 'hash'>,
): LogEntry {
  const draft = { ...entry, seq: (last?.seq ?? 0) + 1, prev: last?.hash ?? '' } as LogEntry;
  if (draft.action !== undefined && draft.salt === undefined) draft.salt = newSalt();
  draft.hash = entryHash(draft);
  return draft;
}

/**
 * Null when the chain holds; otherwise the first broken seq and why. Every
 * entry's seq and prev are checked; hashes are recomputed only for the entries
 * from index `from` on (the rest can be checked later, off the hot path).
 */
export function checkChain(log: LogEntry[], from = 0): { seq: number; why: string } | null {
  let prev = '';
  for (let i = 0; i < log.length; i++) {
    const e = log[i]!;
    if (e.seq !== i + 1) return { seq: e.seq ?? i + 1, why: `expected seq ${i + 1}` };
    if (e.prev !== prev) return { seq: e.seq, why: 'prev does not match the hash of the entry before' };
    if (i >= from) {
      const broken = checkEntry(e);
      if (broken) return broken;
    }
    prev = e.hash;
  }
  return null;
}

/** Whether one entry's own hash (and its salt and action hash) hold. */
export function checkEntry(e: LogEntry): { seq: number; why: string } | null {
  if (e.salt !== undefined && (typeof e.salt !== 'string' || e.action === undefined)) {
    return { seq: e.seq, why: e.action === undefined ? 'a salt without its action' : 'the salt is not text' };
  }
  if (e.action !== undefined && e.actionHash !== undefined && e.actionHash !== actionHashOf(e.action, e.salt)) {
    return { seq: e.seq, why: 'actionHash does not match the action' };
  }
  if (entryHash(e) !== e.hash) return { seq: e.seq, why: 'hash does not match the entry' };
  return null;
}
