// What a game is in storage, and the store interface the game service uses.
//
// A game is an append-only log of entries plus a little metadata (GameMeta:
// seats, status, the current wait, ...), and an index row derived from that
// metadata (IndexEntry: what listing, key lookup and the reminder job need).
// The game service never touches files or tables; any backend that implements
// `GameStore` will do: lowdb files are the embedded default (lowdb-store.ts),
// PostgreSQL the shared one. The suite in test/server/store-contract.ts runs
// against every backend; a new backend passes it before it is used.
//
// THE CONTRACT a backend must honour:
// - Durability. `create` and `append` resolve only once everything they were
//   given (the entries, the metadata change and the index row derived from it)
//   is durable: it survives a crash or a power cut from the moment the promise
//   resolves. A promise that rejects wrote nothing. They are atomic: after a
//   crash either all of one call is there or none of it, never some entries
//   without the others or without the index row that goes with them.
// - Seq checking. `append(gameId, { expectedSeq, ... })` succeeds only when the
//   game's last stored seq is exactly `expectedSeq`; otherwise it rejects with
//   StaleSeqError and writes nothing. This holds across processes sharing the
//   store (a database checks it inside the transaction that inserts), so two
//   clicks on one link, from any two processes, make one move. The entries must
//   continue the chain: seqs expectedSeq+1, +2, ... and the first entry's
//   `prev` equal to the last stored entry's `hash` (ChainError otherwise).
//   `create` refuses an id that exists (GameExistsError).
// - Ordering. Appends to one game are applied in the order they succeed; a
//   read that starts after an append resolved sees it (read-your-writes, also
//   from another process). `readLog` returns entries in seq order, exactly as
//   appended (same JSON), with no gaps. Appends to different games are
//   independent.
// - Metadata. `append` replaces each field named in `meta` whole (a shallow
//   merge into the stored GameMeta); fields not named keep their value.
// - Index rows change with the append that changes their game (same atomic
//   write) and are derived by indexEntryOf (index-entry.ts), so every backend
//   lists, finds keys and finds due reminders alike. A backend may keep them
//   in memory (lowdb) or in indexed tables (a database); callers never assume
//   the whole index is in memory: they ask questions (findKey, listGames,
//   dueReminders), each answering a bounded page.
// - Snapshots are a cache, not a record: `saveSnapshot` need not be durable,
//   may be dropped or lost at any time, and a reader checks every snapshot
//   against the log (its entryHash and stateHash) before using it. A game
//   without snapshots still opens.
// - Formats. Everything stored carries a format version the backend reads:
//   older formats are migrated by `open()`, newer ones refused with
//   StoreFormatError saying what to do.
import type { Options, Outcome, Seat } from '../../rules/types.ts';

export type GameStatus = 'open' | 'active' | 'finished' | 'abandoned';

export interface ReminderPolicy {
  /** Hours a seat may sit on its turn before the first reminder; 0 turns reminders off. */
  remindAfterHours: number;
  /** Hours between reminders. */
  repeatHours: number;
  /** Reminders before the escalation (`onTimeout`). */
  maxReminders: number;
  /** notify: a notice to everyone; autoMove: the rules' autoMove plays for the seat (if the game has one). */
  onTimeout: 'notify' | 'autoMove';
}

export interface SeatRecord {
  name: string;
  email: string;
  /** sha256 of the seat's current link key. */
  keyHash: string;
  /** The key sealed under the server secret (links.ts); absent in games from before keys were random. */
  keySealed?: string;
  /** Join slot (stays with the seat when the order is drawn; never given to a second player before the start). */
  slot: number;
  /** Bumped when the seat is reopened (its key is retired then). */
  generation: number;
  joinedAt: string;
  /** Mail preferences and the like, owned by the mail code. */
  prefs: Record<string, unknown>;
  /** True while a reopened seat waits for a new player (name is a placeholder, no key). */
  vacant?: boolean;
  /**
   * sha256 of the seat's reply token (the Reply-To address of its mail, server/mail/reply-address.ts):
   * a random key of its own, issued with the seat and renewed on request; a retired one never comes back.
   */
  replyHash?: string;
  /** The reply token sealed under the server secret (links.ts). */
  replySealed?: string;
  /** Addresses besides `email` whose replies the admin allowed to play for this seat (lower case). */
  replyFrom?: string[];
  /**
   * The player's standing orders (server/orders.ts): private, like `prefs`, so kept here and never
   * in the log or a download; a move an order plays is logged as the player's move, marked programmed.
   */
  orders?: SeatOrders;
}

/** A seat's standing orders: those armed, and the newest few that ended (why, and at which entry). */
export interface SeatOrders {
  armed: ArmedOrder[];
  ended: EndedOrder[];
}

export interface ArmedOrder {
  id: string;
  /** When it was left (ISO). */
  at: string;
  /** The order in words (the rules' describe). */
  text: string;
  /** The order as the rules keep it (Rules.orders.arm). */
  order: { kind: string } & Record<string, unknown>;
}

export interface EndedOrder {
  id: string;
  text: string;
  /** Why it ended, in words ("somebody sold PRR", "cancelled"). */
  why: string;
  at: string;
  /** The last entry of the log when it ended: its mail is queued with that entry's event. */
  seq: number;
  /** The owner is mailed (a stop or a finished order; not a cancel or the end of its round). */
  mail: boolean;
}

export type LogKind =
  | 'create'
  | 'join'
  | 'start'
  | 'move'
  | 'undo'
  | 'reopen'
  | 'policy'
  | 'finish'
  | 'abandon'
  | 'reminder'
  | 'notice'
  | 'prefs';

/**
 * One log entry. `hash = sha256(canonical JSON of the entry without hash,
 * with `action` and `salt` replaced by `actionHash = sha256(salt + canonical JSON of action)`)`
 * (see chain.ts), so a history with other seats' actions withheld still verifies.
 */
export interface LogEntry {
  seq: number;
  at: string;
  kind: LogKind;
  /** The seat that acted (play order once started; join slot for 'join'). */
  seat?: Seat;
  /** The rules action of a 'move'. */
  action?: unknown;
  /** Random (128 bits, base64url) with every action sealed since salts exist; withheld with the action. */
  salt?: string;
  /** Present instead of `action` (and `salt`) in a download that withholds it: sha256(salt + canonical action). */
  actionHash?: string;
  /** Public one-line description (describe() for moves). */
  text?: string;
  /** Only in a download whose `text` has names written in for {seat:N}: the text as sealed (hashed). */
  sealedText?: string;
  /** Kind-specific details (create: rules/options/seedHash; undo: undoes; move: auto...). */
  data?: Record<string, unknown>;
  /** The rules version that applied this entry (absent on entries stored before versions existed: 1). */
  rulesVersion?: number;
  /**
   * On entries that change the rules state (start, move, undo): stateHashOf
   * (server/state-hash.ts) of the state right after this entry, as the server
   * that wrote it computed it. A replay that reaches another hash has not
   * reproduced the game the players saw.
   */
  stateHash?: string;
  prev: string;
  hash: string;
}

/** The wait for the current `toAct` seats, what reminders key off. */
export interface TurnWait {
  toAct: Seat[];
  /** When this wait began (ISO). */
  since: string;
  /** Seq of the last entry that changed the game state; the seq a move is made against. */
  stateSeq: number;
  /** Reminders logged since the wait began. */
  reminders: number;
  /** Set once the escalation (notice or autoMove) happened for this wait. */
  escalated: boolean;
}

/** Everything about a game except its log: small, and changed a few fields at a time. */
export interface GameMeta {
  id: string;
  rules: string;
  title: string;
  options: Options;
  createdAt: string;
  updatedAt: string;
  status: GameStatus;
  /** Listed on the home page. */
  listed: boolean;
  /** Seats wanted (the game starts itself when this many have joined). */
  seatCount: number;
  seedHash: string;
  /** Secret until the game is over; published in the history then. */
  seed: string;
  creator: { name: string; email: string };
  /** Join slot of the creator's own seat, null if the creator does not play. */
  creatorSlot: number | null;
  adminKeyHash: string;
  spectatorKeyHash: string;
  inviteKeyHash: string | null;
  /** The keys sealed under the server secret (links.ts); absent in games from before keys were random. */
  adminKeySealed?: string;
  spectatorKeySealed?: string;
  inviteKeySealed?: string | null;
  /**
   * False while the organiser has not confirmed their address through the link in the set-up
   * mail: no invitation leaves, the game is not listed, nobody joins. Absent: confirmed (games
   * from before confirmation, servers that do not ask for it).
   */
  confirmed?: boolean;
  /** The key of the confirmation link (only in the set-up mail), until used. */
  confirmKeyHash?: string | null;
  confirmKeySealed?: string | null;
  /** Addresses to invite once the organiser has confirmed. */
  pendingInvites?: string[];
  /** Counts invitations issued (each reopen issues a new one and retires the old). */
  inviteGeneration: number;
  /** Before the start: join order. From the start: play order (seat i is rules seat i). */
  seats: SeatRecord[];
  policy: ReminderPolicy;
  wait: TurnWait | null;
  outcome: Outcome | null;
  /**
   * The rules version the game was created under (rules/types.ts `version`);
   * its moves replay under that version for the whole game. Games stored
   * before versions existed are version 1.
   */
  rulesVersion: number;
  /**
   * Set when the log no longer replays here as it was played (a failed move,
   * a state hash that differs, a rules version this server does not have):
   * what is wrong, in words for the game's admin. The game stays readable;
   * nothing more is played until it is cleared. Null or absent when all is well.
   */
  attention?: string | null;
  /**
   * Seats whose player was removed (the organiser reopened the seat), newest last: the retired
   * key's hash, so that the old link can say in words what became of the seat, and the address,
   * so that the player is told. Private: never in the log or a download.
   */
  retiredSeats?: RetiredSeat[];
  /**
   * Bumped whenever a seat's standing orders change without a log entry (left, cancelled): the
   * index row carries it, so a process that keeps the game in memory sees that it changed.
   */
  privateRev?: number;
}

/** A player removed from a seat (GameMeta.retiredSeats). */
export interface RetiredSeat {
  keyHash: string;
  name: string;
  email: string;
  slot: number;
  generation: number;
  /** When, and by whom (the organiser's name). */
  at: string;
  by: string;
}

/** A game as the service holds it in memory: its metadata and its whole log. */
export interface GameDoc extends GameMeta {
  log: LogEntry[];
}

/** What data/index.json keeps per game: enough to list games, find keys and due reminders. */
export interface IndexEntry {
  id: string;
  rules: string;
  title: string;
  status: GameStatus;
  listed: boolean;
  seatCount: number;
  names: string[];
  createdAt: string;
  updatedAt: string;
  lastSeq: number;
  /** Hash of the last entry ('' for none): the `prev` the next append must carry. */
  lastHash: string;
  toAct: Seat[];
  /** When the next reminder (or, after maxReminders, the escalation) is due; null if none. */
  nextReminderAt: string | null;
  /** Generation of the current invite key (to rebuild a listed game's invite link). */
  inviteGeneration: number;
  /** False while the organiser has not confirmed (GameDoc.confirmed). */
  confirmed?: boolean;
  /** Seats of a running game that wait for a new player (reopened); absent: none. */
  vacantSeats?: number;
  /** mailHash of every seated player's address and the organiser's (a player's list of games). */
  mailHashes?: string[];
  /**
   * Key hashes: admin, spectator, invite (if open), seats in doc order; confirm while unconfirmed;
   * retired: the keys of players removed from their seats (findKey answers role 'retired').
   */
  keys: {
    admin: string;
    spectator: string;
    invite: string | null;
    seats: string[];
    confirm?: string | null;
    retired?: string[];
  };
  /** The spectator and invite keys sealed (links.ts), so listed games' links need no game file. */
  sealed?: { spectator?: string; invite?: string | null };
  rulesVersion: number;
  /** GameMeta.attention: the game needs its keeper (not listed as due for reminders). */
  attention: string | null;
  /** GameMeta.privateRev (absent: 0). */
  privateRev?: number;
  /**
   * What the reminder job needs to take a reminder step without opening the game; present
   * exactly when `nextReminderAt` is (absent in rows stored before it existed: the job opens
   * those games instead).
   */
  remind?: ReminderRow;
}

/**
 * A game's reminder schedule as its index row carries it: the current wait, the policy, and each
 * seat's slot and generation (a reminder mail is addressed to the seat's holder by them, so that a
 * player who took the seat over since is not reminded of somebody else's wait).
 */
export interface ReminderRow {
  wait: TurnWait;
  policy: ReminderPolicy;
  seats: { slot: number; generation: number; vacant?: true }[];
}

/** The append was made against an older (or newer) seq than the game's last: nothing was written. */
export class StaleSeqError extends Error {
  constructor(
    public gameId: string,
    public expectedSeq: number,
    public lastSeq: number,
  ) {
    super(`game ${gameId}: append expected seq ${expectedSeq}, the log is at ${lastSeq}`);
    this.name = 'StaleSeqError';
  }
}

/** Entries that do not continue the game's chain (wrong seqs or prev): nothing was written. */
export class ChainError extends Error {
  constructor(gameId: string, why: string) {
    super(`game ${gameId}: ${why}`);
    this.name = 'ChainError';
  }
}

export class GameExistsError extends Error {
  constructor(public gameId: string) {
    super(`game ${gameId} exists already`);
    this.name = 'GameExistsError';
  }
}

/** Stored data in a format this server does not read (written by a newer server). */
export class StoreFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreFormatError';
  }
}

export class DamagedGameError extends Error {
  constructor(
    public gameId: string,
    public file: string,
    why: string,
  ) {
    super(`game ${gameId} (${file}) is damaged: ${why}`);
    this.name = 'DamagedGameError';
  }
}

export type KeyRole = 'seat' | 'invite' | 'admin' | 'spectator' | 'confirm';

/** What a link key (by its hash) opens. 'retired': the key of a player removed from a seat (opens nothing). */
export interface KeyTarget {
  gameId: string;
  role: KeyRole | 'retired';
  /** For role seat: the index into meta.seats (play order once started). */
  seat?: number;
}

/** One call's change to a game: entries to add after `expectedSeq`, and the metadata fields that changed with them. */
export interface Append {
  /** The last seq the caller built on; the store refuses the append if its last seq differs. */
  expectedSeq: number;
  /** Sealed entries, seqs expectedSeq+1, +2, ...; may be empty when only metadata changes. */
  entries: LogEntry[];
  /** GameMeta fields that changed (each replaced whole). */
  meta?: Partial<GameMeta>;
  /**
   * The change was decided on the game as this process last read or wrote it through this
   * store, with this metadata (its updatedAt and privateRev, which the log entries, settings and
   * standing orders a move depends on move on): refuse it (StaleSeqError) if the game changed since in any way, its metadata
   * alone included (another process's settings or standing orders), not only its seq, or if the
   * store remembers other metadata than the caller decided on. Without it a shared store applies
   * `meta` to the stored metadata when the seq still matches. A store only one process writes
   * (lowdb) needs nothing more than the seq check.
   */
  onlyIfUnchanged?: { updatedAt: string; privateRev?: number };
}

/**
 * The rules state after the log entry `seq` (a cache: see the contract above).
 * `state` is the state's JSON, `stateHash` its hash as hashState
 * (server/state-hash.ts) computes it, `entryHash` the hash of the log entry at
 * `seq`, which ties the snapshot to the chain.
 */
export interface Snapshot {
  seq: number;
  entryHash: string;
  rulesVersion: number;
  stateHash: string;
  state: string;
}

/**
 * What opening a game, or catching up with one kept in memory, reads from the store: all of it
 * as of one moment (one statement in a database), so the parts belong together.
 */
export interface GameRead {
  meta: GameMeta;
  row: IndexEntry;
  /** The entries with seq > afterSeq, in seq order. */
  entries: LogEntry[];
  /** When asked for: the newest snapshot at or before the log's end (a cache: may be null). */
  snapshot: Snapshot | null;
}

/** Where a game's log ends, and whether it needs its keeper (GameStore.logEnds). */
export type LogEnd = Readonly<Pick<IndexEntry, 'id' | 'lastSeq' | 'attention'>>;

/** A question to the index. Entries come newest first (updatedAt descending). */
export interface GameQuery {
  status?: GameStatus;
  listed?: boolean;
  /** Only games with fewer seats taken than wanted. */
  freeSeats?: boolean;
  /** Only games changed at or after this time (ISO). */
  updatedSince?: string;
  /** Only games where this address (mailHash of it, index-entry.ts) has a seat or organises. */
  mailHash?: string;
  /** At most this many entries (default 100); `total` counts them all. */
  limit?: number;
}

export interface GameStore {
  /**
   * True when other processes write this store too (a database): the service then checks a
   * game it keeps in memory against `entry()` before using it. Unset: only this process writes.
   */
  readonly shared?: boolean;
  /** Opens the store, migrating older stored formats; StoreFormatError for a newer one. Call once first. */
  open(): Promise<void>;
  /** Answers when the store can take writes (GET /readyz); throws, in words, when it cannot. */
  ping?(): Promise<void>;
  /** Waits for writes under way, then releases files and connections. */
  close(): Promise<void>;

  /** Stores a new game: its metadata and first entries. GameExistsError if the id is taken. */
  create(meta: GameMeta, entries: LogEntry[]): Promise<IndexEntry>;
  /** Appends entries and metadata changes (see the contract). StaleSeqError, ChainError. */
  append(gameId: string, change: Append): Promise<IndexEntry>;

  /** The game's metadata; null if there is no such game; DamagedGameError if it cannot be read. */
  readMeta(gameId: string): Promise<GameMeta | null>;
  /** Entries with from <= seq <= to, in seq order (the whole log by default). */
  readLog(gameId: string, from?: number, to?: number): Promise<LogEntry[]>;

  /**
   * The game's metadata, index row and entries after `afterSeq` (0: the whole log), plus the
   * newest snapshot when `snapshot` is asked for, as of one moment; null if there is no such game.
   * A process opens a game with one call, and catches up with a game another process moved with
   * one call that reads only the entries it missed. DamagedGameError if it cannot be read.
   */
  readGame(gameId: string, afterSeq: number, opts?: { snapshot?: boolean }): Promise<GameRead | null>;

  /** Keeps a snapshot (a cache: may be dropped; need not be durable). */
  saveSnapshot(gameId: string, snapshot: Snapshot): Promise<void>;
  /** The stored snapshot with the highest seq <= atOrBefore, or null. */
  readSnapshot(gameId: string, atOrBefore: number): Promise<Snapshot | null>;

  /** One game's index row; null if there is no such game. */
  entry(gameId: string): Promise<IndexEntry | null>;
  /** The game and role a key hash opens: current admin, spectator, invite and seat keys only. */
  findKey(keyHash: string): Promise<KeyTarget | null>;
  /** Index rows matching the query, newest first, and how many match in all. */
  listGames(query: GameQuery): Promise<{ entries: IndexEntry[]; total: number }>;
  /** Active games not needing attention whose nextReminderAt <= now, soonest first, at most `limit`. */
  dueReminders(now: string, limit?: number): Promise<IndexEntry[]>;
  /**
   * Every game's id, last seq and attention, as cheaply as the store can (no whole rows made):
   * the mail's catch-up at start reads them for every game. Absent: listGames stands in.
   */
  logEnds?(): Promise<readonly LogEnd[]>;
}

/**
 * The PostgreSQL store behind a GameStore, or null: the one store that is `shared`. A test of
 * `shared`, not `instanceof`, so that a server without PostgreSQL never loads pg-store.ts and
 * its driver.
 */
export function pgStoreOf(store: GameStore): import('./pg-store.ts').PgGameStore | null {
  return store.shared ? (store as import('./pg-store.ts').PgGameStore) : null;
}
