// Well-shaped but wrong actions at many points of a real game: each is either legal or
// refused with a RuleError, and a refused one leaves the state exactly as it was.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { game1830 as g } from '../../../rules/1830/index';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay';
import { RuleError } from '../../../rules/types';

const exp = JSON.parse(readFileSync(new URL('../../fixtures/18xx.games/1830/29133.json', import.meta.url), 'utf8')) as Export18xx;

const bogus: unknown[] = [
  { type: 'pass' },
  { type: 'bid', company: 'ZZ', price: 10 }, { type: 'bid', company: 'CA', price: 0 }, { type: 'bid', company: 'SV', price: 99999 },
  { type: 'par', corp: 'ZZZ', price: 67 }, { type: 'par', corp: 'PRR', price: 68 }, { type: 'par', corp: 'B&M', price: 100 },
  { type: 'buy', corp: 'NYC', from: 'pool' }, { type: 'buy', corp: 'ZZZ', from: 'ipo' }, { type: 'buy', corp: 'B&O', from: 'ipo' },
  { type: 'sell', corp: 'PRR', percent: 15 }, { type: 'sell', corp: 'NYC', percent: 100 }, { type: 'sell', corp: 'B&O', percent: 10 },
  { type: 'exchange', company: 'MH', from: 'pool' },
  { type: 'layTile', hex: 'Z99', tile: '57', rotation: 0 }, { type: 'layTile', hex: 'H10', tile: '999', rotation: 2 }, { type: 'layTile', hex: 'E19', tile: '57', rotation: 0, via: 'CS' },
  { type: 'placeToken', hex: 'Q1', city: 0 }, { type: 'placeToken', hex: 'E19', city: 3 }, { type: 'placeToken', hex: 'F16', city: 0, via: 'DH' },
  { type: 'runRoutes', routes: [{ train: '2-0', connections: [['I15', 'J14']] }] }, { type: 'runRoutes', routes: [{ train: 'nope', connections: [] }] },
  { type: 'dividend', kind: 'payout' },
  { type: 'buyTrain', train: 'D-0', price: 1100 }, { type: 'buyTrain', train: '2-0', price: 1 }, { type: 'buyTrain', train: 'zz', price: 5 },
  { type: 'buyTrain', train: 'D-0', price: 800, exchange: '2-0' },
  { type: 'discardTrain', corp: 'PRR', train: '2-0' },
  { type: 'buyCompany', company: 'CA', price: 1 }, { type: 'buyCompany', company: 'ZZ', price: 50 },
  { type: 'bankrupt' },
];

describe('1830 refuses wrong moves without changing anything', () => {
  it('at every 15th action of a real game, for every seat', () => {
    const { log, options } = importExport(exp);
    const state = g.setup(exp.players.length, 'fuzz', options);
    let checked = 0;
    for (let i = 0; i < log.length; i++) {
      if (i % 15 === 0 && !state.finished) {
        const before = JSON.stringify(state);
        for (let seat = 0; seat < state.seats; seat++) {
          for (const action of bogus) {
            const copy = JSON.parse(before);
            try {
              g.apply(copy, seat, structuredClone(action));
            } catch (e) {
              expect(e, `${JSON.stringify(action)} at ${i}: ${(e as Error).stack}`).toBeInstanceOf(RuleError);
              expect(JSON.stringify(copy), `${JSON.stringify(action)} at ${i}`).toBe(before);
              checked++;
            }
          }
        }
      }
      g.apply(state, log[i]!.seat, log[i]!.action);
    }
    expect(checked).toBeGreaterThan(1000);
    expect(state.finished).toBe(true);
  });
});
