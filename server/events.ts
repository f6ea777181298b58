// Game events: what the game service announces after each durable write.
//
// Every event is emitted only once the change it reports is on disk, so a
// listener (the mail queue, the reminder job, a test) may act on it at once.
// Listeners get the event and nothing else; they read whatever they need from
// the game service (`service.open(gameId)`, `service.viewFor(...)`, ...).
// A listener that throws or rejects is logged and never undoes the write.
//
// Subscribe with `service.on(listener)` (returns an unsubscribe function) or
// pass `onEvent` listeners to `createApp` / `new GameService`.
import type { Seat } from '../rules/types.ts';

interface EventBase {
  gameId: string;
  /** ISO time of the write, from the service clock. */
  at: string;
}

export type GameEvent =
  /** A game was created (status open). */
  | (EventBase & { type: 'created' })
  /**
   * People were invited by email: at creation (the creator listed addresses)
   * or when the admin reopened a seat and named the replacement. The invite
   * link is the game's current one, `links.inviteUrl(links.inviteKeyOf(doc))`.
   */
  | (EventBase & { type: 'invited'; emails: string[]; inviteGeneration: number })
  /** Somebody took a seat; `seat` is the index into doc.seats at that moment (join order before the start). */
  | (EventBase & { type: 'joined'; seat: number; name: string })
  /** The game started: doc.seats is now in play order and `toAct` must act. */
  | (EventBase & { type: 'started'; toAct: Seat[] })
  /**
   * A move was logged at `seq`; `auto` is true when the server played it for a timed-out seat,
   * `programmed` when the seat's own standing order played it (server/orders.ts).
   */
  | (EventBase & { type: 'moved'; seq: number; seat: Seat; auto: boolean; programmed?: boolean; toAct: Seat[] })
  /** `seat` took back its move logged at `undoneSeq`; the undo itself is logged at `seq`. */
  | (EventBase & { type: 'undone'; seq: number; seat: Seat; undoneSeq: number; toAct: Seat[] })
  /** The admin reopened `seat`: its old link is retired, a fresh invite link exists. */
  | (EventBase & { type: 'seatReopened'; seat: Seat; inviteGeneration: number })
  /** The game is over (emitted right after the final `moved`). */
  | (EventBase & { type: 'finished' })
  /** `seat` said something to the table (table talk, logged as a notice at `seq`). */
  | (EventBase & { type: 'talk'; seq: number; seat: Seat })
  /** The admin abandoned the game. */
  | (EventBase & { type: 'abandoned' })
  /**
   * The game's log no longer replays here as it was played (service.ts, replay.ts):
   * `reason` says what is wrong in words. Nothing more is played until the server is fixed.
   */
  | (EventBase & { type: 'attention'; reason: string });

export type GameEventType = GameEvent['type'];

export type GameEventListener = (event: GameEvent) => void | Promise<void>;
