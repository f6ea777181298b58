// Scorings: each airline is worth as many points as it has markers on the
// board (sabotage markers do not count). The majority holder of laid-out stock
// gets that value, the next holder half; a sole holder gets both; tied leaders
// share the total (value plus half); tied seconds share the half. Halves and
// shares are rounded down.
import { board } from './board.ts';
import { markersOnBoard, type AirlinesState, type Award } from './state.ts';

/** Points per seat for one airline of the given value and laid-out holdings. */
export function shareOut(value: number, holdings: number[]): number[] {
  const points = holdings.map(() => 0);
  if (value <= 0) return points;
  const half = Math.floor(value / 2);
  const holders = holdings.flatMap((h, seat) => (h > 0 ? [seat] : []));
  if (holders.length === 0) return points;
  const top = Math.max(...holders.map((s) => holdings[s]!));
  const leaders = holders.filter((s) => holdings[s] === top);
  if (holders.length === 1) {
    points[leaders[0]!] = value + half;
    return points;
  }
  if (leaders.length > 1) {
    const each = Math.floor((value + half) / leaders.length);
    for (const s of leaders) points[s] = each;
    return points;
  }
  points[leaders[0]!] = value;
  const rest = holders.filter((s) => holdings[s]! < top);
  const next = Math.max(...rest.map((s) => holdings[s]!));
  const seconds = rest.filter((s) => holdings[s] === next);
  const each = Math.floor(half / seconds.length);
  for (const s of seconds) points[s] = each;
  return points;
}

/** Scores every airline once and adds the points; records what each seat got. */
export function runScoring(s: AirlinesState, final: boolean): void {
  const awards: Award[] = [];
  const totals = s.points.map(() => 0);
  for (const c of board.companies) {
    const value = markersOnBoard(s, c.index).scoring;
    const points = shareOut(
      value,
      s.played.map((p) => p[c.index]!),
    );
    if (points.every((p) => p === 0)) continue;
    awards.push({ company: c.index, value, points });
    points.forEach((p, seat) => {
      totals[seat]! += p;
      s.points[seat]! += p;
    });
  }
  s.scorings.push({ n: s.scorings.length + 1, final, awards, totals });
}
