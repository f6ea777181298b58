// The direction vote: after a locomotive moves, the line's shareholders bid
// shares, one round from the mover's left with the mover last. Each bid must
// beat the last; the mover only has to match it. The winner hands the shares
// bid back to the supply and puts the locomotive where he chose.
import { board, hexName } from './board.ts';
import { completeExtension } from './extend.ts';
import { occupancy, type Occupancy, type SRState, type Vote } from './state.ts';

/** Whether a seat in the order can still bid anything. */
function canBid(s: SRState, v: Vote, seat: number): boolean {
  const held = s.lines[v.line]!.held[seat]!;
  const high = v.high?.amount ?? 0;
  if (seat === v.mover) return v.high !== null && held >= high;
  return held > high;
}

/** The lowest bid the seat may make (the mover only matches). */
export function minimumBid(v: Vote, seat: number): number {
  const high = v.high?.amount ?? 0;
  return seat === v.mover ? Math.max(1, high) : high + 1;
}

export function voteSeat(v: Vote): number {
  return v.order[v.next]!;
}

/** Opens a vote if another seat holds shares of the line; otherwise the mover's choice stands at once. */
export function openVote(
  s: SRState,
  v: Omit<Vote, 'order' | 'next' | 'high' | 'bids'>,
  occ: Occupancy,
  events: string[] | undefined,
): void {
  const order: number[] = [];
  for (let k = 1; k <= s.seats; k++) order.push((v.mover + k) % s.seats);
  const vote: Vote = { ...v, order, next: 0, high: null, bids: [] };
  if (!order.some((seat) => seat !== v.mover && s.lines[v.line]!.held[seat]! > 0)) {
    finishVote(s, vote, events, false, occ);
    return;
  }
  s.vote = vote;
  advance(s, events);
}

function advance(s: SRState, events: string[] | undefined): void {
  const v = s.vote!;
  while (v.next < v.order.length && !canBid(s, v, v.order[v.next]!)) v.next++;
  if (v.next >= v.order.length) {
    s.vote = null;
    finishVote(s, v, events, true);
  }
}

/** Validates a bid without changing anything; returns an error message or null. */
export function bidProblem(s: SRState, seat: number, amount: number, to: number | null): string | null {
  const v = s.vote;
  if (!v) return 'There is no vote going on.';
  if (voteSeat(v) !== seat) return 'It is not your turn to bid.';
  if (amount === 0) return null;
  const held = s.lines[v.line]!.held[seat]!;
  const id = board.lines[v.line]!.id;
  if (amount > held) return `You hold only ${held} ${id} share${held === 1 ? '' : 's'}.`;
  const min = minimumBid(v, seat);
  if (amount < min) {
    return seat === v.mover
      ? `You must at least match the bid of ${v.high!.amount}.`
      : `A bid must beat the last bid: bid at least ${min} ${id} shares, or pass.`;
  }
  if (to === null || !v.options.includes(to)) {
    return `Name where the locomotive goes: one of ${v.options.map((h) => board.hexIds[h]).join(', ')}.`;
  }
  return null;
}

export function placeBid(
  s: SRState,
  seat: number,
  amount: number,
  to: number | null,
  events: string[] | undefined,
): void {
  const v = s.vote!;
  const id = board.lines[v.line]!.id;
  if (amount > 0) {
    const bid = { seat, amount, to: to! };
    v.high = bid;
    v.bids.push(bid);
    events?.push(`bid ${amount} ${id} share${amount === 1 ? '' : 's'} to send the locomotive to ${hexName(to!)}`);
  } else {
    events?.push(`passed in the ${id} vote`);
  }
  v.next++;
  advance(s, events);
}

function finishVote(s: SRState, v: Vote, events: string[] | undefined, voted: boolean, occ?: Occupancy): void {
  const l = s.lines[v.line]!;
  const id = board.lines[v.line]!.id;
  let to = v.choice;
  let decidedBy = v.mover;
  if (v.high) {
    const w = v.high;
    l.held[w.seat]! -= w.amount;
    l.supply += w.amount;
    to = w.to;
    decidedBy = w.seat;
    events?.push(
      `the highest bid (${w.amount} share${w.amount === 1 ? '' : 's'} for ${board.hexIds[w.to]}) wins the vote; those shares go back to the ${id} supply`,
    );
  }
  if (voted) events?.push(`${v.high ? '' : 'nobody bid: '}the ${id} locomotive moves to ${hexName(to)}`);
  completeExtension(
    s,
    { line: v.line, from: v.from, facing: v.facing, fromStart: v.fromStart, to, decidedBy, occ: occ ?? occupancy(s) },
    events,
  );
}
