// Preparation: 5 stock cards and 3 route cards each, 5 open stock cards, the
// pile in four parts with a scoring card in each of the lower three, bonus
// points 0, 1, 2 ... from the start player on.
import { describe, expect, it } from 'vitest';
import { airlines, board, SCORING } from './hand-set.ts';

describe('airlines setup', () => {
  for (const seats of [2, 3, 4, 5, 6]) {
    it(`deals and builds the piles for ${seats} players`, () => {
      const s = airlines.setup(seats, `setup-${seats}`, {});
      for (let seat = 0; seat < seats; seat++) {
        expect(s.stock[seat]!.reduce((a, b) => a + b, 0)).toBe(5);
        expect(s.routes[seat]).toHaveLength(3);
        expect(s.played[seat]!.every((x) => x === 0)).toBe(true);
      }
      expect(s.open).toHaveLength(5);
      expect(s.open).not.toContain(SCORING);
      const rest = 84 - 5 * seats - 5;
      expect(s.pile).toHaveLength(rest + 3);
      // Four parts of the rest: the top one has no scoring card, each lower one has exactly one.
      const sizes = [0, 1, 2, 3].map((p) => Math.floor(rest / 4) + (p < rest % 4 ? 1 : 0));
      let at = 0;
      sizes.forEach((size, p) => {
        const part = s.pile.slice(at, at + size + (p > 0 ? 1 : 0));
        at += part.length;
        expect(part.filter((x) => x === SCORING)).toHaveLength(p > 0 ? 1 : 0);
      });
      expect(s.routePile).toHaveLength(42 - 3 * seats);
      expect(s.circles.every((c) => c === null)).toBe(true);
      expect(airlines.check!(s)).toEqual([]);
    });
  }

  it('gives the start player 0 bonus points, the next 1, and so on round the table', () => {
    for (let g = 0; g < 12; g++) {
      const s = airlines.setup(5, `bonus-${g}`, {});
      for (let k = 0; k < 5; k++) expect(s.bonus[(s.turn + k) % 5]).toBe(k);
      expect(s.points).toEqual(s.bonus);
      expect(airlines.toAct(s)).toEqual([s.turn]);
    }
  });

  it('has the board the issue asks for', () => {
    expect(board.companies).toHaveLength(9);
    expect(board.companies.reduce((a, c) => a + c.stock, 0)).toBe(84);
    expect(board.routeCards).toHaveLength(42);
    expect(board.markersPerCompany).toBe(15);
    expect(board.scoringCards).toBe(3);
    expect(new Set(board.routes.map((r) => r.pattern)).size).toBe(5);
    for (const r of board.routes) expect(r.circles.length).toBeGreaterThanOrEqual(1);
    for (const r of board.routes) expect(r.circles.length).toBeLessThanOrEqual(3);
    // Every airline has at least three routes from home it may fly.
    for (const c of board.companies) {
      const flyable = board.routesAt[c.home]!.filter((ri) => c.patterns.includes(board.routes[ri]!.pattern));
      expect(flyable.length, c.code).toBeGreaterThanOrEqual(3);
    }
    // Every circle can be reached by some route card of its pattern.
    for (const c of board.circles) {
      const pattern = board.routes[c.route]!.pattern;
      expect(board.routeCards.some((card) => card.pattern === pattern && card.value >= c.value)).toBe(true);
    }
  });

  it('refuses a board that does not fit its schema', async () => {
    const { loadBoard } = await import('../../../rules/airlines/board.ts');
    const raw = structuredClone(
      (await import('../../../rules/airlines/data/board.json', { with: { type: 'json' } })).default,
    ) as any;
    raw.routes[0].circles = [1, 2, 3, 4];
    expect(() => loadBoard(raw)).toThrow();
    const bad = structuredClone(
      (await import('../../../rules/airlines/data/board.json', { with: { type: 'json' } })).default,
    ) as any;
    bad.companies[0].home = 'XXX';
    expect(() => loadBoard(bad)).toThrow(/unknown home/);
  });
});
