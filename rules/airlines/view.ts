// What one seat (or a spectator) may see. Public: the board, the open stock
// row, every seat's laid-out stock, points, bonus and hand sizes, pile sizes,
// past scorings. Private to its holder: the hand (stock and route cards) and
// the legal choices built from it. Never shown: the order of either pile.
import type { Seat, View } from '../types.ts';
import { board, cardText, circleText } from './board.ts';
import { routeCardsLeft } from './draw.ts';
import { drawOptions } from './moves.ts';
import { extensions, foundings, sabotageCircles, type Placement } from './placement.ts';
import { markersOnBoard, supplies, type AirlinesState } from './state.ts';

const code = (c: number) => board.companies[c]!.code;

function statusLine(s: AirlinesState): string {
  if (s.over) return `Game over after ${s.scorings.length} scorings`;
  const who = `{seat:${s.turn}}`;
  const left = board.scoringCards - s.scorings.length;
  const tail = `${s.pile.length} stock cards in the pile, ${left} scoring card${left === 1 ? '' : 's'} among them`;
  if (s.step === 'place') return `${who} is extending a network; ${tail}`;
  return `${who} to found, extend or play stock; ${tail}`;
}

function placementView(p: Placement) {
  return {
    company: code(p.company),
    card: p.card,
    circle: board.circles[p.circle]!.label,
    x: board.circles[p.circle]!.x,
    y: board.circles[p.circle]!.y,
    text: `${code(p.company)}: ${cardText(p.card)} on ${circleText(p.circle)}`,
  };
}

export function viewFor(s: AirlinesState, seat: Seat | null, toAct: Seat[]): View {
  const seats = s.points.length;
  const left = supplies(s);
  const companies = board.companies.map((c) => {
    const m = markersOnBoard(s, c.index);
    return {
      code: c.code,
      name: c.name,
      colour: c.colour,
      home: board.cities[c.home]!.code,
      homeName: board.cities[c.home]!.name,
      patterns: c.patterns,
      founded: s.founded[c.index]!,
      value: m.scoring,
      sabotageMarkers: m.sabotage,
      markersLeft: left[c.index]!,
      stockCards: c.stock,
      laidOut: s.played.reduce((a, p) => a + p[c.index]!, 0),
    };
  });
  const homeOf = new Map(board.companies.map((c) => [c.home, c.code]));
  const cities = board.cities.map((c, i) => ({
    code: c.code,
    name: c.name,
    x: c.x,
    y: c.y,
    label: c.label,
    home: homeOf.get(i) ?? null,
  }));
  const routes = board.routes.map((r) => {
    const a = board.cities[r.from]!,
      b = board.cities[r.to]!;
    return {
      id: r.id,
      name: r.name,
      pattern: r.pattern,
      x1: a.x,
      y1: a.y,
      x2: b.x,
      y2: b.y,
      circles: r.circles.map((ci) => {
        const c = board.circles[ci]!;
        const m = s.circles[ci];
        return {
          label: c.label,
          n: c.n,
          value: c.value,
          x: c.x,
          y: c.y,
          company: m ? code(m.c) : null,
          colour: m ? board.companies[m.c]!.colour : null,
          sabotage: !!m?.sab,
        };
      }),
    };
  });
  const players = s.points.map((points, i) => ({
    seat: i,
    points,
    bonus: s.bonus[i]!,
    stockInHand: s.stock[i]!.reduce((a, b) => a + b, 0),
    routeCardsInHand: s.routes[i]!.length,
    played: board.companies.flatMap((c) =>
      s.played[i]![c.index]! > 0 ? [{ code: c.code, colour: c.colour, count: s.played[i]![c.index]! }] : [],
    ),
    toAct: toAct.includes(i),
  }));
  const scorings = s.scorings.map((r) => ({
    n: r.n,
    final: r.final,
    totals: r.totals,
    awards: r.awards.map((a) => ({
      code: code(a.company),
      colour: board.companies[a.company]!.colour,
      value: a.value,
      points: a.points,
    })),
  }));
  let hand = null;
  let options = null;
  if (seat !== null && Number.isInteger(seat) && seat >= 0 && seat < seats) {
    hand = {
      stock: board.companies.flatMap((c) =>
        s.stock[seat]![c.index]! > 0
          ? [{ code: c.code, name: c.name, colour: c.colour, count: s.stock[seat]![c.index]! }]
          : [],
      ),
      routes: [...s.routes[seat]!]
        .sort((x, y) => x - y)
        .map((id) => {
          const c = board.cardById.get(id)!;
          return { id, pattern: c.pattern, value: c.value, text: `${c.pattern} ${c.value}`, drawn: id === s.drawn };
        }),
    };
    if (!s.over && s.turn === seat) {
      const draws = drawOptions(s);
      if (s.step === 'place') {
        // keepCards: when none fits the turn just ends (rules version 2); version 1 games discard one.
        options = {
          step: 'place',
          draws,
          extensions: extensions(s, seat).map(placementView),
          keepCards: s.version >= 2,
        };
      } else {
        const marker = board.companies.filter((c) => left[c.index]! > 0).map((c) => c.code);
        options = {
          step: 'action',
          draws,
          canExtend: routeCardsLeft(s) > 0,
          foundings: foundings(s, seat).map((p) => ({ ...placementView(p), held: s.stock[seat]![p.company]! })),
          stock: board.companies.flatMap((c) =>
            s.founded[c.index] && s.stock[seat]![c.index]! > 0
              ? [{ code: c.code, held: s.stock[seat]![c.index]! }]
              : [],
          ),
          sabotageCircles: sabotageCircles(s).map((ci) => ({
            circle: board.circles[ci]!.label,
            x: board.circles[ci]!.x,
            y: board.circles[ci]!.y,
            text: circleText(ci),
          })),
          sabotageMarkers: marker,
        };
      }
    }
  }
  return {
    seat,
    toAct,
    status: statusLine(s),
    turn: s.turn,
    step: s.step,
    over: s.over,
    seats,
    mapWidth: board.width,
    mapHeight: board.mapHeight,
    patterns: board.patterns,
    companies,
    cities,
    routes,
    open: s.open.map(code),
    openRow: s.open.map((c) => ({ code: code(c), colour: board.companies[c]!.colour })),
    pileSize: s.pile.length,
    scoringCardsLeft: board.scoringCards - s.scorings.filter((r) => !r.final).length,
    routePileSize: s.routePile.length,
    routeDiscardSize: s.routeDiscard.length,
    players,
    scorings,
    lastScoring: scorings[scorings.length - 1] ?? null,
    hand,
    options,
  };
}
