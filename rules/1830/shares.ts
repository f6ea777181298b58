// Share ownership: certificates, limits, buying and selling, presidency changes and floating.
import { DATA, PRIVATES } from './data.ts';
import { countsForLimit, moveDown, parPrice, sharePrice, unlimitedHolding } from './market.ts';
import type { CorpState, Game1830State } from './state.ts';

export const PRESIDENT_PERCENT = 20;
export const SHARE_PERCENT = 10;

export function certLimit(state: Game1830State): number {
  return DATA.certLimit[String(state.seats)]!;
}

/** Certificates a seat holds that count toward the limit (privates count too). */
export function certCount(state: Game1830State, seat: number): number {
  let n = 0;
  for (const sym in state.privates) if (state.privates[sym]!.owner === seat) n++;
  for (const sym in state.corps) {
    const corp = state.corps[sym]!;
    const pct = corp.held[seat]!;
    if (pct === 0 || !countsForLimit(corp)) continue;
    n += corp.president === seat ? 1 + (pct - PRESIDENT_PERCENT) / SHARE_PERCENT : pct / SHARE_PERCENT;
  }
  return n;
}

/** Why the seat may not take `percent` more of the corporation, or null. */
export function gainProblem(
  state: Game1830State,
  seat: number,
  corp: CorpState,
  percent: number,
  exchange = false,
): string | null {
  if (!unlimitedHolding(corp) && corp.held[seat]! + percent > DATA.shareLimitPercent) {
    return `You already hold ${corp.held[seat]}% of ${corp.sym}; no player may hold more than ${DATA.shareLimitPercent}% outside the orange and brown zones`;
  }
  if (countsForLimit(corp) && !exchange && certCount(state, seat) >= certLimit(state)) {
    return `You are at the certificate limit of ${certLimit(state)}`;
  }
  return null;
}

/** Cyclic distance from seat a to seat b in seat order, skipping bankrupt seats. */
function distance(state: Game1830State, a: number, b: number): number {
  const live = state.order.filter((s) => !state.bankrupt[s]);
  const ia = live.indexOf(a),
    ib = live.indexOf(b);
  if (ia < 0 || ib < 0) return 0;
  return ia <= ib ? ib - ia : ib - (ia - live.length);
}

/** After any transfer: the largest holder with at least 20% takes the presidency; ties keep the old one. */
export function checkPresidency(state: Game1830State, corp: CorpState): void {
  let max = 0;
  for (let s = 0; s < state.seats; s++) if (corp.held[s]! > max) max = corp.held[s]!;
  const prev = corp.president;
  if (prev !== null && corp.held[prev] === max) return;
  let best: number | null = null;
  let bestDist = Infinity;
  for (let s = 0; s < state.seats; s++) {
    if (corp.held[s] !== max || max < PRESIDENT_PERCENT) continue;
    const d = prev === null ? 0 : distance(state, prev, s);
    if (d < bestDist) {
      best = s;
      bestDist = d;
    }
  }
  if (best === null) return;
  corp.president = best;
}

/** Moves money from the bank; the bank may go below zero only to mark it broken. */
export function bankPays(state: Game1830State, amount: number): void {
  state.bank -= amount;
  if (state.bank < 0) state.bankBroken = true;
}

export function floatIfReady(state: Game1830State, corp: CorpState): void {
  if (corp.floated || !corp.ipoed) return;
  if (corp.ipo <= 100 - DATA.floatPercent) {
    corp.floated = true;
    const capital = parPrice(corp) * 10;
    bankPays(state, capital);
    corp.cash += capital;
  }
}

/** A seat buys `percent` from the IPO (at par) or the pool (at market); money to the bank. */
export function buyShare(
  state: Game1830State,
  seat: number,
  corp: CorpState,
  from: 'ipo' | 'pool',
  percent = SHARE_PERCENT,
  free = false,
): void {
  const price = free ? 0 : (from === 'ipo' ? parPrice(corp) : sharePrice(corp)) * (percent / SHARE_PERCENT);
  if (from === 'ipo') corp.ipo -= percent;
  else corp.pool -= percent;
  corp.held[seat]! += percent;
  state.cash[seat]! -= price;
  state.bank += price;
  if (corp.ipoed) checkPresidency(state, corp);
  floatIfReady(state, corp);
}

export function shareCost(corp: CorpState, from: 'ipo' | 'pool'): number {
  return from === 'ipo' ? parPrice(corp) : sharePrice(corp);
}

/** Why the seat may not sell `percent` of the corporation to the pool (ignoring timing), or null. */
export function sellProblem(state: Game1830State, seat: number, corp: CorpState, percent: number): string | null {
  if (!corp.ipoed) return `${corp.sym} has no par value yet; its shares cannot be sold`;
  const held = corp.held[seat]!;
  if (percent <= 0 || percent % SHARE_PERCENT !== 0) return 'shares are sold in 10% steps';
  if (percent > held) return `You hold only ${held}% of ${corp.sym}`;
  if (corp.pool + percent > DATA.poolLimitPercent)
    return `the bank pool may not hold more than ${DATA.poolLimitPercent}% of ${corp.sym} (it holds ${corp.pool}%)`;
  if (corp.president === seat && held - percent < PRESIDENT_PERCENT) {
    let other = 0;
    for (let s = 0; s < state.seats; s++) if (s !== seat && corp.held[s]! > other) other = corp.held[s]!;
    if (other < PRESIDENT_PERCENT)
      return `the president's certificate of ${corp.sym} cannot go to the pool: no other player holds 20% to take the presidency`;
  }
  return null;
}

/** Sells to the pool at the current price; the price drops a row per share. */
export function sellShares(state: Game1830State, seat: number, corp: CorpState, percent: number): number {
  const n = percent / SHARE_PERCENT;
  const amount = sharePrice(corp) * n;
  corp.held[seat]! -= percent;
  corp.pool += percent;
  state.cash[seat]! += amount;
  bankPays(state, amount);
  checkPresidency(state, corp);
  for (let i = 0; i < n; i++) moveDown(state, corp);
  return amount;
}

export function privateValue(sym: string): number {
  return PRIVATES[sym]!.value;
}

/** Cash plus shares at market value plus privates at face value. */
export function playerValue(state: Game1830State, seat: number): number {
  let v = state.cash[seat]!;
  for (const sym in state.corps) {
    const corp = state.corps[sym]!;
    if (corp.ipoed && corp.held[seat]) v += (sharePrice(corp) * corp.held[seat]!) / SHARE_PERCENT;
  }
  for (const sym in state.privates) if (state.privates[sym]!.owner === seat) v += privateValue(sym);
  return v;
}
