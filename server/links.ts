// Link keys and the URLs built from them.
//
// The server keeps no key, only its sha256. Every key is derived from the
// server secret (data/secret.key), so the mail code can rebuild any seat's
// link when it writes an email:
//   key = base64url(HMAC-SHA256(secret, `${gameId}:${role}:${slot}:${generation}`)), first 18 bytes (144 bits)
// Roles: seat (slot = the seat's join slot, generation bumps when the seat is
// reopened), invite (generation bumps on every reopen, retiring the old
// invite), admin and spectator (slot and generation 0).
//
// Usage: `const links = createLinks(secret, baseUrl)`; the app exposes its
// instance as `app.locals.links` and `service.links`.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type KeyRole = 'seat' | 'invite' | 'admin' | 'spectator';

/** The seat record fields a seat key is derived from (see GameDoc in store/types). */
export interface SeatKeySource {
  slot: number;
  generation: number;
}

export interface Links {
  baseUrl: string;
  /** Key of a seat: `slot` is the seat's join slot (doc.seats[i].slot), not its play order. */
  seatKey(gameId: string, slot: number, generation: number): string;
  /** Key of play seat `seat` of a loaded doc (uses its slot and generation). */
  seatKeyOf(doc: { id: string; seats: SeatKeySource[] }, seat: number): string;
  adminKey(gameId: string): string;
  inviteKey(gameId: string, generation: number): string;
  spectatorKey(gameId: string): string;

  /** Absolute URLs, all from BASE_URL. */
  playUrl(seatKey: string): string;
  /** The quick-move confirm page for move number `n` (index into moves(state, seat)) at `seq`. */
  quickMoveUrl(seatKey: string, n: number, seq: number): string;
  historyUrl(key: string, format: 'json' | 'txt', role?: 'seat' | 'spectator'): string;
  stepUrl(key: string, seq: number, role?: 'seat' | 'spectator'): string;
  inviteUrl(inviteKey: string): string;
  adminUrl(adminKey: string): string;
  watchUrl(spectatorKey: string): string;
  homeUrl(): string;
}

/** Length in bytes of a key before base64url (144 bits). */
export const KEY_BYTES = 18;

export function deriveKey(
  secret: Buffer | string,
  gameId: string,
  role: KeyRole,
  slot: number,
  generation: number,
): string {
  return createHmac('sha256', secret)
    .update(`${gameId}:${role}:${slot}:${generation}`)
    .digest()
    .subarray(0, KEY_BYTES)
    .toString('base64url');
}

/** What the server stores for a key. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time check of a presented key against a stored hash. */
export function keyMatches(key: string, hash: string): boolean {
  const a = Buffer.from(keyHash(key), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A plausible key: base64url, 16 to 64 characters. Anything else is a 404 without a lookup. */
export function looksLikeKey(key: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(key);
}

export function createLinks(secret: Buffer | string, baseUrl: string): Links {
  const base = baseUrl.replace(/\/+$/, '');
  const links: Links = {
    baseUrl: base,
    seatKey: (gameId, slot, generation) => deriveKey(secret, gameId, 'seat', slot, generation),
    seatKeyOf: (doc, seat) => {
      const s = doc.seats[seat];
      if (!s) throw new Error(`no seat ${seat} in game ${doc.id}`);
      return deriveKey(secret, doc.id, 'seat', s.slot, s.generation);
    },
    adminKey: (gameId) => deriveKey(secret, gameId, 'admin', 0, 0),
    inviteKey: (gameId, generation) => deriveKey(secret, gameId, 'invite', 0, generation),
    spectatorKey: (gameId) => deriveKey(secret, gameId, 'spectator', 0, 0),
    playUrl: (key) => `${base}/play/${key}`,
    quickMoveUrl: (key, n, seq) => `${base}/play/${key}/m/${n}?seq=${seq}`,
    historyUrl: (key, format, role = 'seat') =>
      `${base}/${role === 'seat' ? 'play' : 'watch'}/${key}/history.${format}`,
    stepUrl: (key, seq, role = 'seat') => `${base}/${role === 'seat' ? 'play' : 'watch'}/${key}/step/${seq}`,
    inviteUrl: (key) => `${base}/join/${key}`,
    adminUrl: (key) => `${base}/admin/${key}`,
    watchUrl: (key) => `${base}/watch/${key}`,
    homeUrl: () => `${base}/`,
  };
  return links;
}
