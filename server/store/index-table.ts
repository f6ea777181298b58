// The embedded store's index in memory: one row per game, small enough for
// 100,000 games and quick to load (issue 14: start-up under 2 s and 250 MB).
//
// A row has three parts, kept apart because they are used apart:
//   - columns (typed arrays, by row number): what listing, reminders and the
//     mail's catch-up scan for every game: update time, reminder time, last
//     seq, status and a few flags, and where the row's hashes are;
//   - hashes (index-row.ts): raw bytes in one shared buffer, the arena; the
//     link keys among them are found through an open-addressing table
//     (key-table.ts), a few bytes a key, no string per key;
//   - plain fields (title, names, sealed links...): needed only for the rows a
//     caller asks for. A start-up keeps where each row's JSON line is in its
//     shard file, and reads and parses the line when the row is first asked for.
//     Before a shard file is replaced, the lines its rows still need are read
//     into memory (encode), so no row ever points into a file that changed.
// So opening 100,000 games parses no row and makes no object per game beyond
// its id; an IndexEntry is made only for a row a caller asks for.
//
// A shard's bytes (what index-shards.ts writes to DATA_DIR/index/xx.idx, format 5):
//   {"format":5,"count":N,"text":T,"bytes":B,"ids":[...]}\n   the header, one line of ASCII
//   N records of 32 bytes: f64 updatedAt, f64 nextReminderAt (NaN: none), u32 lastSeq,
//                          u32 layout, u32 flags, u32 length of the row's line
//   B bytes: the rows' hash blocks, in row order
//   T bytes: N lines, each a row's plain fields as JSON (ASCII: past it, \u escapes)
// A start-up reads up to the hashes (straight into the arena) and never the lines.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { KeyTable, keyAt } from './key-table.ts';
import {
  forEachKeyString,
  fromStored,
  HASH,
  hashesIn,
  HEX64,
  joinEntry,
  keyCount,
  keyTargetOf,
  mailsOf,
  type Row,
  splitEntry,
  type StoredRow,
  targetIn,
  toStored,
  ZERO_HEX,
} from './index-row.ts';
import type { GameQuery, IndexEntry, KeyTarget, LogEnd } from './types.ts';

export const SHARD_BYTES_FORMAT = 5;
const RECORD = 32;
/** No block: an odd row (its hashes are strings in its plain fields). */
const NO_BLOCK = 0xffffffff;

// Flags: the status as a number, and what listing filters on.
const STATUS = ['open', 'active', 'finished', 'abandoned'] as const;
const STATUS_MASK = 0x7; // 0: a status this code does not know (read from the row)
const LISTED = 0x8; // listed, and its organiser has confirmed
const FREE_SEAT = 0x10;
const ATTENTION = 0x20;

function flagsOf(r: Row): number {
  const status = STATUS.indexOf(r.status as (typeof STATUS)[number]) + 1;
  return (
    status |
    (r.listed && r.confirmed !== false ? LISTED : 0) |
    (r.names.length < r.seatCount || (r.vacantSeats ?? 0) > 0 ? FREE_SEAT : 0) |
    (r.attention ? ATTENTION : 0)
  );
}

const timeOf = (iso: string | null) => (iso === null ? Number.NaN : Date.parse(iso));

/** Where decode reads a shard from: a file (by position), or bytes in memory. */
export interface ShardSource {
  size: number;
  /** Reads `length` bytes at `position` into `into` at `at`; throws when there are fewer. */
  read(into: Buffer, at: number, length: number, position: number): void;
  /** The file, whose rows' lines are then read when asked for (see decode). */
  file?: string;
}

/** A shard's bytes in memory as a ShardSource. */
export function bytesSource(buf: Buffer): ShardSource {
  return {
    size: buf.length,
    read(into, at, length, position) {
      if (position + length > buf.length) throw new Error('cut short');
      buf.copy(into, at, position, position + length);
    },
  };
}

/** Typed-array columns that grow by half again when full. */
class Columns {
  updated = new Float64Array(1024);
  reminder = new Float64Array(1024);
  lastSeq = new Uint32Array(1024);
  layout = new Uint32Array(1024);
  block = new Uint32Array(1024);
  flags = new Uint8Array(1024);
  /** Where an unread row's line is: file (1 + index into IndexTable.files; 0: none), offset, length. */
  lineFile = new Uint16Array(1024);
  lineAt = new Uint32Array(1024);
  lineLen = new Uint32Array(1024);

  ensure(n: number): void {
    if (n <= this.updated.length) return;
    let size = this.updated.length;
    while (size < n) size = Math.ceil(size * 1.5);
    const grow = <T extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.updated = grow(this.updated, (n) => new Float64Array(n));
    this.reminder = grow(this.reminder, (n) => new Float64Array(n));
    this.lastSeq = grow(this.lastSeq, (n) => new Uint32Array(n));
    this.layout = grow(this.layout, (n) => new Uint32Array(n));
    this.block = grow(this.block, (n) => new Uint32Array(n));
    this.flags = grow(this.flags, (n) => new Uint8Array(n));
    this.lineFile = grow(this.lineFile, (n) => new Uint16Array(n));
    this.lineAt = grow(this.lineAt, (n) => new Uint32Array(n));
    this.lineLen = grow(this.lineLen, (n) => new Uint32Array(n));
  }
}

export class IndexTable {
  private ids: string[] = [];
  private byId = new Map<string, number>();
  /** A row's plain fields: parsed (or set), else its stored line in memory, else in a file (col.lineFile). */
  private plain: (Row | undefined)[] = [];
  private lines: (string | undefined)[] = [];
  /** The shard files rows' lines are read from. */
  private files: string[] = [];
  private col = new Columns();
  private arena: Buffer = Buffer.alloc(1 << 16);
  /** The arena as 32-bit words (its own ArrayBuffer, so aligned): for the key table. */
  private words: Uint32Array = new Uint32Array(this.arena.buffer, 0, this.arena.length >>> 2);
  private used = 0;
  /** Bytes of blocks no row points at any more (a row's keys changed). */
  private garbage = 0;
  private keys = new KeyTable();
  /** Where row number n's block starts (the key table finds keys through it). */
  private blockOf = (n: number) => this.col.block[n]!;
  /** Keys of odd rows (hash string to row number). */
  private oddKeys = new Map<string, number>();
  /**
   * Row numbers by (updatedAt, id), oldest first; null until a listing needs it, then kept in
   * order at each change: a changed game moves, which costs a binary search and one splice.
   */
  private byUpdated: number[] | null = null;

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The game's row as an IndexEntry (a new object each time). */
  get(id: string): IndexEntry | undefined {
    const n = this.byId.get(id);
    return n === undefined ? undefined : this.entryOf(n);
  }

  /** The two fields every append checks, without making an IndexEntry. */
  tail(id: string): { lastSeq: number; lastHash: string } | undefined {
    const n = this.byId.get(id);
    if (n === undefined) return undefined;
    const b = this.col.block[n]!;
    if (b === NO_BLOCK) return { lastSeq: this.col.lastSeq[n]!, lastHash: this.rowOf(n).x!.lastHash };
    const s = this.arena.toString('hex', b, b + HASH);
    return { lastSeq: this.col.lastSeq[n]!, lastHash: s === ZERO_HEX ? '' : s };
  }

  private rowOf(n: number): Row {
    let r = this.plain[n];
    if (!r) {
      r = fromStored(JSON.parse(this.lines[n] ?? this.readLine(n)) as StoredRow);
      this.plain[n] = r;
      this.lines[n] = undefined;
      this.col.lineFile[n] = 0;
    }
    return r;
  }

  /** A row's line, from its shard file (the file is as it was loaded: see encode). */
  private readLine(n: number): string {
    const c = this.col;
    return this.readAt(this.files[c.lineFile[n]! - 1]!, c.lineAt[n]!, c.lineLen[n]!);
  }

  private readAt(file: string, position: number, length: number): string {
    const buf = Buffer.allocUnsafe(length);
    const fd = openSync(file, 'r');
    try {
      if (readSync(fd, buf, 0, length, position) !== length) throw new Error(`${file} cut short`);
    } finally {
      closeSync(fd);
    }
    return buf.toString('latin1');
  }

  private entryOf(n: number): IndexEntry {
    const b = this.col.block[n]!;
    return joinEntry(this.rowOf(n), this.arena, b === NO_BLOCK ? 0 : b);
  }

  // ---- changing ----------------------------------------------------------------

  /** Sets a game's row (new or changed). */
  set(e: IndexEntry): void {
    const { row, bytes } = splitEntry(e);
    const len = bytes ? bytes.length : 0;
    let n = this.byId.get(row.id);
    const c = this.col;
    if (n !== undefined) {
      this.unsort(n);
      const ob = c.block[n]!;
      if (
        bytes &&
        ob !== NO_BLOCK &&
        c.layout[n] === row.h &&
        bytes.compare(this.arena, ob + HASH, ob + len, HASH) === 0
      ) {
        // Only the last entry's hash differs (every move): overwrite it in place.
        bytes.copy(this.arena, ob, 0, HASH);
        this.setColumns(n, row, ob);
        this.resort(n);
        return;
      }
      this.dropKeys(n);
      if (ob !== NO_BLOCK) this.garbage += hashesIn(c.layout[n]!) * HASH;
    } else {
      n = this.ids.length;
      this.ids.push(row.id);
      this.byId.set(row.id, n);
      c.ensure(n + 1);
    }
    let block = NO_BLOCK;
    if (bytes) {
      this.reserve(len);
      block = this.used;
      bytes.copy(this.arena, block);
      this.used += len;
    }
    this.setColumns(n, row, block);
    this.addKeys(n);
    this.resort(n);
    if (this.garbage > 1 << 20 && this.garbage > this.used / 2) this.repack();
  }

  private setColumns(n: number, row: Row, block: number): void {
    const c = this.col;
    this.plain[n] = row;
    this.lines[n] = undefined;
    c.lineFile[n] = 0;
    c.updated[n] = Date.parse(row.updatedAt);
    c.reminder[n] = timeOf(row.nextReminderAt);
    c.lastSeq[n] = row.lastSeq;
    c.layout[n] = row.h;
    c.block[n] = block;
    c.flags[n] = flagsOf(row);
  }

  private reserve(n: number): void {
    if (this.used + n <= this.arena.length) return;
    // Half as much again: the arena is most of the index's memory, so it grows in modest steps.
    let size = Math.ceil(this.arena.length * 1.5);
    while (size < this.used + n) size = Math.ceil(size * 1.5);
    const next = Buffer.alloc(size - (size % HASH));
    this.arena.copy(next, 0, 0, this.used);
    this.setArena(next);
  }

  private setArena(next: Buffer): void {
    this.arena = next;
    this.words = new Uint32Array(next.buffer, next.byteOffset, next.length >>> 2);
  }

  /** Copies the live blocks into a fresh arena (the key table names rows by number: it holds). */
  private repack(): void {
    const fresh = Buffer.alloc(Math.max(1 << 16, (this.used - this.garbage) * 2));
    const c = this.col;
    let at = 0;
    for (let n = 0; n < this.ids.length; n++) {
      const b = c.block[n]!;
      if (b === NO_BLOCK) continue;
      const len = hashesIn(c.layout[n]!) * HASH;
      this.arena.copy(fresh, at, b, b + len);
      c.block[n] = at;
      at += len;
    }
    this.setArena(fresh);
    this.used = at;
    this.garbage = 0;
  }

  // ---- keys ------------------------------------------------------------------

  private addKeys(n: number): void {
    const b = this.col.block[n]!;
    if (b === NO_BLOCK) {
      forEachKeyString(this.rowOf(n).x!.keys, (s, retired) => {
        if (!retired || !this.oddKeys.has(s)) this.oddKeys.set(s, n);
      });
      return;
    }
    const k = keyCount(this.col.layout[n]!);
    for (let i = 0; i < k; i++) if (!isZero(this.words, keyAt(b, i))) this.keys.add(this.words, this.blockOf, n, i);
  }

  private dropKeys(n: number): void {
    const b = this.col.block[n]!;
    if (b === NO_BLOCK) {
      forEachKeyString(this.rowOf(n).x!.keys, (s) => {
        if (this.oddKeys.get(s) === n) this.oddKeys.delete(s);
      });
      return;
    }
    const k = keyCount(this.col.layout[n]!);
    for (let i = 0; i < k; i++) if (!isZero(this.words, keyAt(b, i))) this.keys.remove(this.words, this.blockOf, n, i);
  }

  /** What a key hash opens (a current key wins over a retired one with the same hash). */
  findKey(keyHash: string): KeyTarget | null {
    if (!HEX64.test(keyHash)) return this.findOddKey(keyHash);
    const want = new Uint32Array(8);
    Buffer.from(want.buffer).write(keyHash, 'hex');
    let found: KeyTarget | null = null;
    this.keys.find(this.words, this.blockOf, want, (n, index) => {
      const target = targetIn(this.ids[n]!, this.col.layout[n]!, index);
      if (target && (!found || found.role === 'retired')) found = target;
      return found !== null && found.role !== 'retired';
    });
    return found ?? this.findOddKey(keyHash);
  }

  private findOddKey(keyHash: string): KeyTarget | null {
    const n = this.oddKeys.get(keyHash);
    if (n === undefined) return null;
    const r = this.rowOf(n);
    return r.x ? keyTargetOf(r.id, r.x.keys, keyHash) : null;
  }

  // ---- scans -----------------------------------------------------------------

  /** Rows matching the query, newest first (by updatedAt, then id), and how many match. */
  list(q: GameQuery): { entries: IndexEntry[]; total: number } {
    const order = this.sorted();
    const c = this.col;
    const limit = q.limit ?? 100;
    const since = q.updatedSince === undefined ? Number.NEGATIVE_INFINITY : Date.parse(q.updatedSince);
    const status = q.status === undefined ? -1 : STATUS.indexOf(q.status as (typeof STATUS)[number]) + 1;
    const mail = q.mailHash !== undefined && HEX64.test(q.mailHash) ? Buffer.from(q.mailHash, 'hex') : null;
    const entries: IndexEntry[] = [];
    let total = 0;
    for (let i = order.length - 1; i >= 0; i--) {
      const n = order[i]!;
      if (c.updated[n]! < since) break;
      const f = c.flags[n]!;
      if (status > 0 && (f & STATUS_MASK) !== status) continue;
      if (status === 0 && this.rowOf(n).status !== q.status) continue;
      if (q.listed !== undefined && ((f & LISTED) !== 0) !== q.listed) continue;
      if (q.freeSeats && !(f & FREE_SEAT)) continue;
      if (q.mailHash !== undefined && !this.hasMail(n, q.mailHash, mail)) continue;
      total++;
      if (entries.length < limit) entries.push(this.entryOf(n));
    }
    return { entries, total };
  }

  /** Whether the row's addresses include this hash. */
  private hasMail(n: number, hex: string, bytes: Buffer | null): boolean {
    const b = this.col.block[n]!;
    if (b === NO_BLOCK) return (this.rowOf(n).x!.mailHashes ?? []).includes(hex);
    if (!bytes) return false;
    const h = this.col.layout[n]!;
    const end = b + hashesIn(h) * HASH;
    for (let i = 1; i <= mailsOf(h); i++)
      if (bytes.compare(this.arena, end - i * HASH, end - (i - 1) * HASH) === 0) return true;
    return false;
  }

  /** Active games not needing attention whose reminder is due at `now`, soonest first. */
  due(now: string, limit: number): IndexEntry[] {
    const t = Date.parse(now);
    const c = this.col;
    const due: number[] = [];
    for (let n = 0; n < this.ids.length; n++) {
      const f = c.flags[n]!;
      // (NaN, no reminder, is never <= t)
      if ((f & STATUS_MASK) === 2 && !(f & ATTENTION) && c.reminder[n]! <= t) due.push(n);
    }
    due.sort((a, b) => c.reminder[a]! - c.reminder[b]!);
    return due.slice(0, limit).map((n) => this.entryOf(n));
  }

  /** Every game's id, last seq and attention. */
  logEnds(): LogEnd[] {
    const c = this.col;
    return this.ids.map((id, n) => ({
      id,
      lastSeq: c.lastSeq[n]!,
      attention: c.flags[n]! & ATTENTION ? this.rowOf(n).attention : null,
    }));
  }

  private sorted(): number[] {
    if (!this.byUpdated) {
      const order = Array.from(this.ids.keys());
      order.sort((a, b) => this.compare(a, b));
      this.byUpdated = order;
    }
    return this.byUpdated;
  }

  /** Oldest first by update time, then by id (so every row has one place). */
  private compare(a: number, b: number): number {
    const d = this.col.updated[a]! - this.col.updated[b]!;
    if (d !== 0) return d;
    const x = this.ids[a]!;
    const y = this.ids[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /** The first place whose row does not sort before row n. */
  private lowerBound(order: number[], n: number): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(order[mid]!, n) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Takes row n out of the listing order (before its update time changes). */
  private unsort(n: number): void {
    const order = this.byUpdated;
    if (!order) return;
    const at = this.lowerBound(order, n);
    if (order[at] === n) order.splice(at, 1);
    else this.byUpdated = null; // not where it should be: sort afresh when next needed
  }

  /** Puts row n (new, or taken out by unsort) in its place in the listing order. */
  private resort(n: number): void {
    const order = this.byUpdated;
    if (order) order.splice(this.lowerBound(order, n), 0, n);
  }

  // ---- shards ----------------------------------------------------------------

  /** Makes room for a start-up's rows at once (counted in the manifest): no growing as they come. */
  expect(rows: number): void {
    this.col.ensure(rows);
    this.reserve(rows * 11 * HASH);
    this.keys.reserve(this.words, this.blockOf, rows * 7);
  }

  /** These games' rows as a shard's bytes (format 5, above). */
  encode(ids: Iterable<string>): Buffer {
    const members: number[] = [];
    for (const id of ids) {
      const n = this.byId.get(id);
      if (n !== undefined) members.push(n);
    }
    const c = this.col;
    // Lines still in the file about to be replaced come into memory first: one read of each
    // file they are in (a shard's rows are all in its own file), not a read a row.
    const read = new Map<number, Buffer>();
    for (const n of members) {
      const f = c.lineFile[n]!;
      if (f === 0) continue;
      let whole = read.get(f);
      if (!whole) {
        whole = readFileSync(this.files[f - 1]!);
        read.set(f, whole);
      }
      this.lines[n] = whole.toString('latin1', c.lineAt[n]!, c.lineAt[n]! + c.lineLen[n]!);
      c.lineFile[n] = 0;
    }
    const lines = members.map((n) => this.lines[n] ?? asciiJson(toStored(this.plain[n]!)));
    const text = lines.length > 0 ? `${lines.join('\n')}\n` : '';
    const records = Buffer.alloc(members.length * RECORD);
    const blocks: Buffer[] = [];
    members.forEach((n, i) => {
      const at = i * RECORD;
      records.writeDoubleLE(c.updated[n]!, at);
      records.writeDoubleLE(c.reminder[n]!, at + 8);
      records.writeUInt32LE(c.lastSeq[n]!, at + 16);
      records.writeUInt32LE(c.layout[n]!, at + 20);
      records.writeUInt32LE(c.flags[n]! | (c.block[n] === NO_BLOCK ? 0x100 : 0), at + 24);
      records.writeUInt32LE(lines[i]!.length, at + 28);
      const b = c.block[n]!;
      if (b !== NO_BLOCK) blocks.push(this.arena.subarray(b, b + hashesIn(c.layout[n]!) * HASH));
    });
    const hashes = Buffer.concat(blocks);
    const head = asciiJson({
      format: SHARD_BYTES_FORMAT,
      count: members.length,
      text: text.length,
      bytes: hashes.length,
      ids: members.map((n) => this.ids[n]),
    });
    return Buffer.concat([Buffer.from(`${head}\n`, 'latin1'), records, hashes, Buffer.from(text, 'latin1')]);
  }

  /**
   * Loads a shard (format 5) from `src`; returns its games' ids. Throws, in words, when its
   * parts do not add up. With `src.file`, rows' lines are read from that file when asked for (it
   * stays as it is until this table writes it again); without, they are read now.
   */
  decode(src: ShardSource): string[] {
    // The header line: read a first piece, and more if the line is longer.
    let head = Buffer.allocUnsafe(Math.min(src.size, 1 << 16));
    src.read(head, 0, head.length, 0);
    let nl = head.indexOf(10);
    while (nl < 0 && head.length < src.size) {
      const more = Buffer.allocUnsafe(Math.min(src.size, head.length * 4));
      src.read(more, 0, more.length, 0);
      head = more;
      nl = head.indexOf(10);
    }
    if (nl < 0) throw new Error('no header line');
    const { count, text, bytes, ids } = JSON.parse(head.toString('latin1', 0, nl)) as {
      count: number;
      text: number;
      bytes: number;
      ids: string[];
    };
    const recStart = nl + 1;
    const hashStart = recStart + count * RECORD;
    const textStart = hashStart + bytes;
    if (ids.length !== count || src.size !== textStart + text)
      throw new Error(`${src.size} bytes where its header adds up to ${textStart + text}`);
    let records = head.subarray(recStart, hashStart);
    if (records.length < count * RECORD) {
      records = Buffer.allocUnsafe(count * RECORD);
      src.read(records, 0, records.length, recStart);
    }
    // The hashes go straight into the arena.
    this.reserve(bytes);
    const base = this.used;
    src.read(this.arena, base, bytes, hashStart);
    this.used += bytes;
    const lines = src.file === undefined ? Buffer.allocUnsafe(text) : null;
    if (lines) src.read(lines, 0, text, textStart);
    let fileNo = 0;
    if (src.file !== undefined) {
      this.files.push(src.file);
      fileNo = this.files.length;
    }
    const c = this.col;
    c.ensure(this.ids.length + count);
    const rec = new DataView(records.buffer, records.byteOffset, records.length);
    let at = 0;
    let line = textStart;
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      const r = i * RECORD;
      const layout = rec.getUint32(r + 20, true);
      const word = rec.getUint32(r + 24, true);
      const lineLen = rec.getUint32(r + 28, true);
      const odd = (word & 0x100) !== 0;
      const len = odd ? 0 : hashesIn(layout) * HASH;
      if (at + len > bytes || line + lineLen > src.size) throw new Error('its rows do not fit in it');
      const n = this.byId.get(id) ?? this.ids.length;
      if (n < this.ids.length) {
        // The same game twice (never written so): the later row stands.
        this.garbage += len;
        const stored = lines ? lines.toString('latin1', line - textStart, line - textStart + lineLen) : null;
        this.set(
          joinEntry(fromStored(JSON.parse(stored ?? this.readAt(src.file!, line, lineLen))), this.arena, base + at),
        );
      } else {
        this.ids.push(id);
        this.byId.set(id, n);
        if (lines) this.lines[n] = lines.toString('latin1', line - textStart, line - textStart + lineLen);
        else {
          c.lineFile[n] = fileNo;
          c.lineAt[n] = line;
          c.lineLen[n] = lineLen;
        }
        this.plain[n] = undefined;
        c.updated[n] = rec.getFloat64(r, true);
        c.reminder[n] = rec.getFloat64(r + 8, true);
        c.lastSeq[n] = rec.getUint32(r + 16, true);
        c.layout[n] = layout;
        c.flags[n] = word & 0xff;
        c.block[n] = odd ? NO_BLOCK : base + at;
        this.addKeys(n);
      }
      at += len;
      line += lineLen + 1;
    }
    this.byUpdated = null;
    if (at !== bytes || line !== src.size) throw new Error('its rows do not add up to its size');
    return ids;
  }

  /** Loads the rows of a format-4 shard: rows as JSON arrays, then their hash blocks. */
  decodeFormat4(rows: StoredRow[], hashes: Buffer): string[] {
    let at = 0;
    const ids: string[] = [];
    for (const s of rows) {
      const row = fromStored(s);
      const len = row.x ? 0 : hashesIn(row.h) * HASH;
      if (at + len > hashes.length) throw new Error('its hashes are cut short');
      this.set(joinEntry(row, hashes, at));
      ids.push(row.id);
      at += len;
    }
    if (at !== hashes.length) throw new Error('its hashes do not match its rows');
    return ids;
  }
}

function isZero(words: Uint32Array, at: number): boolean {
  const w = at >>> 2;
  for (let i = w; i < w + 8; i++) if (words[i] !== 0) return false;
  return true;
}

/** JSON with every character past ASCII escaped (\uXXXX), so it reads back as latin1. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
