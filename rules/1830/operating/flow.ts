// Operating rounds, the flow: the order of corporations, the steps of a turn (skipping those a corporation cannot use, as on 18xx.games), who acts, the end of a round and of the game.
import { compareOperatingOrder } from '../market.ts';
import { payPrivates } from '../rounds.ts';
import type { Game1830State, OperatingRound } from '../state.ts';
import { startStockRound } from '../stock-round.ts';
import { hasHomeToken, homeTokenChoices, newBoard, placeHomeToken } from '../track/index.ts';

import { type OrStep, STEPS, board, boardChanged, crowded, currentCorp, orRound, stepActive } from './common.ts';
import { payDividend } from './dividends.ts';

export function newTurn(): OperatingRound['turn'] {
  return {
    laid: false,
    tokened: false,
    revenue: 0,
    ran: false,
    lastSoldPrice: null,
    teleport: false,
    boughtTrain: false,
  };
}

export function startOperatingRound(state: Game1830State, num: number): void {
  if (!state.map) state.map = newBoard();
  payPrivates(state);
  const order = Object.values(state.corps).filter((c) => c.floated && !c.closed);
  order.sort((a, b) => compareOperatingOrder(state, a, b));
  state.round = {
    kind: 'operating',
    num,
    order: order.map((c) => c.sym),
    index: -1,
    current: null,
    step: 'done',
    turn: newTurn(),
  };
  nextCorporation(state);
}

export function nextCorporation(state: Game1830State): void {
  const r = orRound(state);
  for (;;) {
    r.index++;
    if (r.index >= r.order.length) {
      r.current = null;
      finishOperatingRound(state);
      return;
    }
    const corp = state.corps[r.order[r.index]!]!;
    if (corp.closed) continue;
    r.current = corp.sym;
    r.turn = newTurn();
    r.step = 'home';
    const b = board(state);
    if (!hasHomeToken(b, corp.sym)) {
      const choices = homeTokenChoices(b, corp.sym);
      if (choices.length === 1) {
        placeHomeToken(b, corp.sym, choices[0]);
        boardChanged(state);
        corp.tokensUsed = Math.max(corp.tokensUsed, 1);
      }
    }
    advance(state);
    return;
  }
}

/** Skips steps the corporation cannot use (an unusable dividend is a withhold of $0). */
export function advance(state: Game1830State): void {
  const r = orRound(state);
  if (state.finished || state.round !== r) return;
  if (crowded(state).length || board(state).pending.length) return;
  const corp = currentCorp(state)!;
  let i = STEPS.indexOf(r.step as OrStep);
  for (; i < STEPS.length; i++) {
    const step = STEPS[i]!;
    if (step === 'done') break;
    if (stepActive(state, corp, step)) {
      r.step = step;
      return;
    }
    if (step === 'dividend') payDividend(state, corp, 'withhold');
  }
  r.step = 'done';
  corp.operated = true;
  nextCorporation(state);
}

export function passStep(state: Game1830State): void {
  const r = orRound(state);
  const i = STEPS.indexOf(r.step as OrStep);
  r.step = STEPS[i + 1]!;
  advance(state);
}

export function finishOperatingRound(state: Game1830State): void {
  const r = orRound(state);
  if (state.bankBroken && r.num >= state.orCount) {
    endGame(state, 'bank');
    return;
  }
  if (r.num < state.orCount) startOperatingRound(state, r.num + 1);
  else {
    state.turn++;
    startStockRound(state);
  }
}

export function endGame(state: Game1830State, code: 'bank' | 'bankrupt'): void {
  state.finished = true;
  state.endCode = code;
  state.endReason = code === 'bank' ? 'the bank broke' : 'a player went bankrupt';
}

export function operatingActors(state: Game1830State): number[] {
  const c = crowded(state);
  if (c.length) return c[0]!.president === null ? [] : [c[0]!.president!];
  // a station lifted by a tile lay is put back by its own corporation's president (as on 18xx.games)
  const pending = board(state).pending[0];
  if (pending) {
    const owner = state.corps[pending.corp];
    if (owner && owner.president !== null) return [owner.president];
  }
  const corp = currentCorp(state);
  if (!corp || corp.president === null) return [];
  return [corp.president];
}
