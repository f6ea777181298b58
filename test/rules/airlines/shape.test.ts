// Bad input: every odd shape is refused with a message that says what is
// wrong, and the state stays byte for byte as it was. A field the move does
// not have is refused, not ignored (a misspelt "sabotge" must not quietly
// become a plain stock play).
import { describe, expect, it } from 'vitest';
import { airlines, found, giveRoute, giveStock, handSet, mark, refused, topRoute } from './hand-set.ts';

function ready() {
  const s = handSet(3);
  found(s, 'GLA');
  mark(s, 'MSP-ORD/1', 'GLA');
  giveStock(s, 0, 'GLA', 2);
  giveStock(s, 0, 'EMP', 1);
  const dotted5 = giveRoute(s, 0, 'dotted', 5);
  topRoute(s, 'dotted', 3);
  return { s, dotted5 };
}

describe('airlines: bad input', () => {
  it('refuses what is no move at all', () => {
    const { s } = ready();
    for (const raw of [null, undefined, 42, 'stock', [], {}, { type: 'fly' }, { type: 7 }, { type: 'toString' }]) {
      refused(s, 0, raw, /not an Airlines move: its "type" must be drawRoute, found, extend, skip or stock/);
    }
  });

  it('refuses fields a move does not have, naming them', () => {
    const { s } = ready();
    refused(s, 0, { type: 'drawRoute', extra: 1 }, /A drawRoute move has no "extra"; its fields are type\./);
    refused(
      s,
      0,
      { type: 'stock', company: 'GLA', count: 1, sabotge: { company: 'LSA', circle: 'DEN-DFW/3' } },
      /A stock move has no "sabotge"/,
    );
    refused(
      s,
      0,
      { type: 'stock', company: 'GLA', count: 1, sabotage: { company: 'LSA', circle: 'DEN-DFW/3', twice: true } },
      /"sabotage" has no "twice"/,
    );
    refused(
      s,
      0,
      JSON.parse('{"type":"stock","company":"GLA","count":1,"__proto__":{"count":2}}'),
      /A stock move has no "__proto__"/,
    );
  });

  it('refuses wrong types, missing fields and absurd numbers, saying which field', () => {
    const { s, dotted5 } = ready();
    const count = /In a stock move, "count" must be a whole number of stock cards from 1 to 20/;
    for (const n of ['1', 0, -1, 1.5, 21, 1e300, null, true])
      refused(s, 0, { type: 'stock', company: 'GLA', count: n }, count);
    refused(s, 0, { type: 'stock', count: 1 }, /"company" must be an airline code/);
    refused(
      s,
      0,
      { type: 'stock', company: 'GLA', count: 1, sabotage: 'DEN-DFW/3' },
      /"sabotage" must be \{ company, circle \}/,
    );
    refused(
      s,
      0,
      { type: 'stock', company: 'GLA', count: 1, sabotage: { company: 'LSA' } },
      /"sabotage.circle" must name a circle/,
    );
    refused(s, 0, { type: 'found', company: 'EMP' }, /In a found move, "count"/);
    for (const card of [1e300, Number.MAX_SAFE_INTEGER + 2, -3, '12', 0]) {
      refused(
        s,
        0,
        { type: 'found', company: 'EMP', count: 1, card, circle: 'JFK-BOS/1', draw: 'pile' },
        /"card" must be the number of a route card you hold/,
      );
    }
    refused(
      s,
      0,
      { type: 'found', company: 'EMP', count: 1, card: dotted5, circle: 'x'.repeat(400), draw: 'pile' },
      /"circle" must name a circle/,
    );
    refused(
      s,
      0,
      { type: 'found', company: 'EMP', count: 1, card: dotted5, circle: 'JFK-BOS/1', draw: 'the pile please' },
      /"draw" must be "pile" or the code of an airline/,
    );
  });

  it('refuses names and ids that do not exist', () => {
    const { s, dotted5 } = ready();
    refused(s, 0, { type: 'stock', company: 'ZZZ', count: 1 }, /There is no airline "ZZZ"; the airlines are PNA, GGA/);
    refused(s, 0, { type: 'stock', company: 'valueOf', count: 1 }, /There is no airline "valueOf"/);
    refused(
      s,
      0,
      { type: 'stock', company: 'GLA', count: 1, sabotage: { company: 'GLA', circle: 'toString' } },
      /There is no circle "toString"/,
    );
    refused(
      s,
      0,
      { type: 'stock', company: 'GLA', count: 1, sabotage: { company: 'GLA', circle: 'DEN-DFW/9' } },
      /There is no circle "DEN-DFW\/9"/,
    );
    refused(
      s,
      0,
      { type: 'found', company: 'EMP', count: 1, card: 9999, circle: 'JFK-BOS/1', draw: 'pile' },
      /You do not hold route card #9999/,
    );
    refused(
      s,
      0,
      { type: 'found', company: 'EMP', count: 1, card: dotted5, circle: 'JFK-BOS/1', draw: 'ZZZ' },
      /There is no airline "ZZZ"/,
    );
    airlines.apply(s, 0, { type: 'drawRoute' });
    refused(
      s,
      0,
      { type: 'extend', company: 'GLA', card: dotted5, circle: 'ORD-YYZ/7', draw: 'pile' },
      /There is no circle "ORD-YYZ\/7"/,
    );
    refused(s, 0, { type: 'skip', card: 41, draw: 'pile' }, /One of your route cards can be played: you must play one/);
  });

  it('refuses any seat that is not the one to act, however odd', () => {
    const { s } = ready();
    for (const seat of [1, 2, 3, -1, 1.5, NaN, 99]) refused(s, seat, { type: 'drawRoute' }, /not your turn/);
  });

  it("gives a spectator's view for a seat that does not exist, never a hand", () => {
    const { s } = ready();
    const spectator = JSON.stringify({ ...airlines.view(s, null), seat: 0 });
    for (const seat of [-1, 3, 1.5, NaN]) {
      const v = airlines.view(s, seat);
      expect(v.hand).toBeNull();
      expect(v.options).toBeNull();
      expect(JSON.stringify({ ...v, seat: 0 })).toBe(spectator);
      expect(airlines.moves(s, seat)).toEqual([]);
    }
  });
});
