// Invariants the random playouts check after every move: stock, scoring and
// route cards conserved, no negative counts, markers within each airline's
// fifteen, one marker per airline per route, one sabotage per route.
import { board } from './board.ts';
import { SCORING, type AirlinesState } from './state.ts';

export function checkState(s: AirlinesState): string[] {
  const problems: string[] = [];
  // One pass over each pile and over the circles (this runs after every move of the playouts).
  const n = board.companies.length;
  const stock = new Array<number>(n).fill(0);
  let scoringLeft = 0;
  for (const x of s.pile) {
    if (x === SCORING) scoringLeft++;
    else if (x >= 0 && x < n) stock[x]!++;
  }
  for (const x of s.open) if (x >= 0 && x < n) stock[x]!++;
  const scoring = s.founded.map((f) => (f ? 1 : 0));
  const sabotage = new Array<number>(n).fill(0);
  for (const m of s.circles) if (m) (m.sab ? sabotage : scoring)[m.c]!++;
  for (const c of board.companies) {
    let total = stock[c.index]!;
    for (let seat = 0; seat < s.points.length; seat++) {
      const inHand = s.stock[seat]![c.index]!,
        laid = s.played[seat]![c.index]!;
      if (inHand < 0 || laid < 0) problems.push(`seat ${seat} has a negative count of ${c.code}`);
      total += inHand + laid;
    }
    if (total !== c.stock) problems.push(`${c.code}: ${total} stock cards instead of ${c.stock}`);
    if (scoring[c.index]! + sabotage[c.index]! > board.markersPerCompany)
      problems.push(`${c.code}: more than ${board.markersPerCompany} markers on the board`);
    if (!s.founded[c.index] && scoring[c.index]! > 0) problems.push(`${c.code}: markers of an airline never founded`);
  }
  const scored = s.scorings.filter((r) => !r.final).length;
  if (scoringLeft + scored !== board.scoringCards)
    problems.push(`scoring cards: ${scoringLeft} left and ${scored} scored`);
  // Every route card once: as many cards as there are, each id seen once.
  const seen = new Set<number>();
  let cards = 0;
  for (const pile of [s.routePile, s.routeDiscard, ...s.routes])
    for (const id of pile) {
      cards++;
      seen.add(id);
    }
  if (cards !== board.routeCards.length || seen.size !== cards || board.routeCards.some((c) => !seen.has(c.id)))
    problems.push('route cards are not conserved');
  for (const r of board.routes) {
    let sabotaged = 0;
    const flying = new Set<number>();
    let flights = 0;
    for (const ci of r.circles) {
      const m = s.circles[ci];
      if (!m) continue;
      if (m.sab) sabotaged++;
      else {
        flights++;
        flying.add(m.c);
      }
    }
    if (sabotaged > 1) problems.push(`${r.id}: more than one sabotage`);
    if (flying.size !== flights) problems.push(`${r.id}: an airline flies it twice`);
  }
  if (!s.over && s.open.length !== board.openStock && s.pile.length > 0)
    problems.push('the open stock row is not full');
  return problems;
}
