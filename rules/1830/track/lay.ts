// Tile lays and upgrades: what may go where, turned how, at what cost.
//
// The checks follow 1830 as 18xx.games plays it: one tile action (a yellow lay
// or an upgrade) per operating turn; the tile's colour must be available in the
// phase; an upgrade replaces a tile of the previous colour with the same label
// (OO, NY, B) and the same towns/cities and keeps every piece of existing track;
// no track may point off the map, into a wall or into the blank side of a red or
// grey hex; some new track must touch the corporation's network; the tile must
// still be in the supply; the terrain cost (river 80, mountain 120) is paid on
// the first tile of the hex. The C&SL lays its tile in B20 free of the turn's
// tile action and without connection; the D&H lays tile 57 in F16 as the turn's
// tile action without connection (its station token follows, see ./tokens).
import { item } from '../../item.ts';
import { RuleError } from '../../types.ts';
import { faceAt, tilesInSupply, tileAt } from './board.ts';
import * as data from './data.ts';
import { hexDef, phaseColors, rotatedTrack, tileDef, type End, type TileDef } from './data.ts';
import { reachOf, type Reach } from './graph.ts';
import type { Board, LayContext, LayResult, TileLay } from './types.ts';

// module-local references (no per-use lookup of another module's bindings)
const HEXES = data.HEXES;
const HOME_LAYS = data.HOME_LAYS;
const NODE = data.NODE;
const PRIVATE_HEXES = data.PRIVATE_HEXES;
const PRIVATE_LAYS = data.PRIVATE_LAYS;
const TILES = data.TILES;

const COLOR_WORD: Record<string, string> = { yellow: 'Yellow', green: 'Green', brown: 'Brown', gray: 'Grey' };
const FIRST_PHASE: Record<string, string> = { yellow: '2', green: '3', brown: '5', gray: '-' };

export const hexLabel = (hex: string): string => (HEXES[hex]?.name ? `${hex} (${HEXES[hex].name})` : hex);

function exitsOf(track: [End, End][]): Set<number> {
  const s = new Set<number>();
  for (const [a, b] of track) {
    if (a < 6) s.add(a);
    if (b < 6) s.add(b);
  }
  return s;
}

/** For each city (by index) the edges its track leads to. */
function cityEdges(tile: TileDef, track: [End, End][]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < tile.cityCount; i++) out.push([]);
  for (const [a, b] of track) {
    if (a >= NODE && a - NODE < tile.cityCount && b < 6) item(out, a - NODE).push(b);
    if (b >= NODE && b - NODE < tile.cityCount && a < 6) item(out, b - NODE).push(a);
  }
  return out;
}

const KIND_CODE = { city: 6, town: 7, offboard: 8 } as const;
/** An end as the upgrade rule compares it: the edge (0..5), or the kind of stop (6 city, 7 town, 8 off-board). */
const endKind = (tile: TileDef, e: End): number =>
  e < 6 ? e : KIND_CODE[item(tile.nodes, e - NODE, `stops of tile #${tile.id}`).kind];

/** Every old path is contained in a new one (same edges, same kind of stop). */
function keepsOldTrack(oldTile: TileDef, oldTrack: [End, End][], newTile: TileDef, newTrack: [End, End][]): boolean {
  return oldTrack.every(([a, b]) => {
    const ka = endKind(oldTile, a);
    const kb = endKind(oldTile, b);
    return newTrack.some(([c, d]) => {
      const kc = endKind(newTile, c);
      const kd = endKind(newTile, d);
      return (ka === kc || ka === kd) && (kb === kc || kb === kd);
    });
  });
}

/** Map old city index -> new city index, as 18xx.games moves tokens on an upgrade. */
export function cityMap(oldTile: TileDef, oldTrack: [End, End][], newTile: TileDef, newTrack: [End, End][]): number[] {
  const oldE = cityEdges(oldTile, oldTrack);
  const newE = cityEdges(newTile, newTrack);
  const map: number[] = new Array(oldTile.cityCount).fill(-1);
  if (oldE.every((e) => e.length === 0) && oldTile.cityCount === newTile.cityCount) {
    return map.map((_, i) => i);
  }
  oldE.forEach((edges, i) => {
    if (edges.length === 0) return;
    const j = newE.findIndex((ne) => edges.every((e) => ne.includes(e)));
    if (j >= 0) map[i] = j;
  });
  const taken = new Set(map.filter((j) => j >= 0));
  map.forEach((j, i) => {
    if (j >= 0) return;
    let k = i < newTile.cityCount && !taken.has(i) ? i : -1;
    if (k < 0)
      for (let c = 0; c < newTile.cityCount; c++)
        if (!taken.has(c)) {
          k = c;
          break;
        }
    map[i] = k;
    if (k >= 0) taken.add(k);
  });
  return map;
}

interface Checked extends LayResult {
  tile: TileDef;
  copy: number;
}

function checkRotation(
  board: Board,
  hex: string,
  tile: TileDef,
  rotation: number,
  reach: Reach | null,
  corp: string,
): string | null {
  const h = hexDef(hex);
  const { tile: oldTile, rotation: oldRot } = faceAt(board, hex);
  const oldTrack = rotatedTrack(oldTile, oldRot);
  const newTrack = rotatedTrack(tile, rotation);
  const exits = exitsOf(newTrack);
  for (const e of exits) {
    if (!h.neighbors[e]) {
      const adj = h.adjacent[e];
      return adj
        ? `tile #${tile.id} with rotation ${rotation} would run track from ${hex} into ${hexLabel(adj)}, where no track can meet it`
        : `tile #${tile.id} with rotation ${rotation} would run track off the edge of the map at ${hex}`;
    }
  }
  if (!keepsOldTrack(oldTile, oldTrack, tile, newTrack)) {
    return `tile #${tile.id} with rotation ${rotation} does not keep all the existing track of ${hexLabel(hex)} (an upgrade must keep every track exit)`;
  }
  if (oldTile.cityCount > 1 && tile.cityCount > 1) {
    const oldE = cityEdges(oldTile, oldTrack);
    const newE = cityEdges(tile, newTrack);
    let ok = oldE.every((oe) => oe.length === 0 || newE.filter((ne) => oe.every((e) => ne.includes(e))).length === 1);
    // from board version 3 two old cities may not end up in one new city (18xx.games refuses that rotation)
    if (ok && (board.version ?? 0) >= 3) {
      const into = oldE
        .filter((oe) => oe.length > 0)
        .map((oe) => newE.findIndex((ne) => oe.every((e) => ne.includes(e))));
      ok = new Set(into).size === into.length;
    }
    if (!ok)
      return `tile #${tile.id} with rotation ${rotation} does not keep the cities of ${hexLabel(hex)} apart as they are`;
  }
  if (reach) {
    const touch = reach.edgesOf(hex);
    if (![...exits].some((e) => touch & (1 << e))) {
      return `tile #${tile.id} with rotation ${rotation} on ${hexLabel(hex)} does not connect to ${corp}'s network (new track must be reachable from one of its stations)`;
    }
  }
  return null;
}

function isTileLay(x: unknown): x is TileLay {
  if (!x || typeof x !== 'object') return false;
  const l = x as Record<string, unknown>;
  return (
    typeof l.hex === 'string' &&
    /^[A-Z][0-9]{1,2}$/.test(l.hex) &&
    typeof l.tile === 'string' &&
    /^[0-9]{1,3}$/.test(l.tile) &&
    Number.isInteger(l.rotation) &&
    (l.rotation as number) >= 0 &&
    (l.rotation as number) <= 5 &&
    (l.copy === undefined || (Number.isInteger(l.copy) && (l.copy as number) >= 0))
  );
}

function check(board: Board, ctx: LayContext, input: unknown): Checked {
  if (!isTileLay(input))
    throw new RuleError('A tile lay needs a hex (like F20), a tile number (like 57) and a rotation from 0 to 5');
  const lay: TileLay = input;
  const h = HEXES[lay.hex];
  if (!h) throw new RuleError(`There is no hex ${lay.hex} on the 1830 map`);
  if (h.color === 'red') throw new RuleError(`${hexLabel(lay.hex)} is an off-board area; no tile can be laid there`);
  if (h.color === 'gray')
    throw new RuleError(`${hexLabel(lay.hex)} is a grey hex; its track is printed and cannot be changed`);

  const via = ctx.via ? PRIVATE_LAYS[ctx.via] : null;
  if (ctx.via && !via) throw new RuleError(`The ${ctx.via} private has no tile ability`);
  if (via) {
    if (via.hex !== lay.hex)
      throw new RuleError(`The ${ctx.via} private may only lay its tile in ${hexLabel(via.hex)}`);
    if (!via.tiles.includes(lay.tile))
      throw new RuleError(
        `The ${ctx.via} private may only lay tile ${via.tiles.map((t) => `#${t}`).join(', ')} in ${via.hex}`,
      );
  }
  if ((!via || via.consumesLay) && ctx.layUsed) {
    throw new RuleError(`${ctx.corp} has already laid or upgraded a tile this turn (one tile per operating turn)`);
  }
  for (const p of ctx.playerPrivates) {
    if ((PRIVATE_HEXES[p] ?? []).includes(lay.hex)) {
      throw new RuleError(`${hexLabel(lay.hex)} is blocked while a player owns the ${p} private`);
    }
  }

  const tile = TILES[lay.tile];
  if (!tile) throw new RuleError(`There is no tile #${lay.tile} in 1830`);
  const homeLay =
    !via && HOME_LAYS[ctx.corp]?.hex === lay.hex && HOME_LAYS[ctx.corp]?.tile === lay.tile ? HOME_LAYS[ctx.corp] : null;
  if (
    !phaseColors(ctx.phase).includes(tile.color) &&
    !(homeLay?.anyPhase && ctx.homeGreenEarly && tile.color === 'green')
  ) {
    throw new RuleError(
      `${COLOR_WORD[tile.color]} tiles are not available before phase ${FIRST_PHASE[tile.color]} (now phase ${ctx.phase})`,
    );
  }
  const { tile: oldTile } = faceAt(board, lay.hex);
  const laid = tileAt(board, lay.hex);
  if (!oldTile.upgrades.includes(tile.id)) {
    const order = ['white', 'yellow', 'green', 'brown', 'gray'];
    const what = laid ? `tile #${laid.tile}` : 'the printed hex';
    if (order.indexOf(tile.color) !== order.indexOf(oldTile.color) + 1) {
      throw new RuleError(
        `A ${tile.color} tile cannot go on ${hexLabel(lay.hex)}: it shows ${what}, which is ${oldTile.color}`,
      );
    }
    if ((oldTile.label ?? null) !== (tile.label ?? null)) {
      throw new RuleError(
        oldTile.label
          ? `${hexLabel(lay.hex)} takes only tiles labelled ${oldTile.label}`
          : `Tile #${tile.id} (labelled ${tile.label}) only goes on hexes labelled ${tile.label}`,
      );
    }
    if (oldTile.townCount !== tile.townCount || oldTile.cityCount !== tile.cityCount) {
      throw new RuleError(`Tile #${tile.id} does not have the towns and cities of ${hexLabel(lay.hex)}`);
    }
    throw new RuleError(`Tile #${tile.id} is not an upgrade of ${what} on ${hexLabel(lay.hex)}`);
  }
  const onMap = new Set<number>();
  const tiles = board.tiles;
  const id = tile.id;
  for (const hex in tiles) {
    const t = tiles[hex];
    if (t && t.tile === id) onMap.add(t.copy);
  }
  if (onMap.size >= tile.count) throw new RuleError(`All ${tile.count} copies of tile #${tile.id} are on the map`);
  let copy = lay.copy;
  if (copy === undefined) {
    copy = 0;
    while (onMap.has(copy)) copy++;
  } else if (copy >= tile.count || onMap.has(copy)) {
    throw new RuleError(`Copy ${copy} of tile #${tile.id} is not in the supply`);
  }

  const needsReach = homeLay ? false : !via || via.needsConnection;
  const reach = needsReach ? (ctx.reach ?? reachOf(board, ctx.corp)) : null;
  const problem = checkRotation(board, lay.hex, tile, lay.rotation, reach, ctx.corp);
  if (problem) throw new RuleError(problem.charAt(0).toUpperCase() + problem.slice(1));

  const cost = laid ? 0 : h.cost;
  if (ctx.cash !== undefined && cost > ctx.cash) {
    throw new RuleError(
      `${ctx.corp} cannot pay the $${cost} ${h.terrain ?? 'terrain'} cost of ${hexLabel(lay.hex)} (it has $${ctx.cash})`,
    );
  }
  return {
    cost,
    upgrade: oldTile.color !== 'white',
    consumesLay: !via || via.consumesLay,
    oldTile: laid ? laid.tile : null,
    tile,
    copy,
  };
}

const result = (c: Checked): LayResult => ({
  cost: c.cost,
  upgrade: c.upgrade,
  consumesLay: c.consumesLay,
  oldTile: c.oldTile,
});

/** Checks a tile lay completely; throws RuleError saying which rule forbids it. */
export function checkTileLay(board: Board, ctx: LayContext, lay: TileLay): LayResult {
  return result(check(board, ctx, lay));
}

/** Checks, then lays the tile: stations and home reservations move to the matching cities of the new tile. */
export function layTile(board: Board, ctx: LayContext, lay: TileLay): LayResult {
  const checked = check(board, ctx, lay);
  const { tile: oldTile, rotation: oldRot } = faceAt(board, lay.hex);
  const oldTrack = rotatedTrack(oldTile, oldRot);
  const newTrack = rotatedTrack(checked.tile, lay.rotation);
  const tokens = board.tokens[lay.hex];
  if (oldTile.cityCount > 0) {
    const map = cityMap(oldTile, oldTrack, checked.tile, newTrack);
    const lift = oldTrack.length === 0 && newTrack.length > 0 && checked.tile.cityCount > 1;
    if (tokens) {
      const moved: string[][] = Array.from({ length: checked.tile.cityCount }, () => []);
      tokens.forEach((corps, i) => {
        const to = map[i] ?? -1;
        if (lift) for (const c of corps) board.pending.push({ corp: c, hex: lay.hex });
        else if (to >= 0) item(moved, to, `cities of tile #${checked.tile.id}`).push(...corps);
      });
      board.tokens[lay.hex] = moved;
    }
    const homes = board.homes;
    for (const r of Object.values(homes)) {
      if (r.hex !== lay.hex || r.city === null) continue;
      const to = map[r.city] ?? -1;
      if (to >= 0) r.city = to;
    }
  }
  board.tiles[lay.hex] = { tile: checked.tile.id, copy: checked.copy, rotation: lay.rotation };
  return result(checked);
}

/** Every legal tile lay for the context (all rotations), up to `limit`. */
export function legalTileLays(board: Board, ctx: LayContext, limit = 2000): TileLay[] {
  const out: TileLay[] = [];
  const via = ctx.via ? PRIVATE_LAYS[ctx.via] : null;
  if (ctx.via && !via) return out;
  if ((!via || via.consumesLay) && ctx.layUsed) return out;
  const reach = ctx.reach ?? reachOf(board, ctx.corp);
  const home = via ? null : HOME_LAYS[ctx.corp];
  const hexes = via ? [via.hex] : reach.hexes();
  if (home && !hexes.includes(home.hex)) hexes.push(home.hex);
  const supply = tilesInSupply(board);
  const colors = phaseColors(ctx.phase);
  const blocked = new Set(ctx.playerPrivates.flatMap((p) => PRIVATE_HEXES[p] ?? []));
  for (const hex of hexes) {
    const h = HEXES[hex];
    if (!h || h.color === 'red' || h.color === 'gray' || blocked.has(hex)) continue;
    const laid = board.tiles[hex];
    if (ctx.cash !== undefined && !laid && h.cost > ctx.cash) continue;
    const { tile: oldTile } = faceAt(board, hex);
    for (const id of oldTile.upgrades) {
      const t = tileDef(id);
      const homeLay = !!home && home.hex === hex && home.tile === id;
      if (
        (!colors.includes(t.color) && !(homeLay && home.anyPhase && ctx.homeGreenEarly && t.color === 'green')) ||
        (supply[id] ?? 0) <= 0
      )
        continue;
      if (via && !via.tiles.includes(id)) continue;
      const needsReach = homeLay ? false : !via || via.needsConnection;
      const seen = new Set<string>();
      for (let r = 0; r < 6; r++) {
        if (checkRotation(board, hex, t, r, needsReach ? reach : null, ctx.corp) !== null) continue;
        const key = rotatedTrack(t, r)
          .map(([a, b]) => (a < b ? `${a}-${b}` : `${b}-${a}`))
          .sort()
          .join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ hex, tile: id, rotation: r });
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/** The legal lays grouped for a move form: hex -> tile -> rotations. */
export function tileLayOptions(board: Board, ctx: LayContext): Record<string, Record<string, number[]>> {
  const out: Record<string, Record<string, number[]>> = {};
  for (const l of legalTileLays(board, ctx)) ((out[l.hex] ??= {})[l.tile] ??= []).push(l.rotation);
  return out;
}
