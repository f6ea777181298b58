// Station tokens: home stations, ordinary stations, the D&H station, and
// tokens lifted by a tile lay that must be put back.
//
// A station goes in a city the corporation's track reaches, in an open slot
// (slots held for another corporation's home station do not count as open,
// and Erie's whole home hex E11 is held until Erie places its home station),
// never a second one of the same corporation in one hex. The caller charges
// the cost (40 for the second token, 100 after); the D&H station is extra
// and free.
import { item } from '../../item.ts';
import { RuleError } from '../../types.ts';
import { cityTokens, faceAt, hasTokenIn, hexReservedByOther, reservedSlots } from './board.ts';
import { HEXES, HOMES, MAX_NODES, PRIVATE_LAYS, hexIdAt } from './data.ts';
import { reachOf, type Reach } from './graph.ts';
import { hexLabel } from './lay.ts';
import type { Board, TokenContext, TokenPlace } from './types.ts';

function openSlot(board: Board, corp: string, hex: string, city: number): string | null {
  const { tile } = faceAt(board, hex);
  const node = item(tile.nodes, city, `stops of ${hex}`);
  const toks = item(cityTokens(board, hex), city, `cities of ${hex}`);
  const own = board.homes[corp];
  if (own && own.hex === hex && own.city === city)
    return toks.length < node.slots ? null : `the city in ${hexLabel(hex)} is full`;
  const held = reservedSlots(board, hex, city, corp);
  if (toks.length + held >= node.slots) {
    if (held > 0) {
      const who = Object.entries(board.homes)
        .filter(([c, r]) => c !== corp && r.hex === hex && r.city === city)
        .map(([c]) => c);
      return `the open slot of the city in ${hexLabel(hex)} is kept for ${who.join(' and ')}'s home station`;
    }
    return `the city in ${hexLabel(hex)}${tile.cityCount > 1 ? ` (city ${city})` : ''} has no open slot`;
  }
  return null;
}

function checkCity(board: Board, place: unknown): TokenPlace {
  const p = place as Record<string, unknown> | null;
  if (
    !p ||
    typeof p !== 'object' ||
    typeof p.hex !== 'string' ||
    !/^[A-Z][0-9]{1,2}$/.test(p.hex) ||
    !Number.isInteger(p.city) ||
    (p.city as number) < 0 ||
    (p.city as number) > 3
  ) {
    throw new RuleError('A station needs a hex (like E19) and a city number (0 unless the hex has two cities)');
  }
  const hex = p.hex;
  const city = p.city as number;
  if (!HEXES[hex]) throw new RuleError(`There is no hex ${hex} on the 1830 map`);
  const { tile } = faceAt(board, hex);
  if (tile.cityCount === 0) throw new RuleError(`${hexLabel(hex)} has no city for a station`);
  if (city >= tile.cityCount)
    throw new RuleError(
      `${hexLabel(hex)} has only ${tile.cityCount} ${tile.cityCount === 1 ? 'city (number 0)' : 'cities (0 and 1)'}`,
    );
  return { hex, city };
}

/** Checks an ordinary (or D&H) station placement; throws RuleError with the rule that forbids it. */
export function checkToken(board: Board, ctx: TokenContext, place: TokenPlace): void {
  checkTokenWith(board, ctx, place, null);
}

function checkTokenWith(board: Board, ctx: TokenContext, place: TokenPlace, known: Reach | null): void {
  const { hex, city } = checkCity(board, place);
  if (ctx.via === 'DH') {
    const dh = PRIVATE_LAYS.DH;
    if (hex !== dh.hex) throw new RuleError(`The D&H station may only go in ${hexLabel(dh.hex)}`);
    if (!board.tiles[hex]) throw new RuleError(`The D&H station goes in ${hex} only after the D&H tile is laid there`);
  } else if (ctx.tokensLeft <= 0) {
    throw new RuleError(`${ctx.corp} has no station tokens left`);
  }
  const home = ctx.via === 'DH' ? undefined : board.homes[ctx.corp];
  if (home) throw new RuleError(`${ctx.corp} must place its home station in ${hexLabel(home.hex)} first`);
  if (hasTokenIn(board, ctx.corp, hex))
    throw new RuleError(`${ctx.corp} already has a station in ${hexLabel(hex)} (one per hex)`);
  const holder = hexReservedByOther(board, hex, ctx.corp);
  if (holder) throw new RuleError(`${hexLabel(hex)} is kept for ${holder}'s home station until ${holder} places it`);
  const full = openSlot(board, ctx.corp, hex, city);
  if (full) throw new RuleError(full.charAt(0).toUpperCase() + full.slice(1));
  if (ctx.via !== 'DH') {
    const reach = known ?? ctx.reach ?? reachOf(board, ctx.corp);
    if (!reach.reaches(hex, city)) {
      throw new RuleError(
        `${ctx.corp}'s track does not reach the city in ${hexLabel(hex)}${faceAt(board, hex).tile.cityCount > 1 ? ` (city ${city})` : ''}`,
      );
    }
  }
}

/** Checks, then places the station. */
export function placeToken(board: Board, ctx: TokenContext, place: TokenPlace): void {
  checkToken(board, ctx, place);
  addToken(board, ctx.corp, place.hex, place.city);
}

function addToken(board: Board, corp: string, hex: string, city: number): void {
  const toks = cityTokens(board, hex).map((c) => [...c]);
  item(toks, city, `cities of ${hex}`).push(corp);
  board.tokens[hex] = toks;
}

/** Every legal ordinary station for the context. */
export function legalTokens(board: Board, ctx: TokenContext): TokenPlace[] {
  const out: TokenPlace[] = [];
  const reach = ctx.reach ?? reachOf(board, ctx.corp);
  const hexes = ctx.via === 'DH' ? [PRIVATE_LAYS.DH.hex] : reach.hexes();
  for (const hex of hexes) {
    const n = faceAt(board, hex).tile.cityCount;
    for (let city = 0; city < n; city++) {
      try {
        checkTokenWith(board, ctx, { hex, city }, reach);
        out.push({ hex, city });
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
      }
    }
  }
  return out;
}

/**
 * Whether legalTokens(board, ctx) would offer any station (the same rules,
 * without building the list or the refusal messages).
 */
export function hasTokenSpot(board: Board, ctx: TokenContext): boolean {
  if (ctx.via === 'DH') return legalTokens(board, ctx).length > 0;
  const corp = ctx.corp;
  if (ctx.tokensLeft <= 0 || board.homes[corp]) return false;
  const reach = ctx.reach ?? reachOf(board, corp);
  for (const k of reach.nodeKeys()) {
    const hex = hexIdAt((k / MAX_NODES) | 0);
    const city = k % MAX_NODES;
    const node = faceAt(board, hex).tile.nodes[city];
    if (node?.kind !== 'city') continue;
    if (hasTokenIn(board, corp, hex) || hexReservedByOther(board, hex, corp)) continue;
    const toks = board.tokens[hex]?.[city]?.length ?? 0;
    if (toks + reservedSlots(board, hex, city, corp) >= node.slots) continue;
    return true;
  }
  return false;
}

export function hasHomeToken(board: Board, corp: string): boolean {
  return !Object.hasOwn(board.homes, corp);
}

/** The cities a corporation may take for its home station now ([] once placed). */
export function homeTokenChoices(board: Board, corp: string): number[] {
  const r = Object.hasOwn(board.homes, corp) ? board.homes[corp] : null;
  if (!r) return [];
  if (r.city !== null) return [r.city];
  const { tile } = faceAt(board, r.hex);
  if (tile.track.length === 0) return [0];
  const toks = cityTokens(board, r.hex);
  const out: number[] = [];
  toks.forEach((corps, i) => {
    if (corps.length < item(tile.nodes, i, `stops of ${r.hex}`).slots) out.push(i);
  });
  return out;
}

/** Places the free home station (city needed when the corporation has a choice, Erie on a tiled E11). */
export function placeHomeToken(board: Board, corp: string, city?: number): void {
  const r = Object.hasOwn(board.homes, corp) ? board.homes[corp] : null;
  if (!r)
    throw new RuleError(
      Object.hasOwn(HOMES, corp)
        ? `${corp} has already placed its home station`
        : typeof corp === 'string' && corp
          ? `There is no corporation ${corp.slice(0, 24)} in 1830`
          : 'A home station needs a corporation',
    );
  const choices = homeTokenChoices(board, corp);
  if (choices.length === 0)
    throw new RuleError(`There is no open slot for ${corp}'s home station in ${hexLabel(r.hex)}`);
  let c = city;
  if (c === undefined) {
    if (choices.length > 1)
      throw new RuleError(
        `${corp} must choose which city of ${hexLabel(r.hex)} gets its home station (${choices.join(' or ')})`,
      );
    c = item(choices, 0);
  } else if (!choices.includes(c)) {
    throw new RuleError(
      `${corp}'s home station may go in city ${choices.join(' or ')} of ${hexLabel(r.hex)}, not city ${c}`,
    );
  }
  addToken(board, corp, r.hex, c);
  delete board.homes[corp];
}

/** Puts back a station lifted by a tile lay (the operating corporation chooses the city). */
export function placePendingToken(board: Board, corp: string, place: TokenPlace): void {
  const { hex, city } = checkCity(board, place);
  const i = board.pending.findIndex((p) => p.corp === corp && p.hex === hex);
  if (i < 0) throw new RuleError(`No station of ${corp} waits to be put back in ${hexLabel(hex)}`);
  const { tile } = faceAt(board, hex);
  if (item(cityTokens(board, hex), city).length >= item(tile.nodes, city).slots)
    throw new RuleError(`The city ${city} of ${hexLabel(hex)} is full`);
  board.pending.splice(i, 1);
  addToken(board, corp, hex, city);
}
