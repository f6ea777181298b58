// The stock market: cells, zones, moves, and the stacking order of tokens in a cell.
import { cellAt, DATA, type Zone } from './data.ts';
import type { Cell, CorpState, Game1830State } from './state.ts';

const ROWS = DATA.marketRows.length;

export function key(cell: Cell): string {
  return `${cell[0]},${cell[1]}`;
}

export function priceAt(cell: Cell): number {
  return cellAt(cell[0], cell[1])![0];
}

export function zoneAt(cell: Cell): Zone {
  return cellAt(cell[0], cell[1])![1];
}

export function sharePrice(corp: CorpState): number {
  return corp.cell ? priceAt(corp.cell) : 0;
}

export function parPrice(corp: CorpState): number {
  return corp.par ? priceAt(corp.par) : 0;
}

/** Yellow, orange and brown shares do not count toward the certificate limit. */
export function countsForLimit(corp: CorpState): boolean {
  if (!corp.cell) return true;
  const z = zoneAt(corp.cell);
  return z !== 'yellow' && z !== 'orange' && z !== 'brown';
}

/** Orange and brown: a player may hold more than 60%. */
export function unlimitedHolding(corp: CorpState): boolean {
  if (!corp.cell) return false;
  const z = zoneAt(corp.cell);
  return z === 'orange' || z === 'brown';
}

/** Brown: several shares may be bought in one turn. */
export function buyMultiple(corp: CorpState): boolean {
  return !!corp.cell && zoneAt(corp.cell) === 'brown';
}

function downOf(c: Cell): Cell {
  return c[0] + 1 < ROWS ? [c[0] + 1, c[1]] : c;
}
function upOf(c: Cell): Cell {
  return c[0] - 1 >= 0 ? [c[0] - 1, c[1]] : c;
}
function rightOf(c: Cell): Cell {
  const rowLen = rowLength(c[0]);
  return c[1] + 1 >= rowLen ? upOf(c) : [c[0], c[1] + 1];
}
function leftOf(c: Cell): Cell {
  return c[1] > 0 && cellAt(c[0], c[1] - 1) ? [c[0], c[1] - 1] : downOf(c);
}
function rowLength(r: number): number {
  return DATA.marketRows[r]!.length;
}

/** Moves the token to `to` if that cell exists and differs; keeps the stacking order. */
export function moveTo(state: Game1830State, corp: CorpState, to: Cell): void {
  if (!cellAt(to[0], to[1])) return;
  if (corp.cell && corp.cell[0] === to[0] && corp.cell[1] === to[1]) return;
  if (corp.cell) {
    const stack = state.stacks[key(corp.cell)];
    if (stack) {
      const i = stack.indexOf(corp.sym);
      if (i >= 0) stack.splice(i, 1);
      if (stack.length === 0) delete state.stacks[key(corp.cell)];
    }
  }
  corp.cell = [to[0], to[1]];
  (state.stacks[key(to)] ??= []).push(corp.sym);
}

export function moveDown(state: Game1830State, corp: CorpState): void {
  if (corp.cell) moveTo(state, corp, downOf(corp.cell));
}
export function moveUp(state: Game1830State, corp: CorpState): void {
  if (corp.cell) moveTo(state, corp, upOf(corp.cell));
}
export function moveRight(state: Game1830State, corp: CorpState): void {
  if (corp.cell) moveTo(state, corp, rightOf(corp.cell));
}
export function moveLeft(state: Game1830State, corp: CorpState): void {
  if (corp.cell) moveTo(state, corp, leftOf(corp.cell));
}

/** Operating order key: higher price first, then further right, then higher row, then first arrived. */
export function compareOperatingOrder(state: Game1830State, a: CorpState, b: CorpState): number {
  const ka = a.cell!,
    kb = b.cell!;
  return (
    priceAt(kb) - priceAt(ka) ||
    kb[1] - ka[1] ||
    ka[0] - kb[0] ||
    (state.stacks[key(ka)]?.indexOf(a.sym) ?? 0) - (state.stacks[key(kb)]?.indexOf(b.sym) ?? 0) ||
    (a.sym < b.sym ? -1 : a.sym > b.sym ? 1 : 0)
  );
}
