// What one seat (or a spectator) may see. Money, portfolios, hand sizes and
// the board are public; a hand, the opening choice before all have chosen,
// the draw pile's order and victory points are shown only to their owner
// (victory points to everyone once the game is over).
import type { Seat, View } from '../types.ts';
import { board, airlineName, cityName } from './board.ts';
import { toAct } from './apply.ts';
import { buyableRoutes, isBlocked, nextLicenceCost } from './licences.ts';
import { finalOutcome } from './outcome.ts';
import { mapGeometry } from './svg.ts';
import type { AEState } from './state.ts';

export interface ShareCount {
  airline: string;
  name: string;
  colour: string;
  count: number;
}

function colourOf(id: string): string {
  return id === board.abacus.id ? board.abacus.colour : (board.airlineById[id]?.colour ?? '#999999');
}

/** Counts of shares by airline, board order then Air Abacus. */
export function shareCounts(tally: Record<string, number>): ShareCount[] {
  const order = [...board.airlines.map((a) => a.id), board.abacus.id];
  return order
    .filter((a) => (tally[a] ?? 0) > 0)
    .map((a) => ({ airline: a, name: airlineName(a), colour: colourOf(a), count: tally[a]! }));
}

function tallyOf(items: readonly string[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const a of items) t[a] = (t[a] ?? 0) + 1;
  return t;
}

export function statusLine(s: AEState): string {
  switch (s.phase) {
    case 'opening': {
      const chosen = s.opening.filter((c) => c !== null).length;
      return `Opening: every player chooses two shares (${chosen} of ${s.seats} have chosen)`;
    }
    case 'play':
      return `{seat:${s.turn}} to play; ${s.scoringsDone} of 3 scorings done`;
    case 'clearout':
      return `Scoring ${s.scoringsDone + 1}: clearing the market, {seat:${s.clearout!.seat}} takes a share`;
    default:
      return `Game over: ${s.endReason}`;
  }
}

export function buildView(s: AEState, seat: Seat | null): View {
  const over = s.phase === 'over';
  const mine = seat !== null && Number.isInteger(seat) && seat >= 0 && seat < s.seats ? seat : null;
  const acting = toAct(s);
  const myTurnToBuy = mine !== null && s.phase === 'play' && s.turn === mine;
  // The licences this seat could buy now and can pay for (for the move form).
  const buyable: {
    airline: string;
    airlineName: string;
    colour: string;
    route: string;
    name: string;
    cost: number;
    x1: number;
    y1: number;
    x2: number;
    y2: number;
  }[] = [];
  const map = myTurnToBuy ? mapGeometry() : null;
  if (map && mine !== null) {
    for (const a of s.airlines) {
      for (const r of buyableRoutes(s, a)) {
        const route = board.routes[r]!;
        const cost = nextLicenceCost(s, r)!;
        if (cost > s.money[mine]!) continue;
        const line = map.routes[r]!;
        // Several airlines on one route: each drawn a little aside.
        const k = buyable.filter((b) => b.route === route.id).length;
        const dx = line.y2 - line.y1,
          dy = line.x1 - line.x2,
          len = Math.hypot(dx, dy) || 1,
          off = k * 4;
        const at = (n: number) => Math.round(n * 10) / 10;
        buyable.push({
          airline: a,
          airlineName: airlineName(a),
          colour: colourOf(a),
          route: route.id,
          name: `${cityName(route.from)}-${cityName(route.to)}`,
          cost,
          x1: at(line.x1 + (dx / len) * off),
          y1: at(line.y1 + (dy / len) * off),
          x2: at(line.x2 + (dx / len) * off),
          y2: at(line.y2 + (dy / len) * off),
        });
      }
    }
  }
  const last = s.lastScoring;
  return {
    seat: mine,
    toAct: acting,
    status: statusLine(s),
    phase: s.phase,
    turn: s.turn,
    over,
    scoringsDone: s.scoringsDone,
    scoringCardsWaiting: [...s.scoringQueue],
    clearout: s.clearout ? { ...s.clearout } : null,
    trackLength: board.valueTrack.length,
    airlines: s.airlines.map((a) => {
      const data = board.airlineById[a]!;
      return {
        id: a,
        name: data.name,
        colour: data.colour,
        home: data.home,
        homeName: cityName(data.home),
        track: s.track[a]!,
        row: board.rowAt(s.track[a]!),
        planes: s.planes[a]!,
        planesTotal: data.planes,
        shares: data.shares,
        blocked: isBlocked(s, a),
        network: [...s.networks[a]!],
        bonus: data.bonus
          ? {
              city: data.bonus.city,
              cityName: cityName(data.bonus.city),
              value: data.bonus.value,
              open: s.bonusesLeft.includes(a),
            }
          : null,
      };
    }),
    abacus: {
      name: board.abacus.name,
      supply: s.abacusSupply,
      rows: board.abacus.rows,
      nextRow: board.abacus.rows[Math.min(s.scoringsDone, 2)]!,
    },
    routes: board.routes.map((r, i) => ({
      id: r.id,
      name: `${cityName(r.from)}-${cityName(r.to)}`,
      costs: r.costs,
      holders: [...s.licences[i]!],
    })),
    market: [...s.market],
    marketCounts: shareCounts(tallyOf(s.market)),
    deckSize: s.deck.length,
    discardSize: s.discard.length,
    bank: s.bank,
    bankBroke: s.bankBroke,
    players: Array.from({ length: s.seats }, (_, p) => ({
      seat: p,
      money: s.money[p]!,
      handSize: s.hands[p]!.length,
      portfolio: shareCounts(s.portfolios[p]!),
      openingChosen: s.phase === 'opening' ? s.opening[p] !== null : true,
      vp: over || p === mine ? s.vp[p]! : null,
    })),
    hand: mine === null ? null : shareCounts(tallyOf(s.hands[mine]!)),
    myOpening: mine !== null && s.opening[mine] ? [...s.opening[mine]!] : null,
    buyable,
    map: buyable.length > 0 ? map : null,
    lastScoring: last
      ? {
          number: last.number,
          order: last.order.map((a) => ({ airline: a, name: airlineName(a) })),
          mine: mine !== null ? { ...last.points[mine]! } : null,
          all: over ? last.points.map((p) => ({ ...p })) : null,
        }
      : null,
    outcome: over ? finalOutcome(s) : null,
  };
}
