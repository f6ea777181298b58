// Operating rounds (filled in by the operating-round module).
import { RuleError } from '../types';
import type { Action1830 } from './actions';
import { payPrivates } from './rounds';
import type { Game1830State } from './state';

export function startOperatingRound(state: Game1830State, num: number): void {
  payPrivates(state);
  state.round = {
    kind: 'operating', num, done: [], current: null, step: 'start',
    turn: { tileLaid: false, upgraded: false, tokenPlaced: false, revenue: null, routes: [], boughtTrain: false, emergency: false, soldShares: [], csUsed: false, dhUsed: false },
  };
}
export function operatingActors(_state: Game1830State): number[] { return []; }
export function operatingMoves(_state: Game1830State, _seat: number): Action1830[] { return []; }
export function applyOperating(_state: Game1830State, _seat: number, _a: Action1830): void { throw new RuleError('operating rounds are not built yet'); }
export function exchangeProblem(_state: Game1830State, _seat: number, _from: string): string | null { return 'not yet'; }
export function applyExchange(_state: Game1830State, _seat: number, _from: string): void {}
