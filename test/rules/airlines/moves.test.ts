// The listed placements are exactly the legal ones: at many points of seeded
// games, every airline, route card in hand and circle is tried against the
// rule check that `apply` uses, and the foundings and extensions listed for
// the form and the moves must be that set (cards of equal pattern and value
// counted once), no more and no less.
import { describe, expect, it } from 'vitest';
import { extensions, foundings, placementProblem, type Placement } from '../../../rules/airlines/placement.ts';
import { airlines, board, type AirlinesState } from './hand-set.ts';

const key = (p: Placement) => {
  const card = board.cardById.get(p.card)!;
  return `${p.company}:${card.pattern}${card.value}:${p.circle}`;
};

function legal(s: AirlinesState, seat: number, mode: 'found' | 'extend'): Set<string> {
  const out = new Set<string>();
  for (const c of board.companies) {
    if (mode === 'found' && (s.stock[seat]![c.index]! === 0 || s.founded[c.index])) continue;
    for (const id of s.routes[seat]!) {
      for (const circle of board.circles) {
        if (placementProblem(s, c.index, board.cardById.get(id)!, circle.index, mode) === null) {
          out.add(key({ company: c.index, card: id, circle: circle.index }));
        }
      }
    }
  }
  return out;
}

describe('airlines: listed placements', () => {
  it('are exactly the legal foundings and extensions, all through seeded games', () => {
    // Counts of points where something was listed: a check of empty sets alone proves little.
    let checkedPlace = 0,
      checkedFound = 0;
    for (let g = 0; g < 4; g++) {
      const s = airlines.setup(3 + (g % 3), `listing-${g}`, {});
      for (let step = 0; airlines.toAct(s).length > 0; step++) {
        const seat = s.turn;
        if (step % 5 === 0) {
          if (s.step === 'place') {
            const listed = new Set(extensions(s, seat).map(key));
            expect(listed).toEqual(legal(s, seat, 'extend'));
            if (listed.size > 0) checkedPlace++;
          } else {
            const listed = new Set(foundings(s, seat).map(key));
            expect(listed).toEqual(legal(s, seat, 'found'));
            if (listed.size > 0) checkedFound++;
          }
        }
        const moves = airlines.moves(s, seat);
        airlines.apply(s, seat, moves[(step * 13) % moves.length]);
      }
    }
    expect(checkedPlace).toBeGreaterThan(20);
    expect(checkedFound).toBeGreaterThan(5);
  });
});
