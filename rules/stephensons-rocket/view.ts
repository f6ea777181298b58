// What a seat may see. Everything is public except the money totals (each
// payment is named in the public history, as the bank pays openly at the
// table): each seat sees only its own money and payment list; a spectator
// sees none; the end reveals all.
import type { View } from '../types.ts';
import { board, DIRECTION_NAMES, hexName, turnOf } from './board.ts';
import { legalMoves } from './moves.ts';
import { stationCounts } from './scoring.ts';
import { PLAYER_COLOURS, TRACK_TILES, type SRState } from './state.ts';
import { minimumBid, voteSeat } from './vote.ts';

export function toAct(s: SRState): number[] {
  if (s.finished) return [];
  if (s.vote) return [voteSeat(s.vote)];
  return [s.turn];
}

export function status(s: SRState): string {
  if (s.finished) return `Game over: ${s.endReason}`;
  if (s.vote) return `${board.lines[s.vote.line]!.id} direction vote: {seat:${voteSeat(s.vote)}} to bid`;
  return `{seat:${s.turn}} to act (${s.actionsLeft} action${s.actionsLeft === 1 ? '' : 's'} left)`;
}

/** Choices for the seat to act, as text commands with labels, for the move form. */
function options(s: SRState, seat: number | null) {
  if (seat === null || !toAct(s).includes(seat)) return null;
  const moves = legalMoves(s, seat);
  const way = (to: number, from: number, facing: number, atStart: boolean) => {
    const d = board.neighbour[from]!.indexOf(to);
    return atStart ? DIRECTION_NAMES[d]! : turnOf(facing, d)!;
  };
  const out = {
    extensions: [] as { command: string; label: string }[],
    tokens: [] as { command: string; label: string }[],
    stations: [] as { command: string; label: string }[],
    bids: [] as { command: string; label: string }[],
    stationsInHand: s.stations[seat]!.filter((h) => h < 0).length,
    /** The turn may end early only when no action is possible. */
    canEndTurn: !s.vote && moves.some((m) => m.type === 'pass'),
  };
  for (const m of moves) {
    if (m.type === 'extend') {
      const l = s.lines[board.lineIndex.get(m.line)!]!;
      const to = board.hexIndex.get(m.to)!;
      out.extensions.push({
        command: `extend ${m.line} ${m.to}`,
        label: `${m.line} ${way(to, l.loco, l.facing, l.atStart)} to ${hexName(to)}`,
      });
    } else if (m.type === 'token') {
      out.tokens.push({
        command: `token ${m.city} ${m.good}`,
        label: `${m.good} from ${board.places[board.placeIndex.get(m.city)!]!.name}`,
      });
    } else if (m.type === 'station') {
      const to = board.hexIndex.get(m.hex)!;
      out.stations.push({
        command: `station ${m.hex}${m.from ? ` from ${m.from}` : ''}`,
        label: `${m.from ? `move ${m.from} to ` : ''}${hexName(to)}`,
      });
    }
  }
  if (s.vote) {
    // every bid the seat may make (the moves list only a few amounts)
    const v = s.vote;
    out.bids.push({ command: 'bid 0', label: 'pass (bid nothing)' });
    for (let a = minimumBid(v, seat); a <= s.lines[v.line]!.held[seat]!; a++) {
      for (const to of v.options) {
        out.bids.push({
          command: `bid ${a} ${board.hexIds[to]}`,
          label: `${a} share${a === 1 ? '' : 's'}: ${way(to, v.from, v.facing, v.fromStart)} to ${hexName(to)}`,
        });
      }
    }
  }
  return out;
}

export function makeView(s: SRState, asked: number | null): View {
  // A seat that does not exist sees what a spectator sees.
  const seat = asked !== null && Number.isInteger(asked) && asked >= 0 && asked < s.seats ? asked : null;
  const open = s.finished;
  const hex = (h: number) => (h >= 0 ? board.hexIds[h]! : null);
  const lines = s.lines.map((l, i) => {
    const info = board.lines[i]!;
    return {
      id: info.id,
      name: info.name,
      colour: info.colour,
      start: board.places[info.start]!.name,
      loco: hex(l.loco),
      facing: l.facing >= 0 ? DIRECTION_NAMES[l.facing] : null,
      facingDir: l.facing,
      atStart: l.atStart,
      running: l.absorbedInto < 0,
      absorbedInto: l.absorbedInto >= 0 ? board.lines[l.absorbedInto]!.id : null,
      isolated: l.isolated,
      exhausted: l.exhausted,
      supply: l.supply,
      held: [...l.held],
      retired: l.retired,
      supplementary: l.supplementary,
      connected: l.connected.map((p) => board.places[p]!.name),
      towns: l.connected.length,
      stations: l.absorbedInto < 0 ? stationCounts(s, i) : Array(s.seats).fill(0),
      extendedThisTurn: s.extended.includes(i),
    };
  });
  const players = Array.from({ length: s.seats }, (_, p) => {
    const tokens: Record<string, number> = { steel: 0, textiles: 0, brewing: 0, leather: 0 };
    for (const t of s.tokens[p]!) tokens[t.good]!++;
    return {
      seat: p,
      colour: PLAYER_COLOURS[p]!,
      tokens,
      tokensByCity: s.tokens[p]!.map((t) => ({ city: board.places[t.city]!.name, good: t.good })),
      passengers: s.passengers[p]!,
      stationsInHand: s.stations[p]!.filter((h) => h < 0).length,
      stations: s.stations[p]!.filter((h) => h >= 0).map((h) => board.hexIds[h]!),
      shares: Object.fromEntries(
        s.lines.map((l, i) => [board.lines[i]!.id, l.held[p]!]).filter(([, n]) => (n as number) > 0),
      ),
      money: open || p === seat ? s.money[p]! : null,
    };
  });
  const vote = s.vote && {
    line: board.lines[s.vote.line]!.id,
    mover: s.vote.mover,
    from: board.hexIds[s.vote.from],
    choice: board.hexIds[s.vote.choice],
    options: s.vote.options.map((h) => board.hexIds[h]!),
    bids: s.vote.bids.map((b) => ({ seat: b.seat, amount: b.amount, to: board.hexIds[b.to]! })),
    high: s.vote.high && { seat: s.vote.high.seat, amount: s.vote.high.amount, to: board.hexIds[s.vote.high.to]! },
    toBid: voteSeat(s.vote),
  };
  return {
    seat,
    toAct: toAct(s),
    status: status(s),
    turn: s.turn,
    actionsLeft: s.actionsLeft,
    finished: s.finished,
    endReason: s.endReason || null,
    lines,
    tiles: s.tiles.map((t) => ({
      hex: board.hexIds[t.hex]!,
      line: board.lines[t.line]?.id ?? null, // null: loose track, joined to no line
      sides: [...t.sides],
      kind: (t.sides[0] - t.sides[1] + 6) % 6 === 3 ? 'straight' : 'curve',
    })),
    tilesLeft: TRACK_TILES - s.tiles.length,
    cities: board.places.flatMap((p, i) =>
      p.kind === 'city' ? [{ id: p.id, name: p.name, hex: board.hexIds[p.hex]!, goods: [...s.cityGoods[i]!] }] : [],
    ),
    players,
    passengerSupply: s.passengerSupply,
    supplementary: s.supplementary,
    vote,
    you:
      seat === null
        ? null
        : {
            seat,
            colour: PLAYER_COLOURS[seat]!,
            money: s.money[seat]!,
            payments: s.ledger.filter((p) => p.seat === seat).map((p) => ({ amount: p.amount, reason: p.reason })),
          },
    options: options(s, seat),
    payments: open ? s.ledger.map((p) => ({ seat: p.seat, amount: p.amount, reason: p.reason })) : null,
    finalScoring: open ? [...s.finalScoring] : null,
  };
}
