// Invariants the random playouts check after every move.
import { DATA } from './data.ts';
import type { Game1830State } from './state.ts';

export function checkInvariants(state: Game1830State): string[] {
  const problems: string[] = [];
  let money = state.bank;
  for (const c of state.cash) money += c;
  for (const sym in state.corps) {
    const corp = state.corps[sym]!;
    money += corp.cash;
    if (corp.closed) continue;
    let total = corp.ipo + corp.pool;
    for (const h of corp.held) {
      if (h < 0) problems.push(`${sym}: negative holding`);
      total += h;
    }
    if (total !== 100) problems.push(`${sym}: shares sum to ${total}%`);
    if (corp.ipo < 0 || corp.pool < 0) problems.push(`${sym}: negative IPO or pool`);
    if (corp.pool > DATA.poolLimitPercent) problems.push(`${sym}: pool holds ${corp.pool}%`);
  }
  for (const t of state.trains) {
    if (t.owner === 'depot' || t.owner === 'pool' || t.owner === 'gone') continue;
    if (!state.corps[t.owner]?.trains.includes(t.id))
      problems.push(`train ${t.id} is owned by ${t.owner} but not on its charter`);
  }
  for (const sym in state.corps) {
    for (const id of state.corps[sym]!.trains) {
      if (state.trains.find((t) => t.id === id)?.owner !== sym)
        problems.push(`${sym} lists train ${id} it does not own`);
    }
    const c = state.corps[sym]!;
    if (c.president !== null && c.held[c.president]! < 20) problems.push(`${sym}'s president holds less than 20%`);
  }
  if (money !== DATA.bank) problems.push(`money not conserved: ${money} != ${DATA.bank}`);
  for (let s = 0; s < state.seats; s++) if (state.cash[s]! < 0) problems.push(`seat ${s} has negative cash`);
  return problems;
}
