// Invariants the playouts check after every move: shares, planes and money
// conserved, licences well formed, track positions where their licences put them.
import { board } from './board.ts';
import { SCORING_CARD, type AEState } from './state.ts';

export function checkState(s: AEState): string[] {
  const problems: string[] = [];
  const abacus = board.abacus.id;
  // Shares: every share of each airline is somewhere, exactly once.
  const seen: Record<string, number> = {};
  const add = (a: string, n = 1) => {
    seen[a] = (seen[a] ?? 0) + n;
  };
  let scoringCards = 0;
  for (const c of s.deck) c === SCORING_CARD ? scoringCards++ : add(c);
  for (const c of s.market) add(c);
  for (const c of s.discard) add(c);
  for (const h of s.hands) for (const c of h) add(c);
  for (const o of s.opening) for (const c of o ?? []) add(c);
  for (const p of s.portfolios)
    for (const [a, n] of Object.entries(p)) {
      if (n < 0) problems.push(`negative portfolio count for ${a}`);
      add(a, n);
    }
  for (const [a, n] of Object.entries(s.removed)) add(a, n);
  add(abacus, s.abacusSupply);
  for (const a of s.airlines) {
    if ((seen[a] ?? 0) !== board.airlineById[a]!.shares)
      problems.push(`${a}: ${seen[a] ?? 0} shares, expected ${board.airlineById[a]!.shares}`);
  }
  if ((seen[abacus] ?? 0) !== board.abacus.shares) problems.push(`Air Abacus: ${seen[abacus] ?? 0} shares`);
  for (const a of Object.keys(seen))
    if (a !== abacus && !s.airlines.includes(a)) problems.push(`share of unused airline ${a}`);
  if (s.removed[abacus]) problems.push('Air Abacus shares left the game');
  // Every airline blocked: the final scoring counts as the third while cards may still lie in the pile.
  if (!s.allBlocked && scoringCards + s.scoringsDone + s.scoringQueue.length > 3)
    problems.push('too many scoring cards');
  if (s.phase !== 'over' && scoringCards + s.scoringsDone + s.scoringQueue.length !== 3)
    problems.push('scoring cards lost');
  // Planes and licences.
  const used: Record<string, number> = {};
  const costs: Record<string, number> = {};
  s.licences.forEach((holders, i) => {
    const r = board.routes[i]!;
    if (holders.length > r.costs.length) problems.push(`${r.id}: more licences than spaces`);
    if (new Set(holders).size !== holders.length) problems.push(`${r.id}: an airline holds two licences`);
    holders.forEach((a, k) => {
      used[a] = (used[a] ?? 0) + 1;
      costs[a] = (costs[a] ?? 0) + r.costs[k]!;
      const net = s.networks[a];
      if (!net?.includes(r.from) || !net.includes(r.to)) problems.push(`${r.id}: ${a} holds it outside its network`);
    });
  });
  for (const a of s.airlines) {
    const data = board.airlineById[a]!;
    if (s.planes[a]! < 0) problems.push(`${a}: negative planes`);
    if (s.planes[a]! + (used[a] ?? 0) !== data.planes) problems.push(`${a}: planes not conserved`);
    const bonus = data.bonus && !s.bonusesLeft.includes(a) ? data.bonus.value : 0;
    const expected = Math.min(board.valueTrack.length, data.start + (costs[a] ?? 0) + bonus);
    if (s.track[a] !== expected) problems.push(`${a}: track at ${s.track[a]}, licences say ${expected}`);
    if (data.bonus && !s.bonusesLeft.includes(a) && !s.networks[a]!.includes(data.bonus.city))
      problems.push(`${a}: bonus without connection`);
    if (data.bonus && s.bonusesLeft.includes(a) && s.networks[a]!.includes(data.bonus.city))
      problems.push(`${a}: connection without bonus`);
  }
  // Money: bank and players hold 30 M per player between them.
  const total = s.bank + s.money.reduce((t, m) => t + m, 0);
  if (total !== board.setup.bankPerPlayer * s.seats) problems.push(`money not conserved: ${total}`);
  if (s.bank < 0 || s.money.some((m) => m < 0)) problems.push('negative money');
  if (s.market.length > board.setup.marketSize) problems.push('market too large');
  return problems;
}
