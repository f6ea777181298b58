// Link keys and the URLs built from them.
//
// Every key is random: 144 bits from crypto.randomBytes, base64url, after its
// game's four-character route (see "Routes" below). A key is
// issued once and never made again, so a key that was retired (a seat that
// left, a reopened seat, an old invitation) stays dead whoever sits down next.
// The game document keeps two things per key:
//   keyHash    sha256 of the key: what a presented key is looked up by;
//   keySealed  the key sealed with AES-256-GCM under a key made from the server
//              secret (data/secret.key), bound to the game and the key's role,
//              so the mail code can put a seat's link into a mail written
//              later. Without the secret a sealed key is noise.
// Games made before keys were random have no sealed keys: their links were
// derived as base64url(HMAC-SHA256(secret, `${gameId}:${role}:${slot}:${generation}`))[first 18 bytes],
// and those stay valid (their stored hashes still match) until retired; a key
// issued for them from now on is random too, so no derived key is issued again.
//
// Usage: `const links = createLinks(secret, baseUrl)`; the app exposes its
// instance as `app.locals.links` and `service.links`.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyRole = 'seat' | 'invite' | 'admin' | 'spectator' | 'confirm' | 'reply';

/** A key just issued: the key itself (handed out once), its hash and its sealed copy (both stored). */
export interface IssuedKey {
  key: string;
  hash: string;
  sealed: string;
}

/** What a seat record holds for its key (see SeatRecord in store/types). */
export interface SeatKeySource {
  keySealed?: string;
  /** Only for keys derived before keys were random. */
  slot: number;
  generation: number;
}

/** The parts of a game document (or its index entry, see keySourceOfEntry) that hold its keys. */
export interface GameKeySource {
  id: string;
  adminKeySealed?: string;
  spectatorKeySealed?: string;
  inviteKeyHash?: string | null;
  inviteKeySealed?: string | null;
  inviteGeneration?: number;
  confirmKeySealed?: string | null;
}

export interface Links {
  baseUrl: string;
  /** A new random key for `role` in game `gameId`. */
  issue(gameId: string, role: KeyRole): IssuedKey;
  /** The key of play seat `seat` of a loaded doc. */
  seatKeyOf(doc: { id: string; seats: SeatKeySource[] }, seat: number): string;
  adminKeyOf(game: GameKeySource): string;
  spectatorKeyOf(game: GameKeySource): string;
  /** The current invite key, null when nobody can join. */
  inviteKeyOf(game: GameKeySource): string | null;
  /** The key of the organiser's confirmation link, null once used. */
  confirmKeyOf(game: GameKeySource): string | null;
  /**
   * The reply token of play seat `seat` (its own random key, never derived from the page key;
   * server/mail/reply-address.ts makes the address from it), null for a seat that has none.
   */
  replyTokenOf(doc: { id: string; seats: { replySealed?: string }[] }, seat: number): string | null;

  /** Absolute URLs, all from BASE_URL. */
  playUrl(seatKey: string): string;
  /** The quick-move confirm page for move number `n` (index into moves(state, seat)) at `seq`. */
  quickMoveUrl(seatKey: string, n: number, seq: number): string;
  historyUrl(key: string, format: 'json' | 'txt', role?: 'seat' | 'spectator'): string;
  stepUrl(key: string, seq: number, role?: 'seat' | 'spectator'): string;
  inviteUrl(inviteKey: string): string;
  confirmUrl(confirmKey: string): string;
  adminUrl(adminKey: string): string;
  watchUrl(spectatorKey: string): string;
  homeUrl(): string;
  /** The link to the list of all games of an address (in every mail to it); signed, so only its mails carry it. */
  gamesUrl(email: string): string;
  /** The address a games-list token was made for, or null if the token is not one of ours. */
  gamesEmail(token: string): string | null;
  /** The preferences link of an invitation (whether this address takes invitations at all); signed the same way. */
  invitationsUrl(email: string): string;
  invitationsEmail(token: string): string | null;
  /**
   * The secret and BASE_URL these links are made from, for a worker thread that makes the same
   * links (mail/compose-pool.ts). A function, so that logging the links never prints the secret.
   */
  makings?(): { secret: Buffer; baseUrl: string };
}

/** Length in bytes of a key before base64url (144 bits). */
export const KEY_BYTES = 18;

/** A fresh random key. */
export function newKey(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

// Routes. Every process can answer every link (each reads the game from the shared store), but
// the process that answered a game's last click holds it ready, and any other must first read
// the entries it missed and replay them. So the keys of one game begin with the same four
// characters, the game's route: a load balancer in front of several processes can hash on them
// and send a game's clicks to one process while it is up, and to another when it is not
// (README: "Several processes on PostgreSQL"). The route is a hash of the game id, not the id,
// and comes on top of the key's 144 random bits, which stay its whole secret: a route tells a
// holder nothing the key does not, and no key is ever derived from it. Reply addresses carry no
// route (their short local part names the game already). Keys issued before routes are 24
// characters without one; they work as before, only without affinity.

/** Characters of a route: 24 bits, so a routed key (28 characters) is still whole bytes of base64url. */
export const ROUTE_CHARS = 4;
const KEY_CHARS = (KEY_BYTES * 4) / 3;

/** The route of game `gameId`, the same for each of its keys. */
export function gameRoute(gameId: string): string {
  return createHash('sha256').update(`route:${gameId}`).digest('base64url').slice(0, ROUTE_CHARS);
}

/** The route a key begins with; null for a key issued without one. */
export function routeOfKey(key: string): string | null {
  return key.length === ROUTE_CHARS + KEY_CHARS ? key.slice(0, ROUTE_CHARS) : null;
}

/**
 * A routed key in a URL path: a whole path segment of 28 base64url characters, whose first four
 * are the route. The README's load-balancer settings use this very pattern (a test holds them
 * to it), so a change here is a change there.
 */
export const ROUTED_KEY_IN_PATH = '/([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{24}(/|$)';

/** The route of the game a request path belongs to, as a load balancer reads it; null when it names none. */
export function routeOfPath(path: string): string | null {
  return new RegExp(ROUTED_KEY_IN_PATH).exec(path.split('?')[0]!)?.[1] ?? null;
}

/** Roles whose keys carry their game's route: all but the reply token (see above). */
const ROUTED_ROLES: ReadonlySet<KeyRole> = new Set(['seat', 'invite', 'admin', 'spectator', 'confirm']);

/** How keys were made before they were random; kept only to rebuild the links of those games. */
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
  return hashMatches(keyHash(key), hash);
}

/** Constant-time check of a presented key's hash (keyHash) against a stored hash. */
export function hashMatches(presented: string, stored: string): boolean {
  const a = Buffer.from(presented, 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A plausible key: base64url, 16 to 64 characters. Anything else is a 404 without a lookup. */
export function looksLikeKey(key: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(key);
}

/** The key-holding fields of an index entry, in the shape the Links getters read. */
export function keySourceOfEntry(e: {
  id: string;
  inviteGeneration: number;
  keys: { invite: string | null };
  sealed?: { spectator?: string; invite?: string | null };
}): GameKeySource {
  return {
    id: e.id,
    spectatorKeySealed: e.sealed?.spectator,
    inviteKeyHash: e.keys.invite,
    inviteKeySealed: e.sealed?.invite,
    inviteGeneration: e.inviteGeneration,
  };
}

export function createLinks(secret: Buffer | string, baseUrl: string): Links {
  const base = baseUrl.replace(/\/+$/, '');
  // The sealing key is its own: the secret itself never meets AES.
  const sealingKey = createHmac('sha256', secret).update('link keys sealed at rest').digest();
  const seal = (key: string, gameId: string, role: KeyRole): string => {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', sealingKey, iv);
    c.setAAD(Buffer.from(`${gameId}:${role}`));
    const body = Buffer.concat([c.update(Buffer.from(key, 'base64url')), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
  };
  const unseal = (sealed: string, gameId: string, role: KeyRole): string => {
    const raw = Buffer.from(sealed, 'base64url');
    const d = createDecipheriv('aes-256-gcm', sealingKey, raw.subarray(0, 12));
    d.setAAD(Buffer.from(`${gameId}:${role}`));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('base64url');
  };
  // A player's list of games, an address's invitation preferences: the address and a MAC of it
  // under a key of each purpose's own.
  const addressToken = (purpose: string) => {
    const key = createHmac('sha256', secret).update(purpose).digest();
    const make = (email: string): string => {
      const e = email.trim().toLowerCase();
      const mac = createHmac('sha256', key).update(e).digest().subarray(0, KEY_BYTES).toString('base64url');
      return `${Buffer.from(e).toString('base64url')}.${mac}`;
    };
    const check = (token: string): string | null => {
      const m = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{24})$/.exec(token);
      if (!m) return null;
      const email = Buffer.from(m[1]!, 'base64url').toString('utf8');
      const want = Buffer.from(make(email).split('.')[1]!, 'base64url');
      const got = Buffer.from(m[2]!, 'base64url');
      return want.length === got.length && timingSafeEqual(want, got) ? email : null;
    };
    return { make, check };
  };
  const gamesToken = addressToken('games list links');
  const invitationsToken = addressToken('invitation preferences links');
  const links: Links = {
    baseUrl: base,
    makings: () => ({ secret: Buffer.from(secret), baseUrl: base }),
    issue: (gameId, role) => {
      const key = ROUTED_ROLES.has(role) ? gameRoute(gameId) + newKey() : newKey();
      return { key, hash: keyHash(key), sealed: seal(key, gameId, role) };
    },
    seatKeyOf: (doc, seat) => {
      const s = doc.seats[seat];
      if (!s) throw new Error(`no seat ${seat} in game ${doc.id}`);
      return s.keySealed
        ? unseal(s.keySealed, doc.id, 'seat')
        : deriveKey(secret, doc.id, 'seat', s.slot, s.generation);
    },
    adminKeyOf: (g) =>
      g.adminKeySealed ? unseal(g.adminKeySealed, g.id, 'admin') : deriveKey(secret, g.id, 'admin', 0, 0),
    spectatorKeyOf: (g) =>
      g.spectatorKeySealed
        ? unseal(g.spectatorKeySealed, g.id, 'spectator')
        : deriveKey(secret, g.id, 'spectator', 0, 0),
    inviteKeyOf: (g) => {
      if (!g.inviteKeyHash) return null;
      if (g.inviteKeySealed) return unseal(g.inviteKeySealed, g.id, 'invite');
      return deriveKey(secret, g.id, 'invite', 0, g.inviteGeneration ?? 0);
    },
    confirmKeyOf: (g) => (g.confirmKeySealed ? unseal(g.confirmKeySealed, g.id, 'confirm') : null),
    replyTokenOf: (doc, seat) => {
      const sealed = doc.seats[seat]?.replySealed;
      return sealed ? unseal(sealed, doc.id, 'reply') : null;
    },
    playUrl: (key) => `${base}/play/${key}`,
    quickMoveUrl: (key, n, seq) => `${base}/play/${key}/m/${n}?seq=${seq}`,
    historyUrl: (key, format, role = 'seat') =>
      `${base}/${role === 'seat' ? 'play' : 'watch'}/${key}/history.${format}`,
    stepUrl: (key, seq, role = 'seat') => `${base}/${role === 'seat' ? 'play' : 'watch'}/${key}/step/${seq}`,
    inviteUrl: (key) => `${base}/join/${key}`,
    confirmUrl: (key) => `${base}/confirm/${key}`,
    adminUrl: (key) => `${base}/admin/${key}`,
    watchUrl: (key) => `${base}/watch/${key}`,
    homeUrl: () => `${base}/`,
    gamesUrl: (email) => `${base}/games/${gamesToken.make(email)}`,
    gamesEmail: (token) => gamesToken.check(token),
    invitationsUrl: (email) => `${base}/mail/invitations/${invitationsToken.make(email)}`,
    invitationsEmail: (token) => invitationsToken.check(token),
  };
  return links;
}
