// Station effects, implemented generically from the card data:
//   build   points N    the builder scores N more for the link
//           draw N      the builder draws N cards (then keeps to the hand limit)
//           freeClips N N of the link's clips need no card
//   ongoing toll N      when a player links here, every other player with a cube here scores N
//           bridge      links to or from here pay nothing for obstacles and the river
//   end     perCube N   at the end, N per cube you have here
//           majority N  at the end, N to the player(s) with the most cubes here
// Stations on Gigantopolis skip their "when built" effects.
import { BOARD } from './data.ts';
import { drawCards } from './draw.ts';
import { stationInfo, type PCState, type Station } from './state.ts';

export function freeClipsOf(st: Station): number {
  const e = stationInfo(st).effect;
  return e && e.kind === 'freeClips' && !st.noBuildEffect ? e.amount : 0;
}

export function hasBridge(st: Station): boolean {
  return stationInfo(st).effect?.kind === 'bridge';
}

/** Step 8: draws and tolls (build points are already in the link's score). */
export function buildEffects(s: PCState, seat: number, stations: { st: Station; before: number[] }[]): void {
  for (const { st, before } of stations) {
    const e = stationInfo(st).effect;
    if (!e) continue;
    if (e.kind === 'draw' && !st.noBuildEffect) drawCards(s, seat, e.amount);
    if (e.kind === 'toll') {
      before.forEach((n, other) => {
        if (other !== seat && n > 0) s.scores[other]! += e.amount;
      });
    }
  }
}

/** End-of-game bonuses: station end effects and the longest link. Adds them to the scores. */
export function endBonuses(s: PCState): PCState['bonuses'] {
  const out: PCState['bonuses'] = [];
  for (const st of s.stations) {
    const info = stationInfo(st);
    const e = info.effect;
    if (e?.when !== 'end') continue;
    const counts = st.kind === 'metro' ? s.metroCubes.map((b) => (b ? 1 : 0)) : st.cubes;
    if (e.kind === 'perCube') {
      counts.forEach((n, seat) => {
        if (n > 0)
          out.push({ seat, what: `${info.name}: ${n} cube${n > 1 ? 's' : ''} × ${e.amount}`, points: n * e.amount });
      });
    } else if (e.kind === 'majority') {
      const most = Math.max(...counts);
      if (most > 0) {
        counts.forEach((n, seat) => {
          if (n === most) out.push({ seat, what: `${info.name}: most cubes`, points: e.amount });
        });
      }
    }
  }
  const longest = Math.max(0, ...s.links.map((l) => l.clips));
  if (longest > 0) {
    const seats = [...new Set(s.links.filter((l) => l.clips === longest).map((l) => l.owner))].sort((a, b) => a - b);
    for (const seat of seats)
      out.push({ seat, what: `longest link (${longest} clips)`, points: BOARD.longestLinkBonus });
  }
  for (const b of out) s.scores[b.seat]! += b.points;
  return out;
}
