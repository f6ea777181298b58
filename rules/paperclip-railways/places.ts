// Where a point of the table is, in words a player finds on the picture: next to a station whose
// name is drawn there, or else a part of the table ("the top left of the table"). The millimetres
// follow in brackets, for typed commands.
import { stationInfo, type PCState } from './state.ts';

/** A station this close (mm, from its centre) is what a point is "next to". */
const NEAR = 110;

export function placeWords(s: PCState, x: number, y: number): string {
  let best: { name: string; d: number } | null = null;
  for (const st of s.stations) {
    if (st.faceDown) continue; // its name is not on the picture
    const d = Math.hypot(st.x - x, st.y - y);
    if (d <= NEAR && (!best || d < best.d)) best = { name: stationInfo(st).name, d };
  }
  return `${best ? `next to ${best.name}` : `in ${partOfTable(x, y)}`} (${x},${y})`;
}

/** "the top left of the table", "the middle of the table": y grows downwards, 0,0 is the centre. */
export function partOfTable(x: number, y: number): string {
  const v = y < -120 ? 'top' : y > 120 ? 'bottom' : '';
  const h = x < -120 ? 'left' : x > 120 ? 'right' : '';
  if (!v && !h) return 'the middle of the table';
  return `the ${[v, h].filter(Boolean).join(' ')} of the table`;
}
