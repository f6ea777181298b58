// The Reply-To address of a seat's mail: play+<game>.<token>@MAIL_DOMAIN.
//
// <game> is the game's id and <token> the seat's reply token (a random key of its
// own, 144 bits, issued with the seat and renewed on request: service.ts
// renewReplyToken; never derived from the page key, so the address gives away no
// link). Both are written in lower-case base32 (RFC 4648 alphabet, no padding),
// because mail systems may change the case of a local part. The local part is at
// most 55 characters (RFC 5321 allows 64). A renewed or retired token matches no
// seat any more, and tokens are never issued twice, so an old address stays dead.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes lower-case base32; null for any other character or trailing bits that are not zero. */
export function unbase32(text: string): Buffer | null {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  if ((value & ((1 << bits) - 1)) !== 0) return null;
  return Buffer.from(out);
}

/** play+<game>.<token>@domain for a seat's reply token (base64url, as links.ts issues keys). */
export function replyAddress(gameId: string, token: string, domain: string): string {
  return `play+${base32(Buffer.from(gameId, 'utf8'))}.${base32(Buffer.from(token, 'base64url'))}@${domain}`;
}

/**
 * The game id and token an address names, if it is one of ours at `domain` (case ignored);
 * null for anything else. The token is checked against the seats by the service.
 */
export function readReplyAddress(address: string, domain: string): { gameId: string; token: string } | null {
  const m = /^play\+([a-z2-7]{1,40})\.([a-z2-7]{20,40})@(.+)$/.exec(address.trim().toLowerCase());
  if (!m || m[3] !== domain.toLowerCase()) return null;
  const game = unbase32(m[1]!);
  const token = unbase32(m[2]!);
  if (!game || !token) return null;
  const gameId = game.toString('utf8');
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(gameId)) return null;
  return { gameId, token: token.toString('base64url') };
}
