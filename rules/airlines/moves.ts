// Legal moves for the seat to act, and what a timed-out seat plays. Founding
// offers laying out one card or all held; sabotage offers a handful of the
// circles that matter most (on routes some airline could fly next), each with
// the marker of the airline with most markers left. Every move listed is legal.
import type { AirlinesAction } from './actions';
import { board as sharedBoard } from './board';
import { routeCardsLeft } from './draw';
import { extensions, foundings, type Placement } from './placement';
import { supplies, type AirlinesState } from './state';

const board = sharedBoard;

const SABOTAGE_CHOICES = 3;
/** Circles, most valuable first. */
const circlesByValue = board.circles.map((c) => c.index).sort((a, b) => board.circles[b]!.value - board.circles[a]!.value || a - b);

export function drawOptions(s: AirlinesState): string[] {
  const out: string[] = [];
  if (s.pile.length > 0) out.push('pile');
  for (const c of [...new Set(s.open)].sort((a, b) => a - b)) out.push(board.companies[c]!.code);
  return out;
}

function circleLabel(ci: number): string {
  return board.circles[ci]!.label;
}

export function legalMoves(s: AirlinesState, seat: number): AirlinesAction[] {
  if (s.over || seat !== s.turn) return [];
  const draws = drawOptions(s);
  if (s.step === 'place') {
    const exts = extensions(s, seat);
    if (exts.length === 0) {
      const hand = [...s.routes[seat]!].sort((a, b) => a - b);
      return withDraws(hand, draws, (card, draw) => ({ type: 'skip', card, draw }));
    }
    return withDraws(exts, draws, extendMove);
  }
  // Order for the quick links of the turn mail: draw a route card, lay out stock,
  // found an airline, then the sabotages.
  const out: AirlinesAction[] = [];
  if (routeCardsLeft(s) > 0) out.push({ type: 'drawRoute' });
  const stockable = board.companies.filter((c) => s.founded[c.index] && s.stock[seat]![c.index]! > 0);
  for (const company of stockable) {
    for (let count = 1; count <= s.stock[seat]![company.index]!; count++) out.push({ type: 'stock', company: company.code, count });
  }
  const founding = foundings(s, seat).flatMap((p) => {
    const held = s.stock[seat]![p.company]!;
    return (held > 1 ? [1, held] : [1]).map((count) => ({ ...p, count }));
  });
  out.push(
    ...withDraws(founding, draws, (p, draw) => ({
      type: 'found',
      company: board.companies[p.company]!.code,
      count: p.count,
      card: p.card,
      circle: circleLabel(p.circle),
      draw,
    })),
  );
  if (stockable.length > 0) {
    const sabotage = sabotageChoices(s);
    for (const company of stockable) {
      for (const sab of sabotage) out.push({ type: 'stock', company: company.code, count: 1, sabotage: sab });
    }
  }
  return out;
}

/**
 * Each placement once with a stock card from the pile, and each card of the
 * open row once, paired with the placements in turn: every placement and every
 * draw is offered without listing their whole product (the form offers that).
 */
function withDraws<P>(placements: P[], draws: string[], make: (p: P, draw: string) => AirlinesAction): AirlinesAction[] {
  if (placements.length === 0) return [];
  const out: AirlinesAction[] = [];
  const [first, ...others] = draws;
  if (first === 'pile') for (const p of placements) out.push(make(p, first));
  const open = first === 'pile' ? others : draws;
  open.forEach((draw, k) => out.push(make(placements[k % placements.length]!, draw)));
  if (first !== 'pile') for (const p of placements.slice(open.length)) out.push(make(p, open[0]!));
  return out;
}

function extendMove(p: Placement, draw: string): AirlinesAction {
  return { type: 'extend', company: board.companies[p.company]!.code, card: p.card, circle: circleLabel(p.circle), draw };
}

/** A few sabotage options: the most valuable circles on routes a founded airline reaches. */
function sabotageChoices(s: AirlinesState): { company: string; circle: string }[] {
  let marker = -1;
  let best = 0;
  const supply = supplies(s);
  for (const c of board.companies) {
    const left = supply[c.index]!;
    if (left > best) {
      best = left;
      marker = c.index;
    }
  }
  if (marker < 0) return [];
  // Cities some founded airline reaches, and routes already sabotaged.
  const reach = new Uint8Array(board.cities.length);
  for (const c of board.companies) if (s.founded[c.index]) reach[c.home] = 1;
  const sabotaged = new Uint8Array(board.routes.length);
  for (let ci = 0; ci < s.circles.length; ci++) {
    const m = s.circles[ci];
    if (!m) continue;
    const r = board.routes[board.circles[ci]!.route]!;
    if (m.sab) sabotaged[r.index] = 1;
    else reach[r.from] = reach[r.to] = 1;
  }
  const out: { company: string; circle: string }[] = [];
  const code = board.companies[marker]!.code;
  for (const ci of circlesByValue) {
    const c = board.circles[ci]!;
    if (c.value < 5) break;
    const r = board.routes[c.route]!;
    if (s.circles[ci] || sabotaged[r.index] || !(reach[r.from] || reach[r.to])) continue;
    out.push({ company: code, circle: c.label });
    if (out.length === SABOTAGE_CHOICES) break;
  }
  return out;
}

/** A timed-out seat extends: it draws a route card, then plays the cheapest card for the airline it holds most of. */
export function automaticMove(s: AirlinesState, seat: number): AirlinesAction | null {
  if (s.over || seat !== s.turn) return null;
  const stake = (c: number) => s.played[seat]![c]! * 100 + s.stock[seat]![c]!;
  const draws = drawOptions(s);
  const favourite = draws
    .filter((d) => d !== 'pile')
    .sort((a, b) => stake(board.companies.findIndex((c) => c.code === b)) - stake(board.companies.findIndex((c) => c.code === a)))[0];
  const draw = favourite && stake(board.companies.findIndex((c) => c.code === favourite)) > 0 ? favourite : draws[0]!;
  if (s.step === 'action') return routeCardsLeft(s) > 0 ? { type: 'drawRoute' } : (legalMoves(s, seat)[0] ?? null);
  const exts = extensions(s, seat);
  if (exts.length === 0) {
    // Keep the most useful cards: discard the lowest.
    const card = [...s.routes[seat]!].sort((a, b) => board.cardById.get(a)!.value - board.cardById.get(b)!.value || a - b)[0]!;
    return { type: 'skip', card, draw };
  }
  exts.sort(
    (a, b) =>
      stake(b.company) - stake(a.company) ||
      board.cardById.get(a.card)!.value - board.cardById.get(b.card)!.value ||
      a.circle - b.circle,
  );
  return extendMove(exts[0]!, draw);
}
