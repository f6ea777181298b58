// In-game scorings (city, railway town, merger), their order on one move,
// the tie rules, and "a town or city scores once per line".
import { describe, expect, it } from 'vitest';
import { majorityPayout } from '../../../rules/stephensons-rocket/scoring.ts';
import {
  board,
  game,
  giveShares,
  giveTokens,
  H,
  id,
  L,
  P,
  passVotes,
  putLoco,
  putStation,
  putTile,
  quietSpot,
  R,
  spotNextTo,
} from './helpers.ts';

const kindOf = (p: string) => board.places[P(p)]!.kind;
const paid = (s: ReturnType<typeof game>) => s.ledger.map((p) => [p.seat, p.amount]);

describe('tie rules (every scoring)', () => {
  it('pays first and second to single holders', () => {
    expect(majorityPayout([3, 1, 0], 2000, 1000)).toEqual([2000, 1000, 0]);
  });
  it('splits first plus second among several first places, rounded down to thousands', () => {
    expect(majorityPayout([2, 2, 1], 2000, 1000)).toEqual([1000, 1000, 0]);
    expect(majorityPayout([2, 2, 2], 6000, 3000)).toEqual([3000, 3000, 3000]);
    expect(majorityPayout([1, 1, 0, 0], 6000, 3000)).toEqual([4000, 4000, 0, 0]);
  });
  it('splits the second amount among several second places', () => {
    expect(majorityPayout([3, 1, 1, 0], 6000, 3000)).toEqual([6000, 1000, 1000, 0]);
    expect(majorityPayout([3, 2, 2, 2], 8000, 4000)).toEqual([8000, 1000, 1000, 1000]);
  });
  it('pays a monopoly only the first amount', () => {
    expect(majorityPayout([0, 4, 0], 6000, 3000)).toEqual([0, 6000, 0]);
  });
  it('pays nobody when nobody holds any', () => {
    expect(majorityPayout([0, 0, 0], 2000, 1000)).toEqual([0, 0, 0]);
  });
});

describe('city scoring', () => {
  const spot = spotNextTo('city');
  const city = spot.place;

  it('pays the goods-token majority of a newly joined city 2,000 and 1,000', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    giveTokens(s, 1, city, 2);
    giveTokens(s, 2, city, 1);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(paid(s)).toEqual([
      [1, 2000],
      [2, 1000],
    ]);
    expect(s.money).toEqual([0, 2000, 1000]);
  });

  it('ties for first share 3,000 (rounded down)', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    giveTokens(s, 1, city, 1);
    giveTokens(s, 2, city, 1);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(s.money).toEqual([0, 1000, 1000]);
  });

  it('three tied firsts (one token each) share 3,000: 1,000 each', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    for (const seat of [0, 1, 2]) giveTokens(s, seat, city, 1);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(paid(s)).toEqual([
      [0, 1000],
      [1, 1000],
      [2, 1000],
    ]);
  });

  it('a lone holder gets 2,000 only; nobody holding its goods scores nothing', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    giveTokens(s, 2, city, 1);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(s.money).toEqual([0, 0, 2000]);
    const t = game(3);
    putLoco(t, 'NR', spot.from, spot.facing);
    R.apply(t, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(t.ledger).toEqual([]);
    expect(t.lines[L('NR')]!.connected).toContain(P(city));
  });

  it('scores once per line: a city already joined to the line scores no more', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    s.lines[L('NR')]!.connected.push(P(city));
    giveTokens(s, 1, city, 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(s.ledger).toEqual([]);
  });

  it('scores again for another line', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    s.lines[L('SDR')]!.connected.push(P(city));
    giveTokens(s, 1, city, 1);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(s.money).toEqual([0, 2000, 0]);
  });
});

describe('railway-town scoring', () => {
  const spot = spotNextTo('town');
  const town = spot.place;

  it('pays the station majority on the line 1,000 per town and city on it, the second half (rounded down)', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    const nr = s.lines[L('NR')]!;
    nr.connected.push(P('ipswich')); // the line already reaches Norwich and Ipswich: with the new town, 3
    // stations on the line: two of seat 2 on track, one of seat 1 under the locomotive
    putTile(s, 'NR', 'B9');
    putTile(s, 'NR', 'D8');
    putStation(s, 2, 'B9');
    putStation(s, 2, 'D8');
    putStation(s, 1, spot.from);
    putStation(s, 0, 'W4'); // not on the line
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(nr.connected).toContain(P(town));
    expect(paid(s)).toEqual([
      [1, 1000],
      [2, 3000],
    ]);
  });

  it('pays nothing when no station is on the line', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    putStation(s, 0, 'W4');
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(s.ledger).toEqual([]);
  });

  it('ties on stations share first plus second', () => {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    putTile(s, 'NR', 'B9');
    putStation(s, 2, 'B9');
    putStation(s, 1, spot.from);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    // value 2 (Norwich and the town): 2,000 + 1,000 shared by two = 1,500, rounded down
    expect(paid(s)).toEqual([
      [1, 1000],
      [2, 1000],
    ]);
  });
});

describe('start towns', () => {
  it("another line's start town, its locomotive gone, is a railway town: joining it pays the station majority", () => {
    // a free hex next to exactly one place, a start town other than Norwich, with a free hex behind
    let found: { target: string; from: string; facing: number; start: string } | null = null;
    for (let h = 0; h < board.hexIds.length && !found; h++) {
      const near = board.placesNear[h]!.map((p) => board.places[p]!);
      if (board.placeAt[h]! >= 0 || near.length !== 1 || near[0]!.kind !== 'start' || near[0]!.id === 'norwich')
        continue;
      for (let d = 0; d < 6 && !found; d++) {
        const back = board.neighbour[h]![(d + 3) % 6]!;
        if (back >= 0 && board.placeAt[back]! < 0 && board.placesNear[back]!.length === 0)
          found = { target: id(h), from: id(back), facing: d, start: near[0]!.id };
      }
    }
    const spot = found!;
    const owner = board.lines.find((l) => board.places[l.start]!.id === spot.start)!.id;
    const s = game(3);
    putLoco(s, owner, 'B9', 0); // far away in the north
    putLoco(s, 'NR', spot.from, spot.facing);
    putStation(s, 1, spot.from);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    expect(s.lines[L('NR')]!.connected).toEqual([P('norwich'), P(spot.start)]);
    expect(s.lines[L('NR')]!.absorbedInto).toBe(-1);
    expect(paid(s)).toEqual([[1, 2000]]); // Norwich and the other start town
  });
});

describe('merger', () => {
  const spot = quietSpot((near) => near.length === 0, 1);

  function mergeSetUp() {
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    // GWR track next to the target, not next to where the NR stands
    const other = spot.other;
    putTile(s, 'GWR', other);
    putTile(s, 'NR', 'B9');
    s.lines[L('NR')]!.connected.push(P('ipswich'), P('cambridge')); // worth 3
    return { s, other };
  }

  it('absorbs the moving line: its share majority is paid per town and city on it, shares swapped two for one', () => {
    const { s } = mergeSetUp();
    giveShares(s, 1, 'NR', 5);
    giveShares(s, 2, 'NR', 3);
    giveShares(s, 0, 'NR', 2);
    s.lines[L('GWR')]!.supply = 2;
    s.lines[L('GWR')]!.retired = 14; // keeps the count of GWR shares right
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    passVotes(s);
    const nr = s.lines[L('NR')]!;
    const gwr = s.lines[L('GWR')]!;
    // the mover took a share first: seat 0 holds 3, seat 1 5, seat 2 3; two seconds share 1,000: 500 each, rounded down
    expect(paid(s)).toEqual([[1, 3000]]);
    expect(nr.absorbedInto).toBe(L('GWR'));
    expect(nr.held).toEqual([0, 0, 0]);
    expect(nr.supply).toBe(0);
    // 3 -> 1, 5 -> 2, 3 -> 1 : four GWR shares, two from the supply, two supplementary
    expect(gwr.held).toEqual([1, 2, 1]);
    expect(gwr.supply).toBe(0);
    expect(gwr.supplementary).toBe(2);
    expect(s.supplementary).toBe(14);
    // the locomotive is gone, a tile joins the lines, the NR track is GWR's now
    expect(s.tiles.filter((t) => t.hex === H(spot.target))).toHaveLength(1);
    expect(s.tiles.every((t) => t.line !== L('NR'))).toBe(true);
    expect(gwr.connected).toEqual(expect.arrayContaining([P('norwich'), P('ipswich'), P('cambridge'), P('bristol')]));
    expect(R.check!(s)).toEqual([]);
  });

  it('pays 3,000 to the share majority and half (1,000) to the second', () => {
    const { s } = mergeSetUp();
    giveShares(s, 1, 'NR', 5);
    giveShares(s, 2, 'NR', 2);
    R.apply(s, 0, { type: 'extend', line: 'NR', to: spot.target });
    passVotes(s);
    expect(paid(s)).toEqual([
      [1, 3000],
      [2, 1000],
    ]);
  });
});

describe('several scorings on one move', () => {
  it('resolves city, then railway town, then merger', () => {
    const spot = quietSpot(
      (near) => near.some((p) => kindOf(p) === 'city') && near.some((p) => kindOf(p) === 'town'),
      1,
    );
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    const t = H(spot.target);
    putTile(s, 'GWR', spot.other);
    const city = board.placesNear[t]!.map((p) => board.places[p]!).find((p) => p.kind === 'city')!;
    giveTokens(s, 2, city.id, 1);
    putStation(s, 1, spot.from);
    giveShares(s, 0, 'NR', 1);
    const action = { type: 'extend' as const, line: 'NR', to: spot.target };
    R.apply(s, 0, action);
    expect(s.ledger.map((p) => p.reason.split(':')[0])).toEqual(['city scoring', 'railway-town scoring', 'merger']);
    expect(s.ledger.map((p) => p.seat)).toEqual([2, 1, 0]);
  });

  it('its history line lists each payee and amount, city, then railway town, then merger', () => {
    const spot = quietSpot(
      (near) => near.some((p) => kindOf(p) === 'city') && near.some((p) => kindOf(p) === 'town'),
      1,
    );
    const s = game(3);
    putLoco(s, 'NR', spot.from, spot.facing);
    putTile(s, 'GWR', spot.other);
    const near = board.placesNear[H(spot.target)]!.map((p) => board.places[p]!);
    const city = near.find((p) => p.kind === 'city')!;
    const town = near.find((p) => p.kind === 'town')!;
    giveTokens(s, 2, city.id, 1);
    putStation(s, 1, spot.from);
    giveShares(s, 0, 'NR', 1);
    const worth = 1 + near.length; // Norwich and the places joined now
    const line = R.describe({ type: 'extend', line: 'NR', to: spot.target }, s, 0);
    const pieces = [
      `city scoring for ${city.name} (goods-token majority): {seat:2} $2,000`,
      `railway-town scoring for ${town.name} (station majority on the NR, ${worth} towns and cities): {seat:1} $${worth},000`,
      `merger scoring for the NR (share majority, ${worth} towns and cities): {seat:0} $${worth},000`,
    ];
    const at = pieces.map((p) => line.indexOf(p));
    expect(
      at.every((i) => i >= 0),
      line,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect([...line.matchAll(/\{seat:(\d)\} (\$[\d,]+)/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      '2 $2,000',
      `1 $${worth},000`,
      `0 $${worth},000`,
    ]);
  });
});
