// Legal moves for a seat that must act. Licence buying is a sensible subset
// (every single licence with every way to take a share, and some pairs);
// everything returned is legal.
import type { Seat } from '../types';
import { board } from './board';
import type { AEAction, Take } from './actions';
import { toAct } from './apply';
import { buyableRoutes, nextLicenceCost, type Licence } from './licences';
import type { AEState } from './state';

function distinct(items: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of items) if (!out.includes(x)) out.push(x);
  return out;
}

function count(items: readonly string[], x: string): number {
  let n = 0;
  for (const y of items) if (y === x) n++;
  return n;
}

export function takeOptions(s: AEState): Take[] {
  const out: Take[] = distinct(s.market).map((airline) => ({ from: 'market', airline }));
  if (s.deck.length > 0) out.push({ from: 'deck' });
  return out;
}

const MAX_PAIRS = 8;

const ROUTES = board.routes;

function id(l: Licence): { airline: string; route: string } {
  return { airline: l.airline, route: ROUTES[l.route]!.id };
}

function buyMoves(s: AEState, seat: Seat): AEAction[] {
  const takes = takeOptions(s);
  if (takes.length === 0) return [];
  const money = s.money[seat]!;
  const singles: Licence[] = [];
  for (const airline of s.airlines) {
    for (const route of buyableRoutes(s, airline)) {
      if (nextLicenceCost(s, route)! <= money) singles.push({ airline, route });
    }
  }
  const out: AEAction[] = [];
  // Each single licence once, the ways to take a share in turn (market airlines and the pile),
  // so every licence and every share on offer appears without listing every combination.
  for (let i = 0; i < singles.length; i++) {
    out.push({ type: 'buy', licences: [id(singles[i]!)], take: takes[i % takes.length]! });
  }
  // Pairs: for some first licences, a second one the money still allows, taking from the pile.
  let pairs = 0;
  const step = Math.max(1, Math.floor(singles.length / MAX_PAIRS));
  for (let i = 0; i < singles.length && pairs < MAX_PAIRS; i += step) {
    const first = singles[i]!;
    const left = money - nextLicenceCost(s, first.route)!;
    // The second licence: the same airline onward, else another airline's licence from the singles.
    let second: Licence | undefined;
    const onward = buyableRoutes(s, first.airline, [first]).find((r) => nextLicenceCost(s, r, [first])! <= left);
    if (onward !== undefined) second = { airline: first.airline, route: onward };
    else {
      second = singles.find((l) => l.airline !== first.airline && l.route !== first.route && nextLicenceCost(s, l.route)! <= left);
    }
    if (second) {
      out.push({ type: 'buy', licences: [id(first), id(second)], take: takes[takes.length - 1]! });
      pairs++;
    }
  }
  return out;
}

function playMoves(s: AEState, seat: Seat): AEAction[] {
  const hand = s.hands[seat]!;
  const kinds = distinct(hand);
  const out: AEAction[] = [];
  for (const airline of kinds) {
    const n = count(hand, airline);
    for (let c = 1; c <= n; c++) out.push({ type: 'play', shares: [{ airline, count: c }] });
  }
  for (let i = 0; i < kinds.length; i++) {
    for (let j = i + 1; j < kinds.length; j++) {
      out.push({ type: 'play', shares: [{ airline: kinds[i]!, count: 1 }, { airline: kinds[j]!, count: 1 }] });
    }
  }
  return out;
}

function tradeMoves(s: AEState, seat: Seat): AEAction[] {
  if (s.abacusSupply < 1) return [];
  const abacus = board.abacus.id;
  const hand = s.hands[seat]!.filter((a) => a !== abacus);
  const portfolio = s.portfolios[seat]!;
  const held = Object.keys(portfolio).filter((a) => a !== abacus && portfolio[a]! > 0);
  const out: AEAction[] = [];
  for (const airline of distinct(hand)) out.push({ type: 'trade', get: 1, give: [{ airline, from: 'hand' }] });
  for (const airline of held) out.push({ type: 'trade', get: 1, give: [{ airline, from: 'portfolio' }] });
  if (s.abacusSupply >= 2) {
    // Three of the hand: three alike where there are, and the first three otherwise.
    for (const airline of distinct(hand)) {
      if (count(hand, airline) >= 3) {
        out.push({ type: 'trade', get: 2, give: [0, 1, 2].map(() => ({ airline, from: 'hand' as const })) });
      }
    }
    if (hand.length >= 3) {
      const sorted = [...hand].sort();
      out.push({ type: 'trade', get: 2, give: sorted.slice(0, 3).map((airline) => ({ airline, from: 'hand' as const })) });
    }
  }
  return out;
}

export function legalMoves(s: AEState, seat: Seat): AEAction[] {
  if (!toAct(s).includes(seat)) return [];
  if (s.phase === 'opening') {
    const kinds = distinct(s.hands[seat]!).sort();
    const out: AEAction[] = [];
    for (let i = 0; i < kinds.length; i++) {
      for (let j = i + 1; j < kinds.length; j++) out.push({ type: 'open', airlines: [kinds[i]!, kinds[j]!] });
    }
    return out;
  }
  if (s.phase === 'clearout') return takeOptions(s).map((take) => ({ type: 'take', take }));
  const out = buyMoves(s, seat);
  for (const m of playMoves(s, seat)) out.push(m);
  for (const m of tradeMoves(s, seat)) out.push(m);
  out.push({ type: 'money' });
  return out;
}
