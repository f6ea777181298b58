// Invariants the random playouts check after every move.
import { BOARD, CARDS, END_OF_LINE } from './data.ts';
import type { PCState } from './state.ts';

export function checkState(s: PCState): string[] {
  const problems: string[] = [];
  const supply = BOARD.supplies[String(s.seats) as '2']!;
  for (let seat = 0; seat < s.seats; seat++) {
    const laid = s.links.filter((l) => l.owner === seat).reduce((a, l) => a + l.clips, 0);
    if (s.clips[seat]! + laid !== supply.clips)
      problems.push(`seat ${seat}: clips not conserved (${s.clips[seat]} + ${laid})`);
    if (s.clips[seat]! < 0 || s.cubes[seat]! < 0) problems.push(`seat ${seat}: negative supply`);
    const placed =
      s.stations.reduce((a, st) => a + (st.kind === 'metro' ? 0 : st.cubes[seat]!), 0) + (s.metroCubes[seat] ? 1 : 0);
    if (s.cubes[seat]! + placed + 1 !== supply.cubes)
      problems.push(`seat ${seat}: cubes not conserved (${s.cubes[seat]} + ${placed} + the score marker)`);
  }
  for (const st of s.stations) {
    if (st.kind === 'metro') continue;
    if (st.cubes.some((n) => n < 0)) problems.push(`${st.id}: negative cubes`);
  }
  const cards = [
    ...s.deck.filter((c) => c !== END_OF_LINE),
    ...s.discard,
    ...s.box,
    ...s.hands.flat(),
    ...s.stations.filter((st) => st.kind === 'card').map((st) => st.card!),
  ].sort();
  const all = CARDS.map((c) => c.id).sort();
  if (cards.length !== all.length || cards.some((c, i) => c !== all[i]))
    problems.push(`cards not conserved (${cards.length} of ${all.length})`);
  const eol = s.deck.filter((c) => c === END_OF_LINE).length;
  if (eol + (s.endOfLineDrawn ? 1 : 0) !== 1) problems.push('the End of Line card is lost or doubled');
  if (s.phase !== 'discard' && s.hands.some((h) => h.length > BOARD.handLimit))
    problems.push('a hand is over the limit');
  return problems;
}
