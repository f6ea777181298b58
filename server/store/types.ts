// What a game is on disk, and the store interface the game service uses.
// The game service never touches files; any backend that implements
// `GameStore` (lowdb files by default, see lowdb-store.ts) will do.
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

export interface GameDoc {
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
  toAct: Seat[];
  /** When the next reminder (or, after maxReminders, the escalation) is due; null if none. */
  nextReminderAt: string | null;
  /** Generation of the current invite key (to rebuild a listed game's invite link). */
  inviteGeneration: number;
  /** False while the organiser has not confirmed (GameDoc.confirmed). */
  confirmed?: boolean;
  /** Key hashes: admin, spectator, invite (if open), seats in doc order; confirm while unconfirmed. */
  keys: { admin: string; spectator: string; invite: string | null; seats: string[]; confirm?: string | null };
  /** The spectator and invite keys sealed (links.ts), so listed games' links need no game file. */
  sealed?: { spectator?: string; invite?: string | null };
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

export interface GameStore {
  /** Loads the index (never every game file). Call once before anything else. */
  open(): Promise<void>;
  /** Every index entry, in memory. */
  list(): IndexEntry[];
  entry(gameId: string): IndexEntry | undefined;
  /** Reads one game's document; null if there is none; DamagedGameError if it cannot be read. */
  load(gameId: string): Promise<GameDoc | null>;
  /**
   * Writes a game's whole document durably (and its index entry); resolves
   * only once both are on disk. Callers serialise writes to one game.
   */
  save(doc: GameDoc): Promise<void>;
  /**
   * Makes the index entry match a document just read (after a crash the
   * index may lag the game file by one unacknowledged write).
   */
  reindex(doc: GameDoc): Promise<void>;
  /**
   * Lets go of what is held in memory for one game (its document): the next
   * load reads its newest durable copy again. Nothing is let go while a
   * write to that game is under way.
   */
  forget(gameId: string): void;
  /** Flushes the index snapshot and releases files. */
  close(): Promise<void>;
  /** Resolves if the store can take writes now (GET /readyz); rejects with the reason otherwise. */
  ping?(): Promise<void>;
}
