// Operating rounds: paying out or withholding, and the share price moves.
import { moveLeft, moveRight } from '../market.ts';
import { bankPays, SHARE_PERCENT } from '../shares.ts';
import type { CorpState, Game1830State } from '../state.ts';

import { orRound } from './common.ts';

export function payDividend(state: Game1830State, corp: CorpState, kind: 'payout' | 'withhold'): void {
  const r = orRound(state);
  const revenue = r.turn.revenue;
  if (kind === 'withhold' || revenue === 0) {
    if (revenue > 0) {
      bankPays(state, revenue);
      corp.cash += revenue;
    }
    moveLeft(state, corp);
  } else {
    const perShare = revenue / 10;
    for (let s = 0; s < state.seats; s++) {
      const n = corp.held[s]! / SHARE_PERCENT;
      if (n === 0) continue;
      const amount = Math.ceil(n * perShare);
      bankPays(state, amount);
      state.cash[s]! += amount;
    }
    if (corp.pool > 0) {
      const amount = Math.ceil((corp.pool / SHARE_PERCENT) * perShare);
      bankPays(state, amount);
      corp.cash += amount;
    }
    moveRight(state, corp);
  }
  r.turn.revenue = 0;
}
