// Invariants the random playouts check after every move: stock, scoring and
// route cards conserved, no negative counts, markers within each airline's
// fifteen, one marker per airline per route, one sabotage per route.
import { board } from './board.ts';
import { markersOnBoard, SCORING, type AirlinesState } from './state.ts';

export function checkState(s: AirlinesState): string[] {
  const problems: string[] = [];
  for (const c of board.companies) {
    let total = s.pile.filter((x) => x === c.index).length + s.open.filter((x) => x === c.index).length;
    for (let seat = 0; seat < s.points.length; seat++) {
      const inHand = s.stock[seat]![c.index]!,
        laid = s.played[seat]![c.index]!;
      if (inHand < 0 || laid < 0) problems.push(`seat ${seat} has a negative count of ${c.code}`);
      total += inHand + laid;
    }
    if (total !== c.stock) problems.push(`${c.code}: ${total} stock cards instead of ${c.stock}`);
    const m = markersOnBoard(s, c.index);
    if (m.scoring + m.sabotage > board.markersPerCompany)
      problems.push(`${c.code}: more than ${board.markersPerCompany} markers on the board`);
    if (!s.founded[c.index] && m.scoring > 0) problems.push(`${c.code}: markers of an airline never founded`);
  }
  const scoringLeft = s.pile.filter((x) => x === SCORING).length;
  const scored = s.scorings.filter((r) => !r.final).length;
  if (scoringLeft + scored !== board.scoringCards)
    problems.push(`scoring cards: ${scoringLeft} left and ${scored} scored`);
  const routeCards = [...s.routePile, ...s.routeDiscard, ...s.routes.flat()].sort((a, b) => a - b);
  const all = board.routeCards.map((c) => c.id).sort((a, b) => a - b);
  if (routeCards.join() !== all.join()) problems.push('route cards are not conserved');
  for (const r of board.routes) {
    const here = r.circles.flatMap((ci) => s.circles[ci] ?? []);
    if (here.filter((m) => m.sab).length > 1) problems.push(`${r.id}: more than one sabotage`);
    const flying = here.filter((m) => !m.sab).map((m) => m.c);
    if (new Set(flying).size !== flying.length) problems.push(`${r.id}: an airline flies it twice`);
  }
  if (!s.over && s.open.length !== board.openStock && s.pile.length > 0)
    problems.push('the open stock row is not full');
  return problems;
}
