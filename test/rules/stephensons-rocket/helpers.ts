// Hand-set positions for the Stephenson's Rocket tests.
import { expect } from 'vitest';
import { stephensonsRocket as R, type SRState } from '../../../rules/stephensons-rocket/index.ts';
import { board, opposite } from '../../../rules/stephensons-rocket/board.ts';
import { RuleError } from '../../../rules/types.ts';

export { R, board };

export function game(seats = 3): SRState {
  return R.setup(seats, 'hand-set', {});
}
export function H(id: string): number {
  const h = board.hexIndex.get(id);
  if (h === undefined) throw new Error(`no hex ${id}`);
  return h;
}
export function L(id: string): number {
  return board.lineIndex.get(id)!;
}
export function P(id: string): number {
  return board.placeIndex.get(id)!;
}
export function id(h: number): string {
  return board.hexIds[h]!;
}
export function nb(hexId: string, dir: number): string {
  const n = board.neighbour[H(hexId)]![dir]!;
  if (n < 0) throw new Error(`${hexId} has no neighbour ${dir}`);
  return id(n);
}
export function isFree(h: number): boolean {
  return h >= 0 && board.placeAt[h]! < 0;
}
/** Puts a line's locomotive on a hex, facing a direction, out of its start town. */
export function putLoco(s: SRState, line: string, hexId: string, facing: number): void {
  const l = s.lines[L(line)]!;
  l.loco = H(hexId);
  l.facing = facing;
  l.atStart = false;
}
export function putTile(s: SRState, line: string, hexId: string, sides: [number, number] = [0, 3]): void {
  s.tiles.push({ hex: H(hexId), line: L(line), sides });
}
export function putStation(s: SRState, seat: number, hexId: string): void {
  const k = s.stations[seat]!.indexOf(-1);
  s.stations[seat]![k] = H(hexId);
}
export function giveTokens(s: SRState, seat: number, city: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const goods = s.cityGoods[P(city)]!;
    const good = goods.shift()!;
    s.tokens[seat]!.push({ city: P(city), good });
  }
}
export function giveShares(s: SRState, seat: number, line: string, n: number): void {
  const l = s.lines[L(line)]!;
  l.supply -= n;
  l.held[seat]! += n;
}
/**
 * Sets the line's locomotive one step before `target` so that moving straight
 * ahead enters it; returns the hex it stands on. Picks the first direction
 * whose hex behind the target is free land and not next to `avoid` hexes.
 */
export function approach(
  s: SRState,
  line: string,
  target: string,
  avoid: string[] = [],
): { from: string; facing: number } {
  for (let d = 0; d < 6; d++) {
    const back = board.neighbour[H(target)]![opposite(d)]!;
    if (!isFree(back) || avoid.includes(id(back))) continue;
    if (avoid.some((a) => board.neighbour[back]!.includes(H(a)))) continue;
    putLoco(s, line, id(back), d);
    return { from: id(back), facing: d };
  }
  throw new Error(`no way into ${target}`);
}

/** Expects a RuleError whose message matches, and the state unchanged. */
export function refuses(s: SRState, seat: number, action: unknown, message: RegExp): void {
  const before = JSON.stringify(s);
  let err: unknown;
  try {
    R.apply(s, seat, action);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(RuleError);
  expect((err as Error).message).toMatch(message);
  expect(JSON.stringify(s)).toBe(before);
}

/** Every seat asked in a pending vote passes. */
export function passVotes(s: SRState): void {
  while (s.vote) R.apply(s, R.toAct(s)[0]!, { type: 'bid', amount: 0 });
}

/** The hexes a line may extend to now, for a seat on turn. */
export function targets(s: SRState, seat: number, line: string): string[] {
  return R.moves(s, seat)
    .filter((m) => m.type === 'extend' && m.line === line)
    .map((m) => (m as { to: string }).to);
}

const startHexes = () => board.lines.map((l) => board.places[l.start]!.hex);

/**
 * A free hex whose neighbouring places satisfy `want` (place ids in any order),
 * with a free hex behind it (in some direction) far from every start town, so
 * moving a locomotive in merges with nothing.
 */
export function quietSpot(
  want: (near: string[]) => boolean,
  extraFree = 0,
): { target: string; from: string; facing: number; other: string } {
  const starts = startHexes();
  const farFromStarts = (h: number) => !starts.includes(h) && board.neighbour[h]!.every((n) => !starts.includes(n));
  for (let t = 0; t < board.hexIds.length; t++) {
    if (!isFree(t) || !farFromStarts(t)) continue;
    const near = board.placesNear[t]!.map((p) => board.places[p]!.id);
    if (!want(near)) continue;
    const freeAround = board.neighbour[t]!.filter((n) => isFree(n) && farFromStarts(n));
    if (freeAround.length < 1 + extraFree) continue;
    for (let d = 0; d < 6; d++) {
      const back = board.neighbour[t]![opposite(d)]!;
      if (!isFree(back) || !farFromStarts(back)) continue;
      const other = board.neighbour[t]!.find(
        (n) => isFree(n) && farFromStarts(n) && n !== back && !board.neighbour[back]!.includes(n),
      );
      if (extraFree > 0 && other === undefined) continue;
      return { target: id(t), from: id(back), facing: d, other: other === undefined ? '' : id(other) };
    }
  }
  throw new Error('no such spot');
}

/** A quietSpot next to exactly one place, a city or a railway town, with that place's id. */
export function spotNextTo(kind: 'city' | 'town'): ReturnType<typeof quietSpot> & { place: string } {
  const spot = quietSpot((near) => near.length === 1 && board.places[P(near[0]!)]!.kind === kind);
  return { ...spot, place: board.places[board.placesNear[H(spot.target)]![0]!]!.id };
}
