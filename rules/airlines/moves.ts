// Legal moves for the seat to act, and what a timed-out seat plays. Founding
// offers laying out one card or all held; sabotage offers a handful of the
// circles that matter most (on routes some airline could fly next), each with
// the marker of the airline with most markers left. Every move listed is legal.
import type { AirlinesAction } from './actions.ts';
import { board } from './board.ts';
import { routeCardsLeft } from './draw.ts';
import { extensions, foundings, sabotageCircles, type Placement } from './placement.ts';
import { supplies, type AirlinesState } from './state.ts';

const SABOTAGE_CHOICES = 3;

/** Where a stock card may come from: "pile" (while it has cards), then each airline in the open row once. */
export function drawOptions(s: AirlinesState): string[] {
  const out: string[] = [];
  if (s.pile.length > 0) out.push('pile');
  for (const c of board.companies) if (s.open.includes(c.index)) out.push(c.code);
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
      if (s.version >= 2) return [{ type: 'skip' }];
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
    for (let count = 1; count <= s.stock[seat]![company.index]!; count++)
      out.push({ type: 'stock', company: company.code, count });
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
function withDraws<P>(
  placements: P[],
  draws: string[],
  make: (p: P, draw: string) => AirlinesAction,
): AirlinesAction[] {
  if (placements.length === 0) return [];
  const out: AirlinesAction[] = [];
  const [first, ...others] = draws;
  if (first === 'pile') for (const p of placements) out.push(make(p, first));
  const open = first === 'pile' ? others : draws;
  open.forEach((draw, k) => {
    out.push(make(placements[k % placements.length]!, draw));
  });
  if (first !== 'pile') for (const p of placements.slice(open.length)) out.push(make(p, open[0]!));
  return out;
}

function extendMove(p: Placement, draw: string): AirlinesAction {
  return {
    type: 'extend',
    company: board.companies[p.company]!.code,
    card: p.card,
    circle: circleLabel(p.circle),
    draw,
  };
}

/**
 * A few sabotage options, not all (the form offers all): the most valuable
 * circles on routes some founded airline reaches, where a sabotage blocks
 * a flight that could come next, each with the marker of the airline that
 * has most markers left.
 */
function sabotageChoices(s: AirlinesState): { company: string; circle: string }[] {
  const left = supplies(s);
  let marker = -1;
  for (const c of board.companies)
    if (left[c.index]! > 0 && (marker < 0 || left[c.index]! > left[marker]!)) marker = c.index;
  if (marker < 0) return [];
  const reach = new Uint8Array(board.cities.length);
  for (const c of board.companies) if (s.founded[c.index]) reach[c.home] = 1;
  for (let ci = 0; ci < s.circles.length; ci++) {
    const m = s.circles[ci];
    if (!m || m.sab) continue;
    const r = board.routes[board.circles[ci]!.route]!;
    reach[r.from] = reach[r.to] = 1;
  }
  const out: { company: string; circle: string }[] = [];
  for (const ci of sabotageCircles(s)) {
    const r = board.routes[board.circles[ci]!.route]!;
    if (!reach[r.from] && !reach[r.to]) continue;
    out.push({ company: board.companies[marker]!.code, circle: circleLabel(ci) });
    if (out.length === SABOTAGE_CHOICES) break;
  }
  return out;
}

/**
 * A timed-out seat extends: it draws a route card, then plays the cheapest
 * card for the airline it is most invested in, and takes that airline's card
 * from the open row if there is one (else a blind one from the pile).
 */
export function automaticMove(s: AirlinesState, seat: number): AirlinesAction | null {
  if (s.over || seat !== s.turn) return null;
  if (s.step === 'action') return routeCardsLeft(s) > 0 ? { type: 'drawRoute' } : (legalMoves(s, seat)[0] ?? null);
  const stake = (c: number) => s.played[seat]![c]! * 100 + s.stock[seat]![c]!;
  const favourite = [...s.open].sort((a, b) => stake(b) - stake(a) || a - b)[0];
  const draw = favourite !== undefined && stake(favourite) > 0 ? board.companies[favourite]!.code : drawOptions(s)[0]!;
  const exts = extensions(s, seat);
  if (exts.length === 0) {
    if (s.version >= 2) return { type: 'skip' };
    // Keep the most useful cards: discard the lowest.
    const card = [...s.routes[seat]!].sort(
      (a, b) => board.cardById.get(a)!.value - board.cardById.get(b)!.value || a - b,
    )[0]!;
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
