// The embedded store's index in memory: one row per game, small enough for
// 100,000 games and quick to load (issue 14: start-up under 2 s and 250 MB).
//
// Why not one IndexEntry object per game: a row carries about ten SHA-256
// hashes (the last entry's, every link key's, every player's address), each a
// 64-character hex string: two thirds of a row's bytes, parsed and kept as
// strings, and a Map of 700,000 key strings besides. Here a row keeps its
// plain fields as a small object, and its hashes as 32 raw bytes each in one
// shared buffer (the arena), in a block per game:
//   [last entry's hash][admin][spectator][invite?][confirm?]
//   [seat keys...][retired keys...][address hashes...]
// A shard on disk holds its rows' blocks back to back (index-shards.ts), so a
// start-up copies each shard's hashes into the arena at once.
// A link key is found through an open-addressing table over those bytes (a
// few bytes a key, no string per key). IndexEntry objects are made only for
// the rows a caller asks for.
// A row whose hashes are not all 64 lowercase hex digits (hand-made data)
// keeps them as strings ("odd" rows): slower, never wrong.
import { KeyTable, keyAt } from './key-table.ts';
import type { IndexEntry, KeyTarget } from './types.ts';

const HASH = 32;
const HEX64 = /^[0-9a-f]{64}$/;
/** Bits of Row.h: which optional hashes the block has. */
const NO_LAST = 1; // the log is empty: lastHash is ''
const HAS_INVITE = 2;
const HAS_CONFIRM = 4;
const HAS_RETIRED = 8; // keys.retired is present (possibly empty)

/** A game's plain fields (IndexEntry without its hashes), as kept in memory and in the shards. */
export type Plain = Omit<IndexEntry, 'lastHash' | 'keys' | 'mailHashes'>;

/**
 * A row: the plain fields plus
 *  h  the block's layout: flag bits (above) | seat keys << 4 | retired keys << 12 | addresses << 20
 *  x  an odd row's hashes as strings (then it has no block)
 *  b  the arena offset of the block (memory only)
 */
export type Row = Plain & {
  h: number;
  x?: Pick<IndexEntry, 'lastHash' | 'keys' | 'mailHashes'>;
  b?: number;
  /** The row's number (memory only). */
  n?: number;
};

/**
 * The plain fields a shard stores by position: a row is a JSON array, so a start-up reads no
 * field names. Anything else a row has (rare fields, and fields added later) follows as one
 * object; a row missing one of these is stored as an object.
 */
const FIELDS = [
  'id',
  'rules',
  'title',
  'status',
  'listed',
  'seatCount',
  'names',
  'createdAt',
  'updatedAt',
  'lastSeq',
  'toAct',
  'nextReminderAt',
  'inviteGeneration',
  'sealed',
  'rulesVersion',
  'attention',
  'h',
] as const;

/** A row as a shard holds it. */
export type StoredRow = unknown[] | Row;

function toStored(r: Row): StoredRow {
  const { b: _b, n: _n, ...rest } = r;
  const fields = rest as Record<string, unknown>;
  const t: unknown[] = [];
  for (const f of FIELDS) {
    if (fields[f] === undefined) return rest as Row;
    t.push(fields[f]);
  }
  const extra: Record<string, unknown> = {};
  let more = false;
  for (const k of Object.keys(fields))
    if (!(FIELDS as readonly string[]).includes(k) && fields[k] !== undefined) {
      extra[k] = fields[k];
      more = true;
    }
  if (more) t.push(extra);
  return t;
}

function fromStored(s: StoredRow): Row {
  if (!Array.isArray(s)) return s;
  const r = {
    id: s[0],
    rules: s[1],
    title: s[2],
    status: s[3],
    listed: s[4],
    seatCount: s[5],
    names: s[6],
    createdAt: s[7],
    updatedAt: s[8],
    lastSeq: s[9],
    toAct: s[10],
    nextReminderAt: s[11],
    inviteGeneration: s[12],
    sealed: s[13],
    rulesVersion: s[14],
    attention: s[15],
    h: s[16],
    b: undefined,
    n: 0,
  } as Row;
  if (s.length > FIELDS.length) Object.assign(r, s[FIELDS.length]);
  return r;
}

const seatsOf = (h: number) => (h >>> 4) & 0xff;
const retiredOf = (h: number) => (h >>> 12) & 0xff;
const mailsOf = (h: number) => (h >>> 20) & 0xff;
/** Hashes in a block, by the layout word. */
const hashesIn = (h: number) =>
  3 + (h & HAS_INVITE ? 1 : 0) + (h & HAS_CONFIRM ? 1 : 0) + seatsOf(h) + retiredOf(h) + mailsOf(h);

/** Splits an index row into its plain fields and its hashes (layout word and bytes), or an odd row. */
export function splitEntry(e: IndexEntry): { row: Row; bytes: Buffer | null } {
  const { lastHash, keys, mailHashes = [], ...plain } = e;
  const seats = keys.seats;
  const retired = keys.retired;
  const hexes = [
    lastHash,
    keys.admin,
    keys.spectator,
    ...(keys.invite != null ? [keys.invite] : []),
    ...(keys.confirm != null ? [keys.confirm] : []),
    ...seats,
    ...(retired ?? []),
    ...mailHashes,
  ];
  // '' may stand only for an empty log's last hash and a vacant seat's key (stored as zeros).
  const seatStart = 3 + (keys.invite != null ? 1 : 0) + (keys.confirm != null ? 1 : 0);
  const blankAllowed = (i: number) => i === 0 || (i >= seatStart && i < seatStart + seats.length);
  const odd =
    !hexes.every((s, i) => HEX64.test(s) || (s === '' && blankAllowed(i))) ||
    seats.length > 0xff ||
    (retired?.length ?? 0) > 0xff ||
    mailHashes.length > 0xff ||
    (keys.confirm === null && 'confirm' in keys); // a stored null confirm key: kept exactly
  if (odd) return { row: { ...plain, h: 0, x: { lastHash, keys, mailHashes: e.mailHashes } }, bytes: null };
  const h =
    (lastHash === '' ? NO_LAST : 0) |
    (keys.invite != null ? HAS_INVITE : 0) |
    (keys.confirm != null ? HAS_CONFIRM : 0) |
    (retired ? HAS_RETIRED : 0) |
    (seats.length << 4) |
    ((retired?.length ?? 0) << 12) |
    (mailHashes.length << 20);
  const bytes = Buffer.alloc(hexes.length * HASH);
  hexes.forEach((s, i) => {
    if (s) bytes.write(s, i * HASH, HASH, 'hex');
  });
  return { row: { ...plain, h }, bytes };
}

/** An IndexEntry again, from a row and its hash bytes (at `at` in `buf`). */
function joinEntry(row: Row, buf: Buffer, at: number): IndexEntry {
  const { h, x, b: _b, n: _n, ...plain } = row;
  if (x) return { ...plain, ...x } as IndexEntry;
  let p = at;
  const next = () => {
    const s = buf.toString('hex', p, p + HASH);
    p += HASH;
    return s;
  };
  const blankOr = (s: string) => (s === ZERO_HEX ? '' : s);
  const lastHash = blankOr(next());
  const admin = next();
  const spectator = next();
  const invite = h & HAS_INVITE ? next() : null;
  const confirm = h & HAS_CONFIRM ? next() : undefined;
  const seats = Array.from({ length: seatsOf(h) }, () => blankOr(next()));
  const retired = Array.from({ length: retiredOf(h) }, next);
  const mailHashes = Array.from({ length: mailsOf(h) }, next);
  return {
    ...plain,
    lastHash,
    mailHashes,
    keys: {
      admin,
      spectator,
      invite,
      seats,
      ...(confirm !== undefined ? { confirm } : {}),
      ...(h & HAS_RETIRED ? { retired } : {}),
    },
  } as IndexEntry;
}

const ZERO_HEX = '0'.repeat(64);

export class IndexTable {
  private rows = new Map<string, Row>();
  /** Rows by number (the u32 at the start of their block). */
  private byNumber: Row[] = [];
  private arena: Buffer = Buffer.alloc(1 << 16);
  /** The arena as 32-bit words (its own ArrayBuffer, so aligned): for the key table. */
  private words: Uint32Array = new Uint32Array(this.arena.buffer, this.arena.byteOffset, this.arena.length >>> 2);
  private used = 0;
  /** Bytes of blocks no row points at any more (a row's keys changed). */
  private garbage = 0;
  private keys = new KeyTable();
  /** Where row number n's block starts (the key table finds keys through it). */
  private blockOf = (n: number) => this.byNumber[n]!.b!;
  /** Keys of odd rows (hash string to game id). */
  private oddKeys = new Map<string, string>();
  /**
   * Every row by (updatedAt, id), oldest first; null until a listing needs it, then kept in
   * order at each change: a changed game moves, which costs a binary search and one splice.
   */
  private byUpdated: Row[] | null = null;

  get size(): number {
    return this.rows.size;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** The game's row as an IndexEntry (a new object each time). */
  get(id: string): IndexEntry | undefined {
    const r = this.rows.get(id);
    return r && this.entry(r);
  }

  /** The two fields every append checks, without making an IndexEntry. */
  tail(id: string): { lastSeq: number; lastHash: string } | undefined {
    const r = this.rows.get(id);
    if (!r) return undefined;
    if (r.x) return { lastSeq: r.lastSeq, lastHash: r.x.lastHash };
    const s = this.arena.toString('hex', r.b!, r.b! + HASH);
    return { lastSeq: r.lastSeq, lastHash: s === ZERO_HEX ? '' : s };
  }

  /** A row as an IndexEntry (a new object). */
  entry(r: Row): IndexEntry {
    return joinEntry(r, this.arena, r.b ?? 0);
  }

  /** Sets a game's row (new or changed). */
  set(e: IndexEntry): void {
    const { row, bytes } = splitEntry(e);
    this.put(row, bytes, 0);
  }

  /** Puts a row whose hash bytes are `src[at ..]`, or an odd row (`src` null). */
  private put(row: Row, src: Buffer | null, at: number): void {
    const old = this.rows.get(row.id);
    const len = row.x ? 0 : hashesIn(row.h) * HASH;
    const number = old ? numberOf(old) : this.byNumber.length;
    row.n = number;
    if (old && old.b !== undefined && src && old.h === row.h) {
      // Same layout: when only the last entry's hash differs (every move), overwrite it in place.
      const ob = old.b;
      if (src.compare(this.arena, ob + HASH, ob + len, at + HASH, at + len) === 0) {
        src.copy(this.arena, ob, at, at + HASH);
        row.b = old.b;
        this.replace(old, row);
        return;
      }
    }
    if (old) {
      this.dropKeys(old);
      if (old.b !== undefined) this.garbage += hashesIn(old.h) * HASH;
    }
    if (src) {
      this.reserve(len);
      row.b = this.used;
      src.copy(this.arena, this.used, at, at + len);
      this.used += len;
    }
    if (old) this.replace(old, row);
    else {
      this.rows.set(row.id, row);
      this.byNumber.push(row);
      this.byUpdated?.splice(lowerBound(this.byUpdated, row), 0, row);
    }
    this.addKeys(row);
    if (this.garbage > 1 << 20 && this.garbage > this.used / 2) this.repack();
  }

  private replace(old: Row, row: Row): void {
    this.rows.set(row.id, row);
    this.byNumber[row.n!] = row;
    const sorted = this.byUpdated;
    if (!sorted) return;
    const at = lowerBound(sorted, old);
    if (sorted[at] !== old) {
      this.byUpdated = null; // not where it should be: sort afresh when next needed
      return;
    }
    sorted.splice(at, 1);
    sorted.splice(lowerBound(sorted, row), 0, row);
  }

  private reserve(n: number): void {
    if (this.used + n <= this.arena.length) return;
    // Half as much again: the arena is most of the index's memory, so it grows in modest steps.
    let size = Math.ceil(this.arena.length * 1.5);
    while (size < this.used + n) size = Math.ceil(size * 1.5);
    this.setArena(Buffer.alloc(size - (size % HASH)));
  }

  private setArena(next: Buffer): void {
    this.arena.copy(next, 0, 0, Math.min(this.used, next.length));
    this.arena = next;
    this.words = new Uint32Array(next.buffer, next.byteOffset, next.length >>> 2);
  }

  /** Copies the live blocks into a fresh arena and finds their keys again. */
  private repack(): void {
    const fresh = Buffer.alloc(Math.max(1 << 16, (this.used - this.garbage) * 2));
    let at = 0;
    for (const r of this.byNumber) {
      if (r.b === undefined) continue;
      const len = hashesIn(r.h) * HASH;
      this.arena.copy(fresh, at, r.b, r.b + len);
      r.b = at;
      at += len;
    }
    this.arena = fresh;
    this.words = new Uint32Array(fresh.buffer, fresh.byteOffset, fresh.length >>> 2);
    this.used = at;
    this.garbage = 0; // (the key table names rows by number: it holds as it is)
  }

  // ---- keys ------------------------------------------------------------------

  private addKeys(r: Row): void {
    if (r.x) {
      forEachKeyString(r.x.keys, (s, retired) => (!retired || !this.oddKeys.has(s)) && this.oddKeys.set(s, r.id));
      return;
    }
    const n = keyCount(r.h);
    for (let i = 0; i < n; i++)
      if (!isZero(this.words, keyAt(r.b!, i))) this.keys.add(this.words, this.blockOf, r.n!, i);
  }

  private dropKeys(r: Row): void {
    if (r.x) {
      forEachKeyString(r.x.keys, (s) => this.oddKeys.get(s) === r.id && this.oddKeys.delete(s));
      return;
    }
    const n = keyCount(r.h);
    for (let i = 0; i < n; i++)
      if (!isZero(this.words, keyAt(r.b!, i))) this.keys.remove(this.words, this.blockOf, r.n!, i);
  }

  /** What a key hash opens (a current key wins over a retired one with the same hash). */
  findKey(keyHash: string): KeyTarget | null {
    if (!HEX64.test(keyHash)) return this.findOddKey(keyHash);
    let found: KeyTarget | null = null;
    const want = new Uint32Array(8);
    Buffer.from(want.buffer).write(keyHash, 'hex');
    this.keys.find(this.words, this.blockOf, want, (n, index) => {
      const target = targetIn(this.byNumber[n]!, index);
      if (target && (!found || found.role === 'retired')) found = target;
      return found !== null && found.role !== 'retired';
    });
    return found ?? this.findOddKey(keyHash);
  }

  private findOddKey(keyHash: string): KeyTarget | null {
    const id = this.oddKeys.get(keyHash);
    const r = id === undefined ? undefined : this.rows.get(id);
    return r?.x ? keyTargetOf(r.id, r.x.keys, keyHash) : null;
  }

  // ---- listing ---------------------------------------------------------------

  /** Rows newest first (by updatedAt, then id) that pass `test`, as IndexEntries, and how many pass. */
  list(
    test: (r: Row) => boolean,
    opts: { limit: number; updatedSince?: string; mailHash?: string },
  ): { entries: IndexEntry[]; total: number } {
    const rows = this.sorted();
    const mail = opts.mailHash === undefined ? null : mailBytes(opts.mailHash);
    const entries: IndexEntry[] = [];
    let total = 0;
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i]!;
      if (opts.updatedSince !== undefined && r.updatedAt < opts.updatedSince) break;
      if (!test(r)) continue;
      if (opts.mailHash !== undefined && !this.hasMail(r, opts.mailHash, mail)) continue;
      total++;
      if (entries.length < opts.limit) entries.push(this.entry(r));
    }
    return { entries, total };
  }

  /** Whether the row's addresses include this hash. */
  private hasMail(r: Row, hex: string, bytes: Buffer | null): boolean {
    if (r.x) return (r.x.mailHashes ?? []).includes(hex);
    if (!bytes) return false;
    const end = r.b! + hashesIn(r.h) * HASH;
    for (let i = 1; i <= mailsOf(r.h); i++) {
      const at = end - i * HASH;
      if (bytes.compare(this.arena, at, at + HASH) === 0) return true;
    }
    return false;
  }

  /** Every row (its plain fields are enough for scans). */
  values(): IterableIterator<Row> {
    return this.rows.values();
  }

  private sorted(): Row[] {
    if (!this.byUpdated) {
      // The first listing after a start sorts every row: numbers compare faster than ISO strings.
      const rows = [...this.rows.values()];
      const t = new Float64Array(this.byNumber.length);
      for (const r of rows) t[r.n!] = Date.parse(r.updatedAt);
      rows.sort((a, b) => t[a.n!]! - t[b.n!]! || byUpdate(a, b));
      this.byUpdated = rows;
    }
    return this.byUpdated;
  }

  // ---- shards ----------------------------------------------------------------

  /** These games' rows as a shard holds them: plain fields (JSON) and their hashes (bytes, in order). */
  encode(ids: Iterable<string>): { rows: StoredRow[]; hashes: Buffer } {
    const rows: StoredRow[] = [];
    const parts: Buffer[] = [];
    for (const id of ids) {
      const r = this.rows.get(id);
      if (!r) continue;
      rows.push(toStored(r));
      if (r.b !== undefined) parts.push(this.arena.subarray(r.b, r.b + hashesIn(r.h) * HASH));
    }
    return { rows, hashes: Buffer.concat(parts) };
  }

  /** Makes room for a start-up's rows at once (counted in the manifest): no growing as they come. */
  expect(rows: number, hashBytes = rows * 12 * HASH): void {
    this.reserve(hashBytes);
    this.keys.reserve(this.words, this.blockOf, rows * 8);
  }

  /** Loads a shard's rows; `hashes` holds their blocks back to back (as encode wrote them). */
  decode(stored: StoredRow[], hashes: Buffer): string[] {
    // New rows (a start-up) take the shard's hashes as they are, in one copy.
    this.reserve(hashes.length);
    const base = this.used;
    hashes.copy(this.arena, base);
    this.used += hashes.length;
    let at = 0;
    const ids: string[] = [];
    for (const s of stored) {
      const row = fromStored(s);
      ids.push(row.id);
      const len = row.x ? 0 : hashesIn(row.h) * HASH;
      if (at + len > hashes.length) throw new Error('its hashes are cut short');
      if (this.rows.has(row.id)) {
        this.garbage += len; // (copied above, but put() takes its own copy)
        this.put(row, row.x ? null : hashes, at);
      } else {
        if (!row.x) row.b = base + at;
        row.n = this.byNumber.length;
        this.rows.set(row.id, row);
        this.byNumber.push(row);
        this.byUpdated?.splice(lowerBound(this.byUpdated, row), 0, row);
        this.addKeys(row);
      }
      at += len;
    }
    if (at !== hashes.length) throw new Error('its hashes do not match its rows');
    return ids;
  }
}

const numberOf = (r: Row) => r.n!;

const mailBytes = (hex: string) => (HEX64.test(hex) ? Buffer.from(hex, 'hex') : null);

/** The target of the key at `index` of the row's block (0: admin), or null for none. */
function targetIn(r: Row, index: number): KeyTarget | null {
  const gameId = r.id;
  const h = r.h;
  let k = index;
  if (k === 0) return { gameId, role: 'admin' };
  if (k === 1) return { gameId, role: 'spectator' };
  k -= 2;
  if (h & HAS_INVITE) {
    if (k === 0) return { gameId, role: 'invite' };
    k--;
  }
  if (h & HAS_CONFIRM) {
    if (k === 0) return { gameId, role: 'confirm' };
    k--;
  }
  if (k < seatsOf(h)) return { gameId, role: 'seat', seat: k };
  k -= seatsOf(h);
  return k < retiredOf(h) ? { gameId, role: 'retired' } : null;
}

/** Keys in a block's layout (admin, spectator, invite, confirm, seats, retired; not addresses). */
function keyCount(h: number): number {
  return hashesIn(h) - 1 - mailsOf(h);
}

function isZero(words: Uint32Array, at: number): boolean {
  const w = at >>> 2;
  for (let i = w; i < w + 8; i++) if (words[i] !== 0) return false;
  return true;
}

function forEachKeyString(k: IndexEntry['keys'], fn: (h: string, retired: boolean) => unknown): void {
  if (k.admin) fn(k.admin, false);
  if (k.spectator) fn(k.spectator, false);
  if (k.invite) fn(k.invite, false);
  if (k.confirm) fn(k.confirm, false);
  for (const h of k.seats) if (h) fn(h, false);
  for (const h of k.retired ?? []) if (h) fn(h, true);
}

function keyTargetOf(gameId: string, k: IndexEntry['keys'], h: string): KeyTarget | null {
  if (k.admin === h) return { gameId, role: 'admin' };
  if (k.spectator === h) return { gameId, role: 'spectator' };
  if (k.invite === h) return { gameId, role: 'invite' };
  if (k.confirm === h) return { gameId, role: 'confirm' };
  const seat = k.seats.indexOf(h);
  if (seat >= 0) return { gameId, role: 'seat', seat };
  return k.retired?.includes(h) ? { gameId, role: 'retired' } : null;
}

/** Oldest first by update time, then by id (so every row has one place). */
function byUpdate(a: Plain, b: Plain): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The first index whose row does not sort before `e`. */
function lowerBound(rows: Plain[], e: Plain): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byUpdate(rows[mid]!, e) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
