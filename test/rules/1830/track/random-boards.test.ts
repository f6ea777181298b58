// Random legal play on the map: every offered lay and station passes its own
// check, stations never get lost, and every suggestion validates to its revenue.
import { describe, expect, it } from 'vitest';
import { item } from '../../../../rules/item.ts';
import {
  checkTileLay,
  hasTokenSpot,
  legalTileLays,
  legalTokens,
  layTile,
  newBoard,
  placeHomeToken,
  placePendingToken,
  placeToken,
  reachOf,
  runRoutes,
  suggestRoutes,
  tilesInSupply,
  type PhaseName,
} from '../../../../rules/1830/track/index.ts';
import { lcg, pickFrom } from './helpers.ts';

const CORPS = ['PRR', 'NYC', 'CPR', 'B&O', 'C&O', 'ERIE', 'NYNH', 'B&M'];
const TRAIN_SETS = [
  [
    { id: '2-0', distance: 2 },
    { id: '2-1', distance: 2 },
    { id: '3-0', distance: 3 },
  ],
  [
    { id: '4-0', distance: 4 },
    { id: '5-0', distance: 5 },
  ],
  [
    { id: '6-0', distance: 6 },
    { id: 'D-0', distance: 999 },
  ],
  [
    { id: 'D-0', distance: 999 },
    { id: 'D-1', distance: 999 },
  ],
];

describe('random legal play on the 1830 map', () => {
  for (const seed of [11, 29, 47]) {
    it(`seed ${seed}`, () => {
      const rnd = lcg(seed);
      const pick = pickFrom(rnd);
      const b = newBoard();
      for (const c of CORPS) placeHomeToken(b, c, 0);
      const stations = () => Object.values(b.tokens).flat(2).length + b.pending.length;
      for (let i = 0; i < 160; i++) {
        const corp = pick(CORPS);
        const phase: PhaseName = i < 40 ? '2' : i < 90 ? '4' : 'D';
        const ctx = { corp, phase, layUsed: false, playerPrivates: [] };
        const lays = legalTileLays(b, ctx, 40 + rnd(80));
        for (const l of lays.slice(0, 5)) expect(() => checkTileLay(b, ctx, l)).not.toThrow();
        if (lays.length) {
          const before = stations();
          layTile(b, ctx, pick(lays));
          expect(stations()).toBe(before);
          for (const p of [...b.pending]) placePendingToken(b, p.corp, { hex: p.hex, city: 0 });
        }
        // the quick answers agree with the full lists; a reach handed in gives the same lays
        const reach = reachOf(b, corp);
        expect(reach.nodeCount).toBe(reach.nodes.size);
        for (const left of [0, 1])
          expect(hasTokenSpot(b, { corp, tokensLeft: left, reach })).toBe(
            legalTokens(b, { corp, tokensLeft: left }).length > 0,
          );
        if (i % 10 === 0) expect(legalTileLays(b, { ...ctx, reach })).toEqual(legalTileLays(b, ctx));
        if (rnd(6) === 0) {
          const spots = legalTokens(b, { corp, tokensLeft: 1 });
          if (spots.length) placeToken(b, { corp, tokensLeft: 1 }, pick(spots));
        }
        if (i % 20 === 19) {
          for (const c of CORPS) {
            const trains = pick(TRAIN_SETS);
            const best = suggestRoutes(b, c, phase, trains);
            expect(runRoutes(b, c, phase, trains, best.routes).revenue).toBe(best.revenue);
          }
        }
      }
      expect(Object.values(tilesInSupply(b)).every((n) => n >= 0)).toBe(true);
      // the offered lays are exactly the legal ones (up to turns giving the same track)
      const ctx = {
        corp: item(CORPS, seed % CORPS.length),
        phase: 'D' as PhaseName,
        layUsed: false,
        playerPrivates: [],
      };
      const offered = new Set(legalTileLays(b, ctx).map((l) => `${l.hex}/${l.tile}`));
      for (const hex of ['E11', 'G19', 'H10', 'F20', 'D14', 'I15', 'E19', 'G11', 'F16', 'B20']) {
        for (const tile of Object.keys(tilesInSupply(b))) {
          for (let rotation = 0; rotation < 6; rotation++) {
            let legal = true;
            try {
              checkTileLay(b, ctx, { hex, tile, rotation });
            } catch {
              legal = false;
            }
            if (legal) expect(offered.has(`${hex}/${tile}`)).toBe(true);
          }
        }
      }
      expect(Object.keys(b.tiles).length).toBeGreaterThan(30);
    });
  }
});
