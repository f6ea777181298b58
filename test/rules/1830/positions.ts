// 1830 positions shared by the rule suites: hand-set ones, real games up to an action, and the refusal check.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import { startStockRound } from '../../../rules/1830/stock-round.ts';
import { RuleError } from '../../../rules/types.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import type { RuleSetName } from '../../../rules/1830/rule-set.ts';

/** A rule set of the game, or none: a game recorded before rule sets (rules/1830/rule-set.ts). */
export type RuleSetChoice = RuleSetName | undefined;

/** Four players; every private bought at face in seat order; B&O parred at 100 by seat 1; SR 1 begins. */
export function afterAuction(seed = 'stock', ruleSet?: RuleSetChoice): Game1830State {
  const s = g.setup(4, seed, ruleSet && ruleSet !== 'recorded' ? { rule_set: ruleSet } : {});
  for (const [seat, sym, price] of [
    [0, 'SV', 20],
    [1, 'CS', 40],
    [2, 'DH', 70],
    [3, 'MH', 110],
    [0, 'CA', 160],
    [1, 'BO', 220],
  ] as const) {
    g.apply(s, seat, { type: 'bid', company: sym, price });
  }
  g.apply(s, 1, { type: 'par', corp: 'B&O', price: 100 });
  return s;
}

/** A later stock round (selling allowed), seat 0 first, the seats' cash set as given (the bank makes up the difference). */
export function laterRound(cash = [1000, 1000, 1000, 1000], ruleSet?: RuleSetChoice): Game1830State {
  const s = afterAuction('stock', ruleSet);
  const before = s.cash.reduce((a, b) => a + b, 0);
  s.cash = [...cash];
  s.bank += before - cash.reduce((a, b) => a + b, 0);
  s.turn = 2;
  s.order = [0, 1, 2, 3];
  startStockRound(s);
  return s;
}

/** Gives a corporation a par value and market cell and hands out its shares (the first seat listed is president). */
export function parred(s: Game1830State, sym: string, cell: [number, number], holdings: Record<number, number>): void {
  const c = s.corps[sym]!;
  c.ipoed = true;
  c.par = [cell[0], cell[1]];
  c.cell = [cell[0], cell[1]];
  (s.stacks[`${cell[0]},${cell[1]}`] ??= []).push(sym);
  let first = true;
  for (const [seat, pct] of Object.entries(holdings)) {
    c.held[Number(seat)] = pct;
    c.ipo -= pct;
    const price = (100 * pct) / 10;
    s.cash[Number(seat)]! -= price;
    s.bank += price;
    if (first) {
      c.president = Number(seat);
      first = false;
    }
  }
}

/** Expects `apply` to throw a RuleError whose message matches, and the state unchanged. */
export function refuses(state: Game1830State, seat: number, action: unknown, words: RegExp): void {
  const before = JSON.stringify(state);
  let error: unknown = null;
  try {
    g.apply(state, seat, action);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(RuleError);
  expect((error as Error).message).toMatch(words);
  expect(JSON.stringify(state)).toBe(before);
}

/** A real game from test/fixtures/18xx.games/1830/ (an 18xx.games export). */
export function realGame(name: string): Export18xx {
  return JSON.parse(
    readFileSync(new URL(`../../fixtures/18xx.games/1830/${name}.json`, import.meta.url), 'utf8'),
  ) as Export18xx;
}

/** That real game's state right after its action with this 18xx.games id. */
export function through(name: string, id: number): Game1830State {
  const exp = realGame(name);
  const i = exp.actions.findIndex((a) => a.id === id);
  return importExport({ ...exp, actions: exp.actions.slice(0, i + 1) }).state;
}
