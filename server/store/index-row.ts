// One game's index row in the two parts the embedded index keeps (index-table.ts):
// its plain fields (a small object, stored as a JSON array) and its hashes (raw
// bytes, 32 each, in a block):
//   [last entry's hash][admin][spectator][invite?][confirm?]
//   [seat keys...][retired keys...][address hashes...]
// A layout word says which optional hashes a block has and how many of each.
// A row whose hashes are not all 64 lowercase hex digits (hand-made data) keeps
// them as strings ("odd" rows): slower, never wrong.
import type { IndexEntry, KeyTarget } from './types.ts';

export const HASH = 32;
export const HEX64 = /^[0-9a-f]{64}$/;
/** Bits of Row.h: which optional hashes the block has. */
const NO_LAST = 1; // the log is empty: lastHash is ''
export const HAS_INVITE = 2;
export const HAS_CONFIRM = 4;
const HAS_RETIRED = 8; // keys.retired is present (possibly empty)

/** A game's plain fields (IndexEntry without its hashes), as kept in memory and in the shards. */
export type Plain = Omit<IndexEntry, 'lastHash' | 'keys' | 'mailHashes'>;

/**
 * A row: the plain fields plus
 *  h  the block's layout: flag bits (above) | seat keys << 4 | retired keys << 12 | addresses << 20
 *  x  an odd row's hashes as strings (then it has no block, and h is 0)
 */
export type Row = Plain & {
  h: number;
  x?: Pick<IndexEntry, 'lastHash' | 'keys' | 'mailHashes'>;
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

export function toStored(r: Row): StoredRow {
  const fields = r as unknown as Record<string, unknown>;
  const t: unknown[] = [];
  for (const f of FIELDS) {
    if (fields[f] === undefined) return r;
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

export function fromStored(s: StoredRow): Row {
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
  } as Row;
  if (s.length > FIELDS.length) Object.assign(r, s[FIELDS.length]);
  return r;
}

export const seatsOf = (h: number) => (h >>> 4) & 0xff;
export const retiredOf = (h: number) => (h >>> 12) & 0xff;
export const mailsOf = (h: number) => (h >>> 20) & 0xff;
/** Hashes in a block, by the layout word. */
export const hashesIn = (h: number) =>
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
export function joinEntry(row: Row, buf: Buffer, at: number): IndexEntry {
  const { h, x, ...plain } = row;
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

export const ZERO_HEX = '0'.repeat(64);

/** Keys in a block's layout (admin, spectator, invite, confirm, seats, retired; not addresses). */
export function keyCount(h: number): number {
  return hashesIn(h) - 1 - mailsOf(h);
}

/** The target of key `index` of a block (0: admin) in a game with this layout; null for none. */
export function targetIn(gameId: string, h: number, index: number): KeyTarget | null {
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

/** Calls `fn` with every key of an odd row, and whether it is a retired one. */
export function forEachKeyString(k: IndexEntry['keys'], fn: (h: string, retired: boolean) => unknown): void {
  if (k.admin) fn(k.admin, false);
  if (k.spectator) fn(k.spectator, false);
  if (k.invite) fn(k.invite, false);
  if (k.confirm) fn(k.confirm, false);
  for (const h of k.seats) if (h) fn(h, false);
  for (const h of k.retired ?? []) if (h) fn(h, true);
}

/** What a key opens in an odd row's keys. */
export function keyTargetOf(gameId: string, k: IndexEntry['keys'], h: string): KeyTarget | null {
  if (k.admin === h) return { gameId, role: 'admin' };
  if (k.spectator === h) return { gameId, role: 'spectator' };
  if (k.invite === h) return { gameId, role: 'invite' };
  if (k.confirm === h) return { gameId, role: 'confirm' };
  const seat = k.seats.indexOf(h);
  if (seat >= 0) return { gameId, role: 'seat', seat };
  return k.retired?.includes(h) ? { gameId, role: 'retired' } : null;
}
