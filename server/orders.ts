// Standing orders (programmed moves), the server side: where they are kept and when they play.
//
// A seat's orders live in its seat record (`SeatRecord.orders`, store/types.ts): private like its
// mail settings, never in the log or a download, written with the game's metadata (so they survive
// a restart and are in PostgreSQL with everything else). The rules decide (Rules.orders: pure, from
// the public position); this file only runs them:
//
//   playStandingOrders(doc, rules, state, { play, now, exclude })
//       after a committed move (or an order just left): while a seat to act has an order that plays,
//       plays it through `play` (the service's own move, so a programmed move is checked, sealed and
//       hashed exactly like a player's, with data.programmed) and goes on with the next seat to act,
//       up to MAX_PROGRAMMED_MOVES. The caller writes the result in the same append as the move that
//       set it off: a crash keeps all of it or none. `exclude`: the seat that just moved by hand, whose
//       own orders wait until somebody else has acted (he is on his page). `quietUntilMoved`: orders
//       that end before any move is played are not mailed (an order just left: the page shows them).
//   withOrder / withoutOrder   a seat's orders with one left (replacing one of the same kind) or cancelled
//
// An order that stops (a stop condition fired, its move was refused, it is finished) is moved to the
// seat's `ended` list with the seq of the log's last entry; the mail notifier, hearing that entry's
// 'moved' event (again after a crash: the mail cursor), queues the owner's mail, keyed by the order.
import { randomBytes } from 'node:crypto';
import type { AnyRules, Opaque, Seat, StandingOrder } from '../rules/types.ts';
import type { ArmedOrder, EndedOrder, GameDoc, LogEntry, SeatOrders, SeatRecord } from './store/types.ts';
import { derive, logLength } from './shared-log.ts';

/** At most this many programmed moves follow one move (a safety net: orders stop on their own first). */
export const MAX_PROGRAMMED_MOVES = 100;

/** Ended orders kept per seat (the page lists them; the mail reads its reason there). */
const ENDED_KEPT = 10;

/** At most this many orders armed per seat (one of each kind). */
const MAX_ARMED = 8;

export type PlayFn = (
  doc: GameDoc,
  state: Opaque,
  seat: Seat,
  action: unknown,
) => { nextDoc: GameDoc; next: Opaque; moveEntry: LogEntry; nextToAct: Seat[]; outcome: unknown; text: string };

export interface ProgrammedMove {
  entry: LogEntry;
  seat: Seat;
  toAct: Seat[];
  outcome: boolean;
}

export interface ChainResult {
  doc: GameDoc;
  state: Opaque;
  played: ProgrammedMove[];
  /** Orders that ended on this run (stopped or done), for the caller's answer. */
  ended: { seat: Seat; order: EndedOrder }[];
}

export function ordersOf(rec: SeatRecord | undefined): SeatOrders {
  return rec?.orders ?? { armed: [], ended: [] };
}

function setOrders(doc: GameDoc, seat: Seat, orders: SeatOrders): GameDoc {
  return derive(doc, { seats: doc.seats.map((s, i) => (i === seat ? { ...s, orders } : s)) });
}

function ended(orders: SeatOrders, id: string, end: Omit<EndedOrder, 'id' | 'text'>): SeatOrders {
  const a = orders.armed.find((o) => o.id === id);
  if (!a) return orders;
  return {
    armed: orders.armed.filter((o) => o.id !== id),
    ended: [...orders.ended, { id, text: a.text, ...end }].slice(-ENDED_KEPT),
  };
}

/** The seat's orders with `order` armed (an armed order of the same kind is replaced). */
export function withOrder(doc: GameDoc, seat: Seat, order: StandingOrder, text: string, at: string): GameDoc {
  const orders = ordersOf(doc.seats[seat]);
  const armed: ArmedOrder = { id: randomBytes(6).toString('base64url'), at, text, order };
  const kept = orders.armed.filter((o) => o.order.kind !== order.kind).slice(-(MAX_ARMED - 1));
  return derive(setOrders(doc, seat, { ...orders, armed: [...kept, armed] }), {
    privateRev: (doc.privateRev ?? 0) + 1,
  });
}

/** The seat's orders without the armed one `id` (null when there is none such). */
export function withoutOrder(doc: GameDoc, seat: Seat, id: string, at: string): GameDoc | null {
  const orders = ordersOf(doc.seats[seat]);
  if (!orders.armed.some((o) => o.id === id)) return null;
  const next = ended(orders, id, { why: 'cancelled', at, seq: logLength(doc), mail: false });
  return derive(setOrders(doc, seat, next), { privateRev: (doc.privateRev ?? 0) + 1 });
}

/** Plays the standing orders of the seats to act, one after another (see the header). */
export function playStandingOrders(
  doc: GameDoc,
  rules: AnyRules,
  state: Opaque,
  o: { play: PlayFn; now: string; exclude?: Seat; quietUntilMoved?: boolean },
): ChainResult {
  const result: ChainResult = { doc, state, played: [], ended: [] };
  const spec = rules.orders;
  if (!spec || !doc.seats.some((s) => (s.orders?.armed.length ?? 0) > 0)) return result;
  let exclude = o.exclude;
  const end = (seat: Seat, a: ArmedOrder, why: string, mail: boolean, seq = logLength(result.doc)) => {
    const e = { why, at: o.now, seq, mail: mail && (result.played.length > 0 || !o.quietUntilMoved) };
    result.doc = setOrders(result.doc, seat, ended(ordersOf(result.doc.seats[seat]), a.id, e));
    result.ended.push({ seat, order: { id: a.id, text: a.text, ...e } });
  };
  for (let n = 0; n < MAX_PROGRAMMED_MOVES; n++) {
    if (result.doc.status !== 'active' || result.doc.seats.some((s) => s.vacant)) break;
    let acted = false;
    for (const seat of rules.toAct(result.state)) {
      if (seat === exclude) continue;
      for (const a of [...ordersOf(result.doc.seats[seat]).armed]) {
        let d: ReturnType<NonNullable<AnyRules['orders']>['decide']>;
        try {
          d = spec.decide(result.state, seat, a.order);
        } catch (err) {
          d = { stop: `it could not be read here (${(err as Error).message})` };
        }
        if ('idle' in d) continue;
        if ('expire' in d) {
          end(seat, a, 'its round is over', false);
          continue;
        }
        if ('stop' in d) {
          end(seat, a, d.stop, true);
          continue;
        }
        let r: ReturnType<PlayFn>;
        try {
          r = o.play(result.doc, result.state, seat, d.play);
        } catch (err) {
          end(seat, a, `its move was refused: ${(err as Error).message}`, true);
          continue;
        }
        result.doc = r.nextDoc;
        result.state = r.next;
        result.played.push({ entry: r.moveEntry, seat, toAct: r.nextToAct, outcome: !!r.outcome });
        // Tied to the move itself (a game-ending move is followed by its finish entry).
        if (d.done) end(seat, a, d.done, true, r.moveEntry.seq);
        acted = true;
        break;
      }
      if (acted) break;
    }
    if (!acted) break;
    // Somebody else has acted by order: the hand mover's own orders apply again.
    exclude = undefined;
  }
  return result;
}
