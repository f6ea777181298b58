// Bad input on every path of the map module: each refusal is a RuleError in
// words (no "undefined", no "[object Object]", not a page long), and the
// board is exactly as it was.
import { describe, expect, it } from 'vitest';
import { item } from '../../../../rules/item.ts';
import { RuleError } from '../../../../rules/types.ts';
import {
  checkTileLay,
  checkToken,
  homeTokenChoices,
  layTile,
  layTileFrom18xx,
  legalTileLays,
  legalTokens,
  placeHomeToken,
  placePendingToken,
  placeToken,
  placeTokenFrom18xx,
  routesFrom18xx,
  routesFromText,
  runRoutes,
  suggestRoutes,
  type Board,
  type PhaseName,
} from '../../../../rules/1830/track/index.ts';
import { lcg, pickFrom } from './helpers.ts';
import { GAMES, loadGame, replayBoard } from './real-games.ts';

const LONG = 'E'.repeat(5000);
const ODD: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  NaN,
  Infinity,
  7,
  '',
  'x',
  '__proto__',
  'constructor',
  'toString',
  'A1',
  'Z99',
  'E11',
  'G19',
  'I15',
  '57',
  '57-0',
  '59-1-0',
  'E11-0-0',
  [],
  {},
  [[]],
  [['E11']],
  true,
  LONG,
  { hex: 'E11' },
];
const HEXES = [
  'E11',
  'G19',
  'I15',
  'J14',
  'H10',
  'H12',
  'F2',
  'K13',
  'E19',
  'H18',
  'D14',
  'I17',
  'F20',
  'B20',
  'F16',
  'A19',
];
const CORPS = ['PRR', 'NYC', 'CPR', 'B&O', 'C&O', 'ERIE', 'NYNH', 'B&M'];

/** The board of the real 3-player game halfway through, and at its end. */
function boards(): Board[] {
  const out: Board[] = [];
  let n = 0;
  const end = replayBoard(loadGame(item(GAMES, 0)), (s) => {
    if (s.action.type === 'lay_tile' && ++n === 25) out.push(structuredClone(s.board));
  });
  out.push(structuredClone(end));
  return out;
}

/** f throws a RuleError in words or succeeds; on a refusal the board is as before. */
function tryIt(board: Board, f: () => unknown, mutates: boolean): 'ok' | 'refused' {
  const before = JSON.stringify(board);
  try {
    f();
  } catch (e) {
    if (!(e instanceof RuleError)) throw new Error(`not a RuleError: ${String(e)}`);
    expect(e.message.length).toBeLessThan(300);
    expect(e.message).not.toMatch(/undefined|\[object|NaN/);
    expect(JSON.stringify(board)).toBe(before);
    return 'refused';
  }
  if (!mutates) expect(JSON.stringify(board)).toBe(before);
  return 'ok';
}

describe('bad input to the 1830 map module', () => {
  const start = boards();

  it('tile lays: odd shapes and values, every hex with odd tiles and turns', () => {
    const rnd = lcg(5);
    const choose = pickFrom(rnd);
    let refusedCount = 0;
    for (const base of start) {
      let b = structuredClone(base);
      const pick = () => (rnd(3) === 0 ? ODD[rnd(ODD.length)] : undefined);
      for (let i = 0; i < 600; i++) {
        const corp = choose(CORPS);
        const phase = choose<PhaseName>(['2', '3', '5', 'D']);
        const lay: Record<string, unknown> = {
          hex: rnd(4) ? HEXES[rnd(HEXES.length)] : ODD[rnd(ODD.length)],
          tile: rnd(4)
            ? String([1, 7, 8, 9, 14, 15, 53, 54, 57, 59, 61, 62, 63, 64, 66, 70, 5, 999][rnd(18)])
            : ODD[rnd(ODD.length)],
          rotation: rnd(4) ? rnd(6) : ODD[rnd(ODD.length)],
        };
        const extra = pick();
        if (extra !== undefined) lay.copy = extra;
        const input = rnd(20) === 0 ? ODD[rnd(ODD.length)] : lay;
        const via = rnd(10) === 0 ? (['CS', 'DH', 'XX'] as const)[rnd(3)] : undefined;
        const ctx = {
          corp,
          phase,
          layUsed: rnd(5) === 0,
          playerPrivates: rnd(3) ? [] : ['SV', 'CS', 'DH', 'MH', 'CA', 'BO'],
          ...(via ? { via: via as 'CS' } : {}),
          ...(rnd(4) ? {} : { cash: rnd(200) }),
        };
        if (tryIt(b, () => checkTileLay(b, ctx, input as never), false) === 'refused') refusedCount++;
        if (tryIt(b, () => layTile(b, ctx, input as never), true) === 'ok') b = structuredClone(base);
      }
    }
    expect(refusedCount).toBeGreaterThan(1000);
  });

  it('stations: odd places, cities that do not exist, full or far cities, home and lifted stations', () => {
    const rnd = lcg(7);
    const choose = pickFrom(rnd);
    for (const base of start) {
      let b = structuredClone(base);
      for (let i = 0; i < 400; i++) {
        const corp = rnd(10) ? choose(CORPS) : (ODD[rnd(ODD.length)] as string);
        const place = rnd(5)
          ? {
              hex: rnd(4) ? HEXES[rnd(HEXES.length)] : ODD[rnd(ODD.length)],
              city: rnd(4) ? rnd(4) : ODD[rnd(ODD.length)],
            }
          : ODD[rnd(ODD.length)];
        const ctx = { corp, tokensLeft: rnd(3), ...(rnd(8) ? {} : { via: 'DH' as const }) };
        tryIt(b, () => checkToken(b, ctx, place as never), false);
        if (tryIt(b, () => placeToken(b, ctx, place as never), true) === 'ok') b = structuredClone(base);
        if (tryIt(b, () => placePendingToken(b, corp, place as never), true) === 'ok') b = structuredClone(base);
        if (tryIt(b, () => placeHomeToken(b, corp, (rnd(2) ? rnd(3) : ODD[rnd(ODD.length)]) as never), true) === 'ok')
          b = structuredClone(base);
        tryIt(b, () => homeTokenChoices(b, corp), false);
      }
    }
  });

  it('routes: odd shapes, junk hexes, broken chains, wrong trains; runs never change the board', () => {
    const rnd = lcg(11);
    const choose = pickFrom(rnd);
    const trains = [
      { id: '2-0', distance: 2 },
      { id: '4-0', distance: 4 },
      { id: 'D-0', distance: 999 },
    ];
    const chain = () => {
      const out: unknown[] = [];
      const n = 1 + rnd(5);
      for (let k = 0; k < n; k++) out.push(rnd(6) ? HEXES[rnd(HEXES.length)] : ODD[rnd(ODD.length)]);
      return rnd(15) ? out : ODD[rnd(ODD.length)];
    };
    const route = () =>
      rnd(15)
        ? {
            train: rnd(5) ? choose(trains).id : ODD[rnd(ODD.length)],
            connections: rnd(10) ? Array.from({ length: 1 + rnd(4) }, chain) : ODD[rnd(ODD.length)],
            ...(rnd(4) ? {} : { nodes: rnd(2) ? ['E11-0', 'G19-1', 'x'] : ODD[rnd(ODD.length)] }),
          }
        : ODD[rnd(ODD.length)];
    let refusedCount = 0;
    for (const b of start) {
      for (let i = 0; i < 500; i++) {
        const routes = rnd(12) ? Array.from({ length: 1 + rnd(3) }, route) : ODD[rnd(ODD.length)];
        if (tryIt(b, () => runRoutes(b, choose(CORPS), 'D', trains, routes as never), false) === 'refused')
          refusedCount++;
        tryIt(
          b,
          () =>
            routesFromText(
              (rnd(3) ? `2-0: ${(chain() as unknown[] | null)?.toString?.() ?? ''}` : ODD[rnd(ODD.length)]) as never,
            ),
          false,
        );
        tryIt(
          b,
          () =>
            routesFrom18xx(
              (rnd(3) ? { routes: rnd(3) ? [route()] : ODD[rnd(ODD.length)] } : ODD[rnd(ODD.length)]) as never,
            ),
          false,
        );
        tryIt(
          b,
          () =>
            layTileFrom18xx(
              (rnd(2) ? { hex: 'E11', tile: ODD[rnd(ODD.length)], rotation: 0 } : ODD[rnd(ODD.length)]) as never,
            ),
          false,
        );
        tryIt(
          b,
          () => placeTokenFrom18xx(b, (rnd(2) ? { city: ODD[rnd(ODD.length)] } : ODD[rnd(ODD.length)]) as never),
          false,
        );
      }
      // the real runs stay valid and the suggestion is unchanged by all of this
      for (const corp of CORPS) expect(() => suggestRoutes(b, corp, 'D', trains)).not.toThrow();
    }
    expect(refusedCount).toBeGreaterThan(700);
  });

  it('the lists never offer what the checks refuse, on the same boards', () => {
    for (const b of start) {
      for (const corp of CORPS) {
        const ctx = { corp, phase: 'D' as PhaseName, layUsed: false, playerPrivates: [] };
        for (const l of legalTileLays(b, ctx)) expect(() => checkTileLay(b, ctx, l)).not.toThrow();
        for (const t of legalTokens(b, { corp, tokensLeft: 1 }))
          expect(() => checkToken(b, { corp, tokensLeft: 1 }, t)).not.toThrow();
      }
    }
  });
});
