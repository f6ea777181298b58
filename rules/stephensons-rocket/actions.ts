// A player's actions: take a city token, place or move a station, extend a
// line (which may open a vote), bid in a vote, or end the turn early.
// Every action is checked completely before anything changes.
import { z } from 'zod';
import { RuleError } from '../types.ts';
import { board, GOODS, hexName } from './board.ts';
import { checkEnd } from './end.ts';
import { takeShare } from './extend.ts';
import { blockedReason, headings, locoTargets } from './movement.ts';
import { bidProblem, openVote, placeBid } from './vote.ts';
import { ACTIONS_PER_TURN, hasTrack, occupancy, TRACK_TILES, type Occupancy, type SRState } from './state.ts';

// Names and hex labels are short; the limit keeps a pasted novel out of error messages.
const word = z.string().min(1).max(40);

export const actionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('token'), city: word, good: z.enum(GOODS) }).strict(),
  z.object({ type: z.literal('station'), hex: word, from: word.optional() }).strict(),
  z.object({ type: z.literal('extend'), line: word, to: word }).strict(),
  z.object({ type: z.literal('bid'), amount: z.number().int().min(0).max(1000), to: word.optional() }).strict(),
  z.object({ type: z.literal('pass') }).strict(),
]);
export type SRAction = z.infer<typeof actionSchema>;

const MOVE_TYPES = 'token, station, extend, bid or pass';

/** What each field should hold, for the message about a malformed move. */
const FIELD_HINTS: Record<string, string> = {
  city: 'the city to take a token from, e.g. "manchester"',
  good: `one of ${GOODS.join(', ')}`,
  hex: 'a hex label such as "F7"',
  from: 'the hex label of one of your stations on the board',
  line: `a line: ${board.lines.map((l) => l.id).join(', ')}`,
  to: 'a hex label such as "F7"',
  amount: 'a whole number of shares, 0 to pass',
};

export function parseAction(raw: unknown): SRAction {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new RuleError(`That is not a Stephenson's Rocket move: send an object whose type is ${MOVE_TYPES}.`);
  }
  // zod would read an inherited type; only the object's own fields count.
  if (!Object.hasOwn(raw, 'type')) throw new RuleError(`The move has no type: use ${MOVE_TYPES}.`);
  const parsed = actionSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const type = (raw as { type?: unknown }).type;
  if (issue.code === 'invalid_union_discriminator') {
    throw new RuleError(
      `${typeof type === 'string' ? `"${type.slice(0, 20)}" is not a move` : 'The type of a move is a word'}: use ${MOVE_TYPES}.`,
    );
  }
  if (issue.code === 'unrecognized_keys') {
    throw new RuleError(
      `The ${String(type)} move has no field ${issue.keys.map((k) => `"${k.slice(0, 20)}"`).join(', ')}.`,
    );
  }
  const field = String(issue.path[0]);
  throw new RuleError(`Bad ${field} in the ${String(type)} move: it must be ${FIELD_HINTS[field] ?? 'given'}.`);
}

/** A city named by its id ("burton") or its name ("Burton upon Trent"), in any case; -1 if none. */
function cityOf(text: string): number {
  const key = text.toLowerCase();
  return board.places.findIndex((p) => p.kind === 'city' && (p.id === key || p.name.toLowerCase() === key));
}

function hexOf(id: string | undefined): number {
  if (id === undefined) return -1;
  return board.hexIndex.get(id.toUpperCase()) ?? -1;
}

/** Why a station may not stand on hex h (moving the one from `from`, if given); null when it may. */
export function stationProblem(h: number, from: number, occ: Occupancy): string | null {
  if (h < 0) return 'That hex is not on the map.';
  if (h === from) return 'The station is already there.';
  const name = board.hexIds[h];
  const p = board.placeAt[h]!;
  if (p >= 0) return `A station may not stand on ${board.places[p]!.name}: towns and cities are not empty spaces.`;
  if (hasTrack(occ, h)) return `A station may not be placed on track (${name}).`;
  if (occ.loco[h]! >= 0) return `A locomotive stands on ${name}.`;
  if (occ.station[h]! >= 0 && h !== from) return `There is already a station on ${name}.`;
  for (const n of board.neighbour[h]!) {
    if (n < 0) continue;
    if (occ.loco[n]! >= 0)
      return `A station may not stand next to a locomotive (the ${board.lines[occ.loco[n]!]!.id} locomotive is next to ${name}).`;
    if (occ.station[n]! >= 0 && n !== from)
      return `A station may not stand next to another station (${board.hexIds[n]}).`;
  }
  return null;
}

/**
 * Hexes of the seat's own stations on the board, any of which may be moved (the rules
 * let a player move "one of his own stations on the board"); those not yet joined to a
 * line come first.
 */
export function movableStations(s: SRState, seat: number, occ: Occupancy): number[] {
  const on = s.stations[seat]!.filter((h) => h >= 0);
  const joined = (h: number) => occ.track[h]! >= 0 || occ.loco[h]! >= 0;
  return [...on.filter((h) => !joined(h)), ...on.filter(joined)];
}

/** Hexes where the seat may place a station now (from its hand, or by moving one on the board). */
export function stationSpots(s: SRState, seat: number, occ: Occupancy, limit: number): { hex: number; from: number }[] {
  const froms = s.stations[seat]!.includes(-1) ? [-1] : movableStations(s, seat, occ);
  const out: { hex: number; from: number }[] = [];
  for (const from of froms)
    for (let h = 0; h < board.hexIds.length && out.length < limit; h++)
      if (stationProblem(h, from, occ) === null) out.push({ hex: h, from });
  return out;
}

/**
 * Whether the seat on turn still has an action: the turn is two of the three
 * actions the rules list (there is no fourth, "pass"), so it ends early only
 * when none is possible.
 */
export function hasAction(s: SRState, seat: number, occ: Occupancy): boolean {
  if (s.cityGoods.some((g) => g.length > 0)) return true;
  for (let i = 0; i < s.lines.length; i++)
    if (!s.extended.includes(i) && extendable(s, i) && locoTargets(s, i, occ).length > 0) return true;
  return stationSpots(s, seat, occ, 1).length > 0;
}

/** The line runs, and has a track tile for the hex it leaves (none is needed from the start town). */
function extendable(s: SRState, line: number): boolean {
  const l = s.lines[line]!;
  return l.absorbedInto < 0 && (l.atStart || s.tiles.length < TRACK_TILES);
}

export function extendProblem(s: SRState, line: number, to: number, occ: Occupancy): string | null {
  if (line < 0) return `There is no such line: the lines are ${board.lines.map((l) => l.id).join(', ')}.`;
  const l = s.lines[line]!;
  const id = board.lines[line]!.id;
  if (l.absorbedInto >= 0)
    return `The ${id} was absorbed by the ${board.lines[l.absorbedInto]!.id} and no longer runs.`;
  if (s.extended.includes(line))
    return `You have already extended the ${id} this turn: a line is never extended twice in one turn.`;
  if (!l.atStart && s.tiles.length >= TRACK_TILES) return 'No track tiles are left.';
  if (to < 0) return 'Name a hex on the map.';
  const d = board.neighbour[l.loco]!.indexOf(to);
  if (d < 0) return `${board.hexIds[to]} is not next to the ${id} locomotive.`;
  if (!headings(s, line).includes(d))
    return `The ${id} locomotive may only move straight ahead, half left or half right.`;
  return blockedReason(to, line, occ);
}

function finishAction(s: SRState, events: string[] | undefined): void {
  s.actionsLeft--;
  if (checkEnd(s, events)) return;
  if (s.actionsLeft <= 0) nextTurn(s);
}

export function nextTurn(s: SRState): void {
  s.turn = (s.turn + 1) % s.seats;
  s.actionsLeft = ACTIONS_PER_TURN;
  s.extended = [];
  s.turns++;
}

export function applyAction(s: SRState, seat: number, raw: unknown, events: string[] | undefined): void {
  const a = parseAction(raw);
  if (s.finished) throw new RuleError('The game is over.');
  if (!Number.isInteger(seat) || seat < 0 || seat >= s.seats) throw new RuleError('No such seat.');

  if (s.vote) {
    const id = board.lines[s.vote.line]!.id;
    if (a.type !== 'bid' && a.type !== 'pass')
      throw new RuleError(`The ${id} direction vote is going on: bid shares or pass.`);
    const amount = a.type === 'bid' ? a.amount : 0;
    const to = a.type === 'bid' && a.to !== undefined ? hexOf(a.to) : null;
    const problem = bidProblem(s, seat, amount, to);
    if (problem) throw new RuleError(problem);
    placeBid(s, seat, amount, to, events);
    if (!s.vote) finishAction(s, events);
    return;
  }

  if (seat !== s.turn) throw new RuleError('It is not your turn.');
  const occ = occupancy(s);
  switch (a.type) {
    case 'bid':
      throw new RuleError('There is no vote going on.');
    case 'pass':
      if (s.version < 2) {
        // version 1: a turn could be ended at any time
        events?.push(s.actionsLeft === ACTIONS_PER_TURN ? 'passed the turn' : 'ended the turn');
        s.actionsLeft = 1;
        finishAction(s, events);
        return;
      }
      if (hasAction(s, seat, occ))
        throw new RuleError(
          'A turn is two actions: take a city token, place or move a station, or extend a line. ' +
            'A turn ends early only when none of them is possible.',
        );
      events?.push('ended the turn: no action is possible');
      s.actionsLeft = 1;
      finishAction(s, events);
      return;
    case 'token': {
      const city = cityOf(a.city);
      if (city < 0)
        throw new RuleError(
          `${a.city} is not a city: the cities are ${board.places
            .filter((p) => p.kind === 'city')
            .map((p) => p.name)
            .join(', ')}.`,
        );
      const goods = s.cityGoods[city]!;
      const k = goods.indexOf(a.good);
      if (k < 0)
        throw new RuleError(
          `${board.places[city]!.name} has no ${a.good} token left${goods.length ? ` (it has ${goods.join(', ')})` : ''}.`,
        );
      goods.splice(k, 1);
      s.tokens[seat]!.push({ city, good: a.good });
      events?.push(`took a ${a.good} token from ${board.places[city]!.name}`);
      finishAction(s, events);
      return;
    }
    case 'station': {
      const to = hexOf(a.hex);
      let from = -1;
      if (a.from !== undefined) {
        from = hexOf(a.from);
        if (from < 0 || !s.stations[seat]!.includes(from)) throw new RuleError(`You have no station on ${a.from}.`);
      } else if (!s.stations[seat]!.includes(-1)) {
        throw new RuleError('All your stations are on the board: move one of them instead (say which, with "from").');
      }
      const problem = stationProblem(to, from, occ);
      if (problem) throw new RuleError(problem);
      const k = s.stations[seat]!.indexOf(from);
      s.stations[seat]![k] = to;
      events?.push(
        from >= 0
          ? `moved a station from ${board.hexIds[from]} to ${hexName(to)}`
          : `placed a station on ${hexName(to)}`,
      );
      finishAction(s, events);
      return;
    }
    case 'extend': {
      const line = board.lineIndex.get(a.line.toUpperCase()) ?? -1;
      const to = hexOf(a.to);
      const problem = extendProblem(s, line, to, occ);
      if (problem) throw new RuleError(problem);
      const l = s.lines[line]!;
      const id = board.lines[line]!.id;
      const first = events?.length ?? 0;
      events?.push(`extended the ${id} to ${hexName(to)}`);
      s.extended.push(line);
      takeShare(s, line, seat, events);
      openVote(
        s,
        {
          line,
          mover: seat,
          from: l.loco,
          facing: l.facing,
          fromStart: l.atStart,
          options: locoTargets(s, line, occ),
          choice: to,
        },
        occ,
        events,
      );
      if (!s.vote) {
        finishAction(s, events);
      } else if (events) {
        events[first] = `moved the ${id} locomotive towards ${hexName(to)}`;
        events.push(`the ${id} shareholders now vote on the direction`);
      }
      return;
    }
  }
}
