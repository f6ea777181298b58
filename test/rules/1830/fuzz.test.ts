// Well-shaped but wrong actions at many points of a real game: each is either legal or
// refused with a RuleError, and a refused one leaves the state exactly as it was.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { game1830 as g } from '../../../rules/1830/index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { RuleError } from '../../../rules/types.ts';
import type { Action1830 } from '../../../rules/1830/actions.ts';

const exp = JSON.parse(
  readFileSync(new URL('../../fixtures/18xx.games/1830/29133.json', import.meta.url), 'utf8'),
) as Export18xx;

const bogus: unknown[] = [
  { type: 'pass' },
  { type: 'bid', company: 'ZZ', price: 10 },
  { type: 'bid', company: 'CA', price: 0 },
  { type: 'bid', company: 'SV', price: 99999 },
  { type: 'par', corp: 'ZZZ', price: 67 },
  { type: 'par', corp: 'PRR', price: 68 },
  { type: 'par', corp: 'B&M', price: 100 },
  { type: 'buy', corp: 'NYC', from: 'pool' },
  { type: 'buy', corp: 'ZZZ', from: 'ipo' },
  { type: 'buy', corp: 'B&O', from: 'ipo' },
  { type: 'sell', corp: 'PRR', percent: 15 },
  { type: 'sell', corp: 'NYC', percent: 100 },
  { type: 'sell', corp: 'B&O', percent: 10 },
  { type: 'exchange', company: 'MH', from: 'pool' },
  { type: 'layTile', hex: 'Z99', tile: '57', rotation: 0 },
  { type: 'layTile', hex: 'H10', tile: '999', rotation: 2 },
  { type: 'layTile', hex: 'E19', tile: '57', rotation: 0, via: 'CS' },
  { type: 'placeToken', hex: 'Q1', city: 0 },
  { type: 'placeToken', hex: 'E19', city: 3 },
  { type: 'placeToken', hex: 'F16', city: 0, via: 'DH' },
  { type: 'runRoutes', routes: [{ train: '2-0', connections: [['I15', 'J14']] }] },
  { type: 'runRoutes', routes: [{ train: 'nope', connections: [] }] },
  { type: 'dividend', kind: 'payout' },
  { type: 'buyTrain', train: 'D-0', price: 1100 },
  { type: 'buyTrain', train: '2-0', price: 1 },
  { type: 'buyTrain', train: 'zz', price: 5 },
  { type: 'buyTrain', train: 'D-0', price: 800, exchange: '2-0' },
  { type: 'discardTrain', corp: 'PRR', train: '2-0' },
  { type: 'buyCompany', company: 'CA', price: 1 },
  { type: 'buyCompany', company: 'ZZ', price: 50 },
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

/** Near misses of a real operating-round action: another rotation, tile, hex, city, price, train, route. */
function nearMisses(a: Action1830): unknown[] {
  const out: unknown[] = [];
  switch (a.type) {
    case 'layTile':
      for (let k = 1; k < 6; k++) out.push({ ...a, rotation: (a.rotation + k) % 6 });
      for (const tile of ['7', '9', '14', '15', '57', '59', '63', '53']) if (tile !== a.tile) out.push({ ...a, tile });
      for (const hex of ['E5', 'H10', 'F20', 'A19', 'K15', 'D14', 'B20']) if (hex !== a.hex) out.push({ ...a, hex });
      out.push({ ...a, copy: 99 }, { ...a, via: 'CS' }, { ...a, via: 'DH' });
      break;
    case 'placeToken':
      out.push(
        { ...a, city: a.city + 1 },
        { ...a, hex: 'F20' },
        { ...a, hex: 'E19' },
        { ...a, hex: 'A19', city: 0 },
        { ...a, via: 'DH' },
      );
      break;
    case 'runRoutes':
      if (a.routes.length) {
        const r0 = a.routes[0]!;
        out.push({ ...a, routes: [...a.routes, r0] });
        out.push({ ...a, routes: [{ ...r0, connections: r0.connections.slice(0, -1) }, ...a.routes.slice(1)] });
        out.push({
          ...a,
          routes: [{ ...r0, connections: [...r0.connections, ...r0.connections] }, ...a.routes.slice(1)],
        });
        out.push({
          ...a,
          routes: [{ ...r0, connections: r0.connections.map((c) => c.slice(1)) }, ...a.routes.slice(1)],
        });
        out.push({ ...a, routes: [{ ...r0, train: 'D-7' }, ...a.routes.slice(1)] });
        out.push({ ...a, routes: [{ ...r0, nodes: ['Z1-0', 'Z2-0'] }, ...a.routes.slice(1)] });
        out.push({ ...a, routes: [{ ...r0, connections: [['A1', 'A3']] }] });
      }
      break;
    case 'buyTrain':
      out.push(
        { ...a, price: a.price + 1 },
        { ...a, price: Math.max(1, a.price - 1) },
        { ...a, price: 1 },
        { ...a, train: 'D-3' },
        { ...a, train: '2-0' },
        { ...a, exchange: '2-0' },
        { ...a, exchange: 'zz' },
      );
      break;
    case 'buyCompany':
      out.push(
        { ...a, price: a.price * 3 },
        { ...a, price: 1 },
        { ...a, company: 'BO' },
        { ...a, company: 'CA', price: 1000 },
      );
      break;
    case 'sell':
      out.push({ ...a, percent: a.percent + 10 }, { ...a, percent: 60 }, { ...a, corp: 'CPR' });
      break;
    case 'discardTrain':
      out.push({ ...a, train: 'D-0' }, { ...a, corp: 'CPR' });
      break;
    default:
      break;
  }
  out.push(
    { type: 'pass' },
    { type: 'bankrupt' },
    { type: 'dividend', kind: 'payout' },
    { type: 'buyCompany', company: 'SV', price: 40 },
  );
  return out;
}

describe('1830 refuses near misses in operating rounds without changing anything', () => {
  it('every operating-round action of two real games, changed a little, by the acting seat and another', () => {
    let checked = 0;
    for (const name of ['29133', '26855']) {
      const e = JSON.parse(
        readFileSync(new URL(`../../fixtures/18xx.games/1830/${name}.json`, import.meta.url), 'utf8'),
      ) as Export18xx;
      const { log, options } = importExport(e);
      const state = g.setup(e.players.length, 'fuzz', options);
      for (let i = 0; i < log.length; i++) {
        const { seat, action } = log[i]!;
        if (state.round.kind === 'operating') {
          const before = JSON.stringify(state);
          for (const bad of nearMisses(action)) {
            for (const who of [seat, (seat + 1) % state.seats]) {
              const copy = JSON.parse(before) as typeof state;
              try {
                g.apply(copy, who, structuredClone(bad));
              } catch (err) {
                const where = `${JSON.stringify(bad)} by ${who} at ${name}#${i}`;
                expect(err, `${where}: ${(err as Error).stack}`).toBeInstanceOf(RuleError);
                const msg = (err as Error).message;
                expect(msg, where).toMatch(/^[A-Z0-9$#]/);
                expect(msg, where).not.toMatch(/undefined|NaN|null|\[object/);
                expect(JSON.stringify(copy), where).toBe(before);
                checked++;
              }
            }
          }
        }
        g.apply(state, seat, action);
      }
      expect(state.finished).toBe(true);
    }
    expect(checked).toBeGreaterThan(3000);
  });
});
