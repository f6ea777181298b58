// Operating rounds: privates bought by corporations (phases 3 and 4, half to twice face value), closing, the M&H exchange.
import { RuleError } from '../../types.ts';
import { DATA, PRIVATES } from '../data.ts';
import { buyShare, gainProblem, SHARE_PERCENT } from '../shares.ts';
import type { CorpState, Game1830State } from '../state.ts';

import { orRound, privateMax, privateMin, stepActive } from './common.ts';
import { advance, passStep } from './flow.ts';
import { closePrivate } from './trains.ts';

export function buyCompany(state: Game1830State, corp: CorpState, sym: string, price: number, accepted = false): void {
  const r = orRound(state);
  if (r.step === 'home') throw new RuleError(`${corp.sym} must place its home station first`);
  const p = state.privates[sym];
  if (!p || p.closed) throw new RuleError(`There is no open private ${sym}`);
  if (!DATA.phases[state.phase]!.corporationsBuyPrivates)
    throw new RuleError(
      'Corporations may buy privates only in phases 3 and 4 (from the first 3-train to the first 5-train)',
    );
  if (typeof p.owner !== 'number') throw new RuleError(`${sym} is not owned by a player`);
  if (PRIVATES[sym]!.noSaleToCorporation) throw new RuleError(`${sym} may not be sold to a corporation`);
  const min = privateMin(sym),
    max = privateMax(sym);
  if (price < min || price > max)
    throw new RuleError(`${sym} may be bought for $${min} to $${max} (half to twice its face value)`);
  if (price > corp.cash) throw new RuleError(`${corp.sym} has $${corp.cash} and cannot pay $${price}`);
  if (!accepted && p.owner !== corp.president) {
    // another player's private: its owner accepts or declines the price first
    state.offer = { company: sym, price, seller: p.owner, by: corp.president!, buyer: corp.sym };
    return;
  }
  corp.cash -= price;
  state.cash[p.owner]! += price;
  p.owner = corp.sym;
  corp.companies.push(sym);
  if (r.step === 'company' && !stepActive(state, corp, 'company')) passStep(state);
  else advance(state);
}

/** The owner accepted the corporation's offer: the purchase goes through (checked again first). */
export function acceptCompanySale(state: Game1830State, corpSym: string, sym: string, price: number): void {
  const corp = state.corps[corpSym];
  if (!corp || currentCorpSym(state) !== corpSym) throw new RuleError(`${corpSym} is not operating now`);
  buyCompany(state, corp, sym, price, true);
}

function currentCorpSym(state: Game1830State): string | null {
  return state.round.kind === 'operating' ? state.round.current : null;
}

export function exchangeProblem(state: Game1830State, seat: number, from: 'ipo' | 'pool'): string | null {
  const p = state.privates.MH!;
  if (p.closed || p.owner !== seat) return 'you do not own the Mohawk & Hudson';
  if (state.round.kind === 'auction') return 'the M&H cannot be exchanged during the private auction';
  const nyc = state.corps.NYC!;
  if (from === 'ipo' ? nyc.ipo <= 0 : nyc.pool <= 0)
    return `there is no NYC share in the ${from === 'ipo' ? 'IPO' : 'pool'}`;
  return gainProblem(state, seat, nyc, SHARE_PERCENT, true);
}

export function applyExchange(state: Game1830State, seat: number, from: 'ipo' | 'pool'): void {
  const nyc = state.corps.NYC!;
  closePrivate(state, 'MH');
  buyShare(state, seat, nyc, from, SHARE_PERCENT, true);
}
