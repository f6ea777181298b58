// Does our own board play well? A simple greedy bot (buys the licences that
// raise the airlines it holds most, heads for connection bonuses, plays its
// biggest set of shares, takes money when broke) plays seeded games; the board
// must let every airline grow, make routes shared, and let each connection
// bonus be reached in some games but not in all (reachable but contested).
import { describe, expect, it } from 'vitest';
import { buyableRoutes, nextLicenceCost, type Licence } from '../../../rules/airlines-europe/licences.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import type { AEState } from '../../../rules/airlines-europe/state.ts';
import { board, rules } from './helpers.ts';

/** Hops from the airline's network (plus `extra` cities) to `target` over routes it could still fly. */
function hops(s: AEState, airline: string, extra: readonly string[], target: string): number {
  const seen = new Set([...s.networks[airline]!, ...extra]);
  if (seen.has(target)) return 0;
  let frontier = [...seen];
  for (let d = 1; d < 12 && frontier.length; d++) {
    const next: string[] = [];
    for (const c of frontier) {
      for (const ri of board.routesByCity[c]!) {
        const r = board.routes[ri]!;
        const held = s.licences[ri]!;
        if (!held.includes(airline) && held.length >= r.costs.length) continue;
        const o = r.from === c ? r.to : r.from;
        if (seen.has(o)) continue;
        if (o === target) return d;
        seen.add(o);
        next.push(o);
      }
    }
    frontier = next;
  }
  return 99;
}

function interest(s: AEState, seat: number, airline: string): number {
  let inHand = 0;
  for (const a of s.hands[seat]!) if (a === airline) inHand++;
  return (s.portfolios[seat]![airline] ?? 0) + 0.5 * inHand + 0.2;
}

function bestLicence(
  s: AEState,
  seat: number,
  money: number,
  earlier: Licence[],
): (Licence & { score: number }) | null {
  let best: (Licence & { score: number }) | null = null;
  const citiesOf = (a: string) =>
    earlier.filter((l) => l.airline === a).flatMap((l) => [board.routes[l.route]!.from, board.routes[l.route]!.to]);
  for (const airline of s.airlines) {
    for (const route of buyableRoutes(s, airline, earlier)) {
      const cost = nextLicenceCost(s, route, earlier)!;
      if (cost > money) continue;
      const w = interest(s, seat, airline);
      let score = cost * w - cost * 0.3;
      const bonus = board.airlineById[airline]!.bonus;
      if (bonus && s.bonusesLeft.includes(airline)) {
        const r = board.routes[route]!;
        const before = hops(s, airline, citiesOf(airline), bonus.city);
        const after = hops(s, airline, [...citiesOf(airline), r.from, r.to], bonus.city);
        if (after < before) score += (bonus.value * w) / (1 + after);
      }
      if (!best || score > best.score) best = { airline, route, score };
    }
  }
  return best;
}

function greedyMove(s: AEState, seat: number, roll: number): unknown {
  const hand = s.hands[seat]!;
  if (s.phase === 'opening') {
    const kinds = [...new Set(hand)].sort((a, b) => interest(s, seat, b) - interest(s, seat, a));
    return { type: 'open', airlines: [kinds[0], kinds[1]] };
  }
  const wanted = [...s.market].sort((a, b) => interest(s, seat, b) - interest(s, seat, a));
  if (s.phase === 'clearout')
    return { type: 'take', take: wanted.length ? { from: 'market', airline: wanted[0] } : { from: 'deck' } };
  const counts = new Map<string, number>();
  for (const a of hand) counts.set(a, (counts.get(a) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  const play = top ? { type: 'play', shares: [{ airline: top[0], count: top[1] }] } : { type: 'money' };
  if (top && (top[1] >= 3 || hand.length >= 7) && roll < 60) return play;
  const first = bestLicence(s, seat, s.money[seat]!, []);
  if (first && first.score > 0.5 && roll < 90) {
    const licences = [first];
    const second = bestLicence(s, seat, s.money[seat]! - nextLicenceCost(s, first.route)!, [first]);
    if (second && second.score > 0.5) licences.push(second);
    const take =
      wanted.length && interest(s, seat, wanted[0]!) >= 1 ? { from: 'market', airline: wanted[0] } : { from: 'deck' };
    return {
      type: 'buy',
      licences: licences.map((l) => ({ airline: l.airline, route: board.routes[l.route]!.id })),
      take,
    };
  }
  return roll < 95 ? play : { type: 'money' };
}

function botGames(seats: number, games: number) {
  const bonusReached: Record<string, number> = {};
  const outAtFirstScoring: number[] = [];
  const usedRoutes = new Set<number>();
  let shared = 0;
  const grown: Record<string, number> = {};
  for (let g = 0; g < games; g++) {
    const s = rules.setup(seats, `board-bot-${seats}-${g}`, {});
    const r = seedRandom(`board-bot-pick-${seats}-${g}`);
    let noted = false;
    for (let step = 0; rules.toAct(s).length > 0; step++) {
      if (step > 3000) throw new Error('the bot game does not end');
      const seat = rules.toAct(s)[0]!;
      rules.apply(s, seat, greedyMove(s, seat, randomInt(r, 100)));
      if (!noted && s.scoringsDone >= 1) {
        noted = true;
        outAtFirstScoring.push(s.airlines.filter((a) => s.planes[a] === 0).length);
      }
    }
    expect(rules.check!(s)).toEqual([]);
    for (const a of s.airlines) {
      if (board.airlineById[a]!.bonus && !s.bonusesLeft.includes(a)) bonusReached[a] = (bonusReached[a] ?? 0) + 1;
      if (s.networks[a]!.length >= 4) grown[a] = (grown[a] ?? 0) + 1;
    }
    s.licences.forEach((holders, i) => {
      if (holders.length > 0) usedRoutes.add(i);
      if (holders.length >= 2) shared++;
    });
  }
  return { bonusReached, outAtFirstScoring, usedRoutes, shared: shared / games, grown };
}

describe('Airlines Europe board in play', () => {
  it.each([2, 4])(
    '%i players, greedy bots: every airline grows, routes are shared, each bonus reached in some games but not all',
    (seats) => {
      const games = 30;
      const { bonusReached, outAtFirstScoring, usedRoutes, shared, grown } = botGames(seats, games);
      const airlines = board.airlinesFor(seats);
      for (const a of airlines) expect(grown[a] ?? 0, `${a} reaches 4 cities`).toBeGreaterThan(games / 2);
      for (const a of airlines.filter((x) => board.airlineById[x]!.bonus)) {
        expect(bonusReached[a] ?? 0, `${a} bonus`).toBeGreaterThan(games * 0.2);
        expect(bonusReached[a] ?? 0, `${a} bonus`).toBeLessThan(games * 0.95);
      }
      // Nearly every route is flown in some game, and many carry two or more airlines.
      expect(usedRoutes.size).toBeGreaterThan(board.routes.length * 0.9);
      expect(shared).toBeGreaterThan(seats * 3);
      // Airlines do not run dry before the first scoring (on average well under one).
      const meanOut = outAtFirstScoring.reduce((t, n) => t + n, 0) / outAtFirstScoring.length;
      expect(meanOut).toBeLessThan(1);
    },
  );
});
