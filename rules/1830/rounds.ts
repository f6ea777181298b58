// Round transitions: auction -> stock round -> a set of operating rounds -> stock round ...
import { DATA, PRIVATES } from './data.ts';
import { bankPays } from './shares.ts';
import type { Game1830State } from './state.ts';
import { startOperatingRound } from './operating/index.ts';

/** Every owned private pays its revenue from the bank (players first in seat order, then corporations). */
export function payPrivates(state: Game1830State): void {
  const owned = Object.values(state.privates).filter((p) => !p.closed && p.owner !== null);
  owned.sort((a, b) => {
    const ka = typeof a.owner === 'number' ? 0 : 1,
      kb = typeof b.owner === 'number' ? 0 : 1;
    if (ka !== kb) return ka - kb;
    if (ka === 0) {
      const ia = state.order.indexOf(a.owner as number),
        ib = state.order.indexOf(b.owner as number);
      if (ia !== ib) return ia - ib;
    }
    return PRIVATES[a.sym]!.revenue - PRIVATES[b.sym]!.revenue;
  });
  for (const p of owned) {
    const revenue = PRIVATES[p.sym]!.revenue;
    bankPays(state, revenue);
    if (typeof p.owner === 'number') state.cash[p.owner]! += revenue;
    else state.corps[p.owner!]!.cash += revenue;
  }
}

/** A set of operating rounds: as many as the phase gives, fixed when the set begins. */
export function startOperatingSet(state: Game1830State): void {
  state.orCount = DATA.phases[state.phase]!.operatingRounds;
  startOperatingRound(state, 1);
}
