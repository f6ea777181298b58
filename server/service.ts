// The game service: every change to a game goes through here.
//
// API (names are stable; the mail/reminder code and the routes use them):
//   new GameService({ store, registry, links, now?, onEvent?, logger?, maxOpenGames? })
//   await service.init()                       opens the store (no game is read)
//   service.on(listener) -> unsubscribe        GameEvent after each durable write (events.ts)
//   service.links                              key derivation and URLs (links.ts)
//   await service.resolveKey(key) -> KeyTarget|null  {gameId, role, seat?} for a link key (404 if null)
//   await service.openByKey(key, roles)        { game, target }, checked against the game (404 otherwise)
//   await service.decideOnKey(key, roles, decide, onRefused?)   a move by a key: decided on the game as held
//                                              (no read on a shared store), any refusal decided again on a fresh read
//   await service.listGames(query)             index rows, newest first, and their total (never opens a game)
//   await service.entry(id)                    one game's index row
//   await service.listPublic()                 listed open games with free seats, and running ones
//   await service.dueReminders(now)            active games whose nextReminderAt <= now
//   await service.open(id) -> LoadedGame       { doc, rules, state, stateSeq, attention } kept in memory (the
//                                              maxOpenGames used most recently); replays from the newest
//                                              snapshot (replay.ts), checked against the recorded hashes
//   await service.create(input) -> CreatedGame keys for admin, invite, spectator (and the creator's seat)
//   await service.join(id, {name, email})      -> { seat, seatKey }; starts the game when full
//   await service.start(id)                    seat order drawn from the seed
//   await service.importGame(input)            a game moved here: seats in order, started, actions played as moves
//   await service.move(id, seat, {seq, action}, {auto?})   seq check, simultaneous-move rule
//   await service.undo(id, seat, seq)          a new 'undo' entry
//   await service.reopenSeat(id, seat, {email?}) -> { inviteKey }   old seat key retired
//   await service.abandon(id) / setPolicy(id, policy)
//   await service.appendNote(id, {kind: 'reminder'|'notice'|'prefs', seat?, text, data?})
//   await service.logReminder(row, {text, data})   a reminder from the game's index row alone (row.remind),
//                                              written only on the row's seq (the reminder job)
//   await service.playAutoMove(id, seat)       the rules' autoMove, logged as moves with auto: true, while the seat must act
//   await service.setSeatPrefs(id, seat, prefs)  a seat's private settings (mail), in its record, not the log
//   await service.leaveOrder(id, seat, spec) / cancelOrder(id, seat, orderId)   a seat's standing orders
//                                              (server/orders.ts): kept in its record, played the moment the
//                                              seat is to act, after every move, as moves marked programmed
//   service.viewFor(game, seat|null)           the rules' view (a waiting view before the start)
//   service.movesFor(game, seat, ranked?)      [{ n, action, text, label }] legal moves (in the rules' order, or the
//                                              most useful first), n for quick links; label: the button's words
//   service.firstMoves(game, seat, limit)      the first `limit` of them, most useful first, described, and the total
//   service.moveAt(game, seat, n)              move number n, described (the confirm page)
//   service.canPlayAt(game, seat, seq)         would a move made against seq be taken now
//   service.undoBlocker(game, seat)            null if the seat may take back its last move, else why not
//   service.sinceLastTurn(game, seat)          history lines after that seat's last own move
//   service.historyLines(game)                 every entry as a plain-words line
//   service.recentLines(game, upto, count)     the last lines of it up to an entry (step page)
//   service.historyDoc(game, seat|null)        the history.json download (others' actions withheld
//                                              while the game runs; seed once it is over)
//   await service.stateAt(game, seq)           the rules state after log entry `seq` (step page; from a snapshot)
//   await service.settled()                    waits for event listeners and snapshot writes (tests)
// Errors a person should read are ServiceError(status, message); RuleError
// messages from the rules come back as ServiceError 400 with the same text.
// Every change is one store append (store/types.ts): the new entries and the
// metadata fields that changed, made against the seq the game was read at.
// Needs attention: a game whose log no longer replays here as it was played
// (replay.ts says why) opens with `attention` set and no state; its history
// and download stay readable, nothing more is played, and the reason is kept
// in its metadata and index row, logged, and shown on its pages.
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { RuleError, type AnyRules, type Opaque, type Options, type Seat, type View } from '../rules/types.ts';
import type { GameEvent, GameEventListener } from './events.ts';
import { ServiceError, notFound } from './errors.ts';
import { hashMatches, keyHash, keyMatches, looksLikeKey, type Links } from './links.ts';
import { DEFAULT_POLICY } from './policy.ts';
import { checkChain, checkEntry, sealAfter, sha256 } from './store/chain.ts';
import * as reading from './game-reading.ts';
import {
  acceptsOlderSeq,
  append,
  checkOptions,
  describePolicy,
  lastEffectiveMove,
  lastStateSeq,
  nextWait,
  pushEntry,
  seatOrder,
} from './game-log.ts';

export { checkOptions, effectiveMoves, lastStateSeq, replayState, seatOrder } from './game-log.ts';
import { metaOf } from './store/index-entry.ts';
import { hashState } from './state-hash.ts';
import { cloneState } from '../rules/clone.ts';
import { playStandingOrders, withOrder, withoutOrder, type ChainResult } from './orders.ts';
import { replaysFrom, replayTo, SNAPSHOT_EVERY, snapshotOf, type Replayed } from './replay.ts';
import { derive, lastEntry, logLength, owned, takeLog } from './shared-log.ts';
import { cleanName, looksLike } from './names.ts';
import {
  DamagedGameError,
  StaleSeqError,
  StoreFormatError,
  type GameDoc,
  type GameMeta,
  type GameRead,
  type GameQuery,
  type GameStore,
  type IndexEntry,
  type LogEnd,
  type KeyRole,
  type KeyTarget,
  type LogEntry,
  type ReminderPolicy,
  type SeatRecord,
  type Snapshot,
} from './store/types.ts';

export type { KeyRole, KeyTarget } from './store/types.ts';

export interface LoadedGame {
  doc: GameDoc;
  rules: AnyRules;
  /** Rules state after the last entry; null before the start. */
  state: Opaque | null;
  /** Seq of the last state-changing entry (start, move, undo); moves are made against it. */
  stateSeq: number;
  /** The state just before the move logged at `seq` (for undo), when known. */
  before?: { seq: number; state: Opaque };
  /** Why the game cannot go on here (replay.ts), in words; null when it replays as played. */
  attention: string | null;
  /** The newest snapshot known (in memory, for replays such as the state before a move). */
  base: Snapshot | null;
  /** One before `base`, for the state before a move at or before `base` (a take-back's). */
  older?: Snapshot | null;
}

export interface CreateInput {
  rules: string;
  seats: number;
  options?: Options;
  policy?: ReminderPolicy;
  listed?: boolean;
  name: string;
  email: string;
  /** The creator takes the first seat. */
  join?: boolean;
  /** Addresses to send the invite link to ('invited' event). */
  invite?: string[];
}

export interface CreatedGame {
  gameId: string;
  adminKey: string;
  inviteKey: string;
  spectatorKey: string;
  seatKey: string | null;
}

export interface MoveChoice {
  /** Index into moves(state, seat); what quick-move links carry. */
  n: number;
  action: unknown;
  /** The history words (describe): what the confirm page shows the move will do. */
  text: string;
  /** The button words (the rules' label): imperative, short, distinct among the seat's moves. */
  label: string;
}

export interface HistoryLine {
  seq: number;
  at: string;
  kind: LogEntry['kind'];
  seat: number | null;
  text: string;
}

export interface ServiceLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface GameServiceOptions {
  store: GameStore;
  registry: AnyRules[];
  links: Links;
  now?: () => Date;
  onEvent?: GameEventListener | GameEventListener[];
  logger?: ServiceLogger;
  /**
   * Games kept in memory once opened (default 5,000); beyond that the ones
   * used longest ago are let go, to be read and replayed again when next
   * opened. A game being changed is never let go.
   */
  maxOpenGames?: number;
  /**
   * Ask the organiser to confirm their address (the link in the set-up mail) before any
   * invitation leaves, the game is listed or anybody joins. On for a public server with mail.
   */
  confirmOrganiser?: boolean;
  /** When games nobody confirms or joins expire (expireStale): hours unconfirmed, days open unchanged. */
  expiry?: { unconfirmedHours: number; openDays: number };
}

export const DEFAULT_EXPIRY = { unconfirmedHours: 48, openDays: 30 };

const silent: ServiceLogger = { info() {}, warn() {}, error() {} };

/**
 * A log this long or shorter has every entry's hash checked when it is opened; a longer one
 * the entries after its newest snapshot (the rest in the background).
 */
const CHECK_AT_OPEN = 200;

/** At most this many automatic moves in a row for one absent seat (one reminder tick). */
const MAX_AUTO_MOVES = 100;

export class GameService {
  readonly links: Links;
  readonly registry: AnyRules[];
  readonly store: GameStore;
  private now: () => Date;
  private listeners: GameEventListener[] = [];
  private logger: ServiceLogger;
  /**
   * Opened games, at most maxOpenGames (lru-cache lets go of the one used
   * longest ago). One evicted while a change holds its lock is parked until the
   * lock is released, so that the change and the next open see the same object.
   */
  private games: LRUCache<string, LoadedGame>;
  private parked = new Map<string, LoadedGame>();
  private maxOpenGames: number;
  private confirmOrganiser: boolean;
  private expiry: { unconfirmedHours: number; openDays: number };
  private loading = new Map<string, Promise<LoadedGame>>();
  /** On a shared store, the read that starts when the one in `loading` ends (open). */
  private nextLoading = new Map<string, Promise<LoadedGame>>();
  /** Writes made without the game in memory (logReminder), until durable: opens wait for them. */
  private writing = new Map<string, Promise<void>>();
  private locks = new Map<string, Promise<void>>();
  private pendingListeners = new Set<Promise<void>>();
  /** Key hash -> what it opened (openByKey), a cache: every use is checked against the game read. */
  private keyTargets = new LRUCache<string, KeyTarget>({ max: 50_000 });
  /** Games found damaged after they were opened (checkOlderEntries): refused until the server restarts. */
  private damagedGames = new Map<string, { seq: number; why: string }>();

  constructor(opts: GameServiceOptions) {
    this.store = opts.store;
    this.registry = opts.registry;
    this.links = opts.links;
    this.now = opts.now ?? (() => new Date());
    this.logger = opts.logger ?? silent;
    this.maxOpenGames = opts.maxOpenGames ?? 5_000;
    this.games = new LRUCache<string, LoadedGame>({
      max: this.maxOpenGames,
      dispose: (game, id, reason) => {
        if (reason === 'evict' && this.locks.has(id)) this.parked.set(id, game);
      },
    });
    this.confirmOrganiser = opts.confirmOrganiser ?? false;
    this.expiry = opts.expiry ?? DEFAULT_EXPIRY;
    if (opts.onEvent) this.listeners.push(...(Array.isArray(opts.onEvent) ? opts.onEvent : [opts.onEvent]));
  }

  async init(): Promise<void> {
    await this.store.open();
  }

  on(listener: GameEventListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  async settled(): Promise<void> {
    while (this.pendingListeners.size > 0) await Promise.allSettled([...this.pendingListeners]);
  }

  rulesOf(id: string): AnyRules | undefined {
    return this.registry.find((r) => r.id === id);
  }

  // ---- lookups -------------------------------------------------------------

  async resolveKey(key: string): Promise<KeyTarget | null> {
    const target = await this.findKey(key);
    return target?.role === 'retired' ? null : target;
  }

  /** What a key opens, a retired seat's key included (role 'retired'). */
  private async findKey(key: string): Promise<KeyTarget | null> {
    if (typeof key !== 'string' || !looksLikeKey(key)) return null;
    return this.store.findKey(keyHash(key));
  }

  /** Resolves a key and checks it against the game's document (constant time); 404 otherwise. */
  async openByKey(key: string, roles: KeyRole[]): Promise<{ game: LoadedGame; target: KeyTarget }> {
    if (typeof key !== 'string' || !looksLikeKey(key)) throw notFound();
    const hash = keyHash(key);
    // A key this process resolved before: its game is read (and, on a shared store, checked
    // against the store) and the key checked against the game just read, so that one read
    // serves both. A key belongs to one game for ever; if its role or seat no longer match
    // (a retired seat, a new key), the store is asked again below.
    const known = this.keyTargets.get(hash);
    if (known && known.role !== 'retired' && roles.includes(known.role)) {
      const game = await this.open(known.gameId);
      if (keyOpens(game.doc, known, hash)) return { game, target: known };
      this.keyTargets.delete(hash);
    }
    const target = await this.store.findKey(hash);
    if (target?.role === 'retired' && roles.includes('seat')) throw await this.retiredSeatError(key, target.gameId);
    if (!target || target.role === 'retired' || !roles.includes(target.role)) throw notFound();
    const game = await this.open(target.gameId);
    if (!keyOpens(game.doc, target, hash)) throw notFound();
    this.keyTargets.set(hash, target);
    return { game, target };
  }

  /**
   * Decides a change a link key asks for (a move): `decide` gets the game and the key's target,
   * and may throw a refusal (a ServiceError 4xx) only before it writes. The one place of the
   * optimistic-copy rule. On a shared store (PostgreSQL, several processes), a game this
   * process holds and a key it resolved before are decided on as held, without reading the
   * store first (a move is then one round trip: its append). That is safe because:
   * - the append is conditional on the game's row as this process last read or wrote it
   *   (Append.onlyIfUnchanged): if another process wrote anything since (a move, a retired
   *   seat or key, standing orders, settings), nothing is written and the write is refused;
   * - any refusal decided on the held copy (409 moved on, 400 illegal, a stale write) is
   *   decided again on a fresh read, through openByKey (which checks the key against the game
   *   as read: a key retired elsewhere answers 404 or 410 then), so nobody is refused because
   *   this process was behind, and a stale copy never writes.
   * A decision on a fresh read that loses the race to another process's write is decided once
   * more on a fresh read, as `move` does for callers without a key. `onRefused` answers a
   * refusal of the final decision with the game it was decided on (a page shows it).
   */
  async decideOnKey<T>(
    key: string,
    roles: KeyRole[],
    decide: (game: LoadedGame, target: KeyTarget) => Promise<T>,
    onRefused?: (err: ServiceError, game: LoadedGame, target: KeyTarget) => Promise<T>,
  ): Promise<T> {
    const held = this.heldByKey(key, roles);
    if (held) {
      try {
        return await decide(held.game, held.target);
      } catch (err) {
        if (!isRefusal(err)) throw err;
      }
    }
    for (let attempt = 0; ; attempt++) {
      const { game, target } = await this.openByKey(key, roles);
      try {
        return await decide(game, target);
      } catch (err) {
        if (err instanceof StaleWriteError && attempt === 0) continue;
        if (onRefused && err instanceof ServiceError) return onRefused(err, game, target);
        throw err;
      }
    }
  }

  /**
   * The game a key opens as this process holds it, without reading the store (decideOnKey):
   * only on a shared store (elsewhere the game held is the game), for a key resolved before
   * that the held game still lists, and not while the game is being read or written.
   */
  private heldByKey(key: string, roles: KeyRole[]): { game: LoadedGame; target: KeyTarget } | null {
    if (!this.store.shared || typeof key !== 'string' || !looksLikeKey(key)) return null;
    const hash = keyHash(key);
    const target = this.keyTargets.get(hash);
    if (!target || target.role === 'retired' || !roles.includes(target.role)) return null;
    const id = target.gameId;
    if (this.loading.has(id) || this.writing.has(id) || this.damagedGames.has(id)) return null;
    const game = this.games.get(id);
    if (!game || !keyOpens(game.doc, target, hash)) return null;
    return { game, target };
  }

  /**
   * The answer to the link of a player removed from their seat: 410, in words (which game,
   * when, by whom). Checked against the game's record of retired seats; 404 otherwise.
   */
  private async retiredSeatError(key: string, gameId: string): Promise<ServiceError> {
    const game = await this.open(gameId);
    const r = (game.doc.retiredSeats ?? []).find((x) => keyMatches(key, x.keyHash));
    if (!r) return notFound();
    const when = r.at.slice(0, 10);
    const over =
      game.doc.status === 'finished'
        ? ' The game has since ended.'
        : game.doc.status === 'abandoned'
          ? ' The game was since abandoned.'
          : '';
    return new ServiceError(
      410,
      `${r.name}, your seat in ${game.doc.title} was given up: ${r.by}, who organises the game, opened it for a new player on ${when}. This link no longer plays; nothing you had is lost to the others, and somebody new plays on from where the seat stood.${over}`,
    );
  }

  listGames(query: GameQuery): Promise<{ entries: IndexEntry[]; total: number }> {
    return this.store.listGames(query);
  }

  /** Every game's id, last seq and attention (the mail's catch-up at start). */
  async logEnds(): Promise<readonly LogEnd[]> {
    return this.store.logEnds
      ? this.store.logEnds()
      : (await this.store.listGames({ limit: Number.POSITIVE_INFINITY })).entries;
  }

  /** Every game's index row, newest first (for tools and tests; pages use listPublic). */
  async list(): Promise<IndexEntry[]> {
    return (await this.store.listGames({ limit: Number.POSITIVE_INFINITY })).entries;
  }

  entry(gameId: string): Promise<IndexEntry | null> {
    return this.store.entry(gameId);
  }

  async listPublic(limit = 100): Promise<{
    open: IndexEntry[];
    running: IndexEntry[];
    /** Running games with a seat reopened for a new player. */
    seatsFree: IndexEntry[];
    openTotal: number;
    runningTotal: number;
    seatsFreeTotal: number;
  }> {
    const [open, running, seatsFree] = await Promise.all([
      this.store.listGames({ status: 'open', listed: true, freeSeats: true, limit }),
      this.store.listGames({ status: 'active', listed: true, limit }),
      this.store.listGames({ status: 'active', listed: true, freeSeats: true, limit }),
    ]);
    return {
      open: open.entries,
      running: running.entries,
      seatsFree: seatsFree.entries,
      openTotal: open.total,
      runningTotal: running.total,
      seatsFreeTotal: seatsFree.total,
    };
  }

  dueReminders(now: Date = this.now(), limit?: number): Promise<IndexEntry[]> {
    return this.store.dueReminders(now.toISOString(), limit);
  }

  async open(gameId: string): Promise<LoadedGame> {
    const cached = this.games.get(gameId) ?? this.parked.get(gameId);
    if (cached && !this.store.shared) {
      this.keep(cached);
      return cached;
    }
    const inFlight = this.loading.get(gameId);
    if (!inFlight) return this.startLoad(gameId);
    if (!this.store.shared) return inFlight;
    // On a shared store a read already in flight may have been sent before another process
    // wrote a change this caller has seen acknowledged (a move made through the other server
    // just before this request). Its answer would be older than the request, so the caller
    // waits for the next read, which starts once this one ends; every caller arriving
    // meanwhile shares it, so a burst of requests still makes two reads, not one each.
    let next = this.nextLoading.get(gameId);
    if (!next) {
      const after = () => {
        this.nextLoading.delete(gameId);
        // A read started since the one in flight ended was sent after this caller arrived.
        return this.loading.get(gameId) ?? this.startLoad(gameId);
      };
      next = inFlight.then(after, after);
      this.nextLoading.set(gameId, next);
    }
    return next;
  }

  /** Reads the game (after a write of this process still in progress), as the one read in flight. */
  private startLoad(gameId: string): Promise<LoadedGame> {
    const cached = this.games.get(gameId) ?? this.parked.get(gameId);
    const written = this.writing.get(gameId);
    const read = () => (cached ? this.catchUp(cached) : this.loadGame(gameId));
    const p = (written ? written.then(read) : read()).finally(() => this.loading.delete(gameId));
    this.loading.set(gameId, p);
    return p;
  }

  /**
   * With a store other processes write too (store.shared), a game kept in memory is checked
   * against the store before it is used, in one read that brings only what this process missed:
   * nothing when the game is as we have it; else the entries another process appended, applied
   * to the state in memory (only those moves are replayed). An undo, a gap or a replay problem
   * reads the game afresh.
   */
  private async catchUp(game: LoadedGame): Promise<LoadedGame> {
    const gameId = game.doc.id;
    // The document as held now (a move of this process may follow it while the store answers).
    const held = game.doc;
    const length = logLength(held);
    const last = lastEntry(held);
    let read: GameRead | null;
    try {
      read = await this.store.readGame(gameId, length);
    } catch {
      this.letGo(game);
      return this.loadGame(gameId);
    }
    if (!read) {
      this.letGo(game);
      throw notFound();
    }
    const { row, entries, meta } = read;
    if (entries.length === 0 && row.lastSeq === length && row.lastHash === (last?.hash ?? '')) {
      if (row.updatedAt === held.updatedAt && (row.privateRev ?? 0) === (held.privateRev ?? 0)) {
        this.keep(game);
        return game;
      }
      // Only the metadata changed (settings, attention, standing orders): same log, same state.
      const doc = owned({ ...meta, rulesVersion: meta.rulesVersion ?? 1, log: takeLog(held) });
      const moved: LoadedGame = { ...game, doc };
      this.letGo(game);
      this.keep(moved);
      return moved;
    }
    const fresh = this.caughtUp(game, meta, entries);
    this.letGo(game);
    if (!fresh) return this.loadGame(gameId);
    this.keep(fresh);
    return fresh;
  }

  /** The game with `entries` (appended elsewhere) applied to the state in memory; null to read afresh. */
  private caughtUp(game: LoadedGame, meta: GameMeta, entries: LogEntry[]): LoadedGame | null {
    const held = game.doc;
    if (!game.state || game.attention || entries[0]?.seq !== logLength(held) + 1) return null;
    if (entries.some((e) => e.kind === 'undo')) return null;
    // The entries held were checked when read: only the new ones, and their link to them.
    if ((meta.rulesVersion ?? 1) !== held.rulesVersion || !continues(lastEntry(held), entries)) return null;
    const log = takeLog(held);
    log.push(...entries);
    const doc: GameDoc = owned({ ...meta, rulesVersion: meta.rulesVersion ?? 1, log });
    const replayed = replayTo(doc, game.rules, log.length, {
      live: { seq: game.stateSeq, state: cloneState(game.state) },
      snapshotEvery: SNAPSHOT_EVERY,
    });
    if (replayed.problem || !replayed.state || replayed.from !== game.stateSeq) return null;
    const fresh: LoadedGame = {
      doc,
      rules: game.rules,
      state: replayed.state,
      stateSeq: lastStateSeq(log),
      attention: null,
      base: game.base,
      older: game.older,
    };
    this.keepSnapshots(fresh, replayed, null);
    return fresh;
  }

  private async loadGame(gameId: string): Promise<LoadedGame> {
    const known = this.damagedGames.get(gameId);
    if (known) throw this.damaged(gameId, known);
    let read: GameRead | null;
    try {
      read = await this.store.readGame(gameId, 0, { snapshot: true });
    } catch (err) {
      if (err instanceof DamagedGameError) {
        this.logger.error({ gameId, file: err.file, err: err.message }, 'damaged game file');
        throw new ServiceError(503, `This game's file is damaged (${err.file}); the server's keeper has been told.`);
      }
      if (err instanceof StoreFormatError) throw new ServiceError(503, err.message);
      throw err;
    }
    if (!read) throw notFound();
    const { meta, entries: log } = read;
    // The links of the whole chain and the hashes of the entries a replay from the newest
    // snapshot reads are checked now; the older entries' hashes right after (checkOlderEntries).
    const base = read.snapshot ? await this.snapshotFor(gameId, log, log.length, log.length, read.snapshot) : null;
    const checkedFrom = log.length > CHECK_AT_OPEN && base ? base.seq : 0;
    const broken = checkChain(log, checkedFrom);
    if (broken) throw this.damaged(gameId, broken);
    const doc: GameDoc = owned({ ...meta, rulesVersion: meta.rulesVersion ?? 1, log });
    const rules = this.rulesOf(doc.rules);
    if (!rules) throw new ServiceError(503, `This server no longer has the rules for "${doc.rules}".`);
    const game: LoadedGame = { doc, rules, state: null, stateSeq: lastStateSeq(log), attention: null, base: null };
    const replayed = replayTo(doc, rules, log.length, { base, snapshotEvery: SNAPSHOT_EVERY });
    this.keepSnapshots(game, replayed, base);
    game.state = replayed.state;
    game.attention = replayed.problem;
    // The state before the last move (a take-back's, asked by the seat's page) replays from a
    // snapshot before that move: when the newest is not, the one before the move is read now.
    const last = game.base && game.state !== null ? lastEffectiveMove(log) : undefined;
    if (last && last.seq <= game.base!.seq && !(game.older && game.older.seq < last.seq))
      game.older = await this.snapshotFor(gameId, log, last.seq - 1);
    this.keep(game);
    if ((doc.attention ?? null) !== game.attention) await this.markAttention(game);
    if (checkedFrom > 0) this.track(this.checkOlderEntries(game, checkedFrom));
    return game;
  }

  private damaged(gameId: string, broken: { seq: number; why: string }): ServiceError {
    this.logger.error({ gameId, seq: broken.seq, err: broken.why }, 'damaged game log');
    return new ServiceError(
      503,
      `This game's log is damaged at entry ${broken.seq} (${broken.why}); the server's keeper has been told.`,
    );
  }

  /**
   * The hashes of a long game's entries before `upto`, checked a hundred at a time
   * between other work (a cold open does not wait for them); a broken one lets go
   * of the game, so the next open finds it damaged.
   */
  private async checkOlderEntries(game: LoadedGame, upto: number): Promise<void> {
    const log = game.doc.log;
    for (let i = 0; i < upto; i++) {
      if (i % 100 === 99) await new Promise((r) => setImmediate(r));
      const broken = checkEntry(log[i]!);
      if (broken) {
        this.damaged(game.doc.id, broken);
        this.letGo(game);
        this.damagedGames.set(game.doc.id, broken);
        return;
      }
    }
  }

  /** Keeps a promise for settled() (listeners, snapshot writes, background checks). */
  private track(p: Promise<unknown>): void {
    const q = p.then(
      () => {},
      () => {},
    );
    this.pendingListeners.add(q);
    void q.finally(() => this.pendingListeners.delete(q));
  }

  /**
   * The newest stored snapshot a replay of `log` to `upto` can start from, at or before `seq`
   * (a cache: any failure is none). One whose move was taken back since is passed over for the
   * one before it (a few at most), so a take-back does not send every read back to the seed.
   */
  private async snapshotFor(
    gameId: string,
    log: LogEntry[],
    upto: number,
    seq = upto,
    found?: Snapshot | null,
  ): Promise<Snapshot | null> {
    try {
      let snap = found === undefined ? await this.store.readSnapshot(gameId, seq) : found;
      for (let tries = 0; snap && !replaysFrom(log, snap.seq, upto); tries++)
        snap = tries < 3 && snap.seq > 1 ? await this.store.readSnapshot(gameId, snap.seq - 1) : null;
      return snap;
    } catch {
      return null;
    }
  }

  /** Stores the snapshots a replay made (not waited for: a cache) and remembers the newest. */
  private keepSnapshots(game: LoadedGame, replayed: Replayed, base: Snapshot | null): void {
    const newest = replayed.snapshots[replayed.snapshots.length - 1];
    const was = game.base;
    if (replayed.from > 0 && base && (!game.base || base.seq > game.base.seq)) game.base = base;
    if (newest && (!game.base || newest.seq > game.base.seq)) game.base = newest;
    if (game.base !== was) {
      const second = game.base === newest ? replayed.snapshots[replayed.snapshots.length - 2] : undefined;
      game.older = second && (!was || second.seq > was.seq) ? second : (was ?? game.older);
    }
    for (const snap of replayed.snapshots) {
      this.track(
        this.store
          .saveSnapshot(game.doc.id, snap)
          .catch((err) => this.logger.warn({ gameId: game.doc.id, err: String(err) }, 'snapshot not kept')),
      );
    }
  }

  /** Records (or clears) the game's need of attention in its metadata, and tells the server's keeper. */
  private async markAttention(game: LoadedGame): Promise<void> {
    const gameId = game.doc.id;
    const attention = game.attention;
    if (attention) this.logger.error({ gameId, attention }, 'game needs attention');
    else this.logger.info({ gameId }, 'game replays again; attention cleared');
    // Not under the game's lock (a change that opens the game holds it already);
    // a write that lands first makes this one stale, and the next open decides again.
    const before = game.doc;
    const next = derive(before, { attention });
    try {
      await this.commit(before, next);
      game.doc = next;
    } catch (err) {
      this.logger.warn({ gameId, err: String(err) }, 'attention not recorded');
    }
    if (attention) this.emit({ type: 'attention', gameId, at: this.now().toISOString(), reason: attention });
  }

  // ---- changes -------------------------------------------------------------

  async create(input: CreateInput): Promise<CreatedGame> {
    const rules = this.rulesOf(input.rules);
    if (!rules) throw new ServiceError(400, `There is no game called "${input.rules}" here.`);
    const seats = input.seats;
    if (!Number.isInteger(seats) || seats < rules.players.min || seats > rules.players.max) {
      throw new ServiceError(400, `${rules.title} takes ${rules.players.min} to ${rules.players.max} players.`);
    }
    const options = checkOptions(rules, input.options ?? {});
    const name = cleanName(input.name);
    const now = this.now().toISOString();
    const id = randomBytes(9).toString('base64url');
    const seed = randomBytes(32).toString('hex');
    const seedHash = sha256(seed);
    const l = this.links;
    const admin = l.issue(id, 'admin');
    const spectator = l.issue(id, 'spectator');
    const invite = l.issue(id, 'invite');
    const confirm = this.confirmOrganiser ? l.issue(id, 'confirm') : null;
    const invited = (input.invite ?? []).filter((e) => e.trim() !== '');
    const doc: GameDoc = {
      id,
      rules: rules.id,
      title: rules.title,
      options,
      createdAt: now,
      updatedAt: now,
      status: 'open',
      listed: input.listed ?? true,
      seatCount: seats,
      seedHash,
      seed,
      creator: { name, email: input.email },
      creatorSlot: input.join ? 0 : null,
      adminKeyHash: admin.hash,
      spectatorKeyHash: spectator.hash,
      inviteKeyHash: invite.hash,
      adminKeySealed: admin.sealed,
      spectatorKeySealed: spectator.sealed,
      inviteKeySealed: invite.sealed,
      ...(confirm
        ? { confirmed: false, confirmKeyHash: confirm.hash, confirmKeySealed: confirm.sealed, pendingInvites: invited }
        : {}),
      inviteGeneration: 0,
      seats: [],
      policy: { ...(input.policy ?? DEFAULT_POLICY) },
      wait: null,
      outcome: null,
      rulesVersion: rules.version,
      log: [],
    };
    owned(doc);
    append(doc, {
      at: now,
      kind: 'create',
      rulesVersion: rules.version,
      text: `${name} created a game of ${rules.title} for ${seats} players`,
      data: { rules: rules.id, options, seatCount: seats, seedHash },
    });
    let seatKey: string | null = null;
    if (input.join) {
      const own = this.newSeat(id, 0, 0, name, input.email, now);
      doc.seats.push(own.record);
      append(doc, { at: now, kind: 'join', seat: 0, text: `${name} took a seat`, data: { slot: 0 } });
      seatKey = own.key;
    }
    await this.commit(null, doc);
    const game: LoadedGame = { doc, rules, state: null, stateSeq: 0, attention: null, base: null };
    this.keep(game);
    this.logger.info({ gameId: id, rules: rules.id, event: 'created' }, 'game created');
    this.emit({ type: 'created', gameId: id, at: now });
    if (seatKey) this.emit({ type: 'joined', gameId: id, at: now, seat: 0, name });
    if (invited.length > 0 && !confirm)
      this.emit({ type: 'invited', gameId: id, at: now, emails: invited, inviteGeneration: 0 });
    return { gameId: id, adminKey: admin.key, inviteKey: invite.key, spectatorKey: spectator.key, seatKey };
  }

  /**
   * A game moved here from elsewhere (an 18xx.games import): the seats in the given order (no
   * drawn order), started, then each action played as a move exactly as `move` would (same
   * checks, same sealed entries), written once at the end. Refused as a whole if any action
   * does not apply. Returns the usual keys plus every seat's key, in seat order.
   */
  async importGame(input: {
    rules: string;
    options?: Options;
    creator: { name: string; email: string };
    seats: { name: string; email: string }[];
    actions: { seat: Seat; action: unknown }[];
    listed?: boolean;
    source?: string;
  }): Promise<CreatedGame & { seatKeys: string[] }> {
    const rules = this.rulesOf(input.rules);
    if (!rules) throw new ServiceError(400, `There is no game called "${input.rules}" here.`);
    const n = input.seats.length;
    if (n < rules.players.min || n > rules.players.max)
      throw new ServiceError(400, `${rules.title} takes ${rules.players.min} to ${rules.players.max} players.`);
    const options = checkOptions(rules, input.options ?? {});
    const creatorName = cleanName(input.creator.name);
    const names = input.seats.map((p) => cleanName(p.name));
    if (names.some((x, i) => names.slice(0, i).some((y) => looksLike(x, y))))
      throw new ServiceError(400, 'Two players have names that look the same; please make the names differ.');
    const now = this.now().toISOString();
    const id = randomBytes(9).toString('base64url');
    const seed = randomBytes(32).toString('hex');
    const seedHash = sha256(seed);
    const l = this.links;
    const admin = l.issue(id, 'admin');
    const spectator = l.issue(id, 'spectator');
    const creatorIdx = input.seats.findIndex((p) => p.email.toLowerCase() === input.creator.email.toLowerCase());
    let doc: GameDoc = {
      id,
      rules: rules.id,
      title: rules.title,
      options,
      createdAt: now,
      updatedAt: now,
      status: 'open',
      listed: input.listed ?? false,
      seatCount: n,
      seedHash,
      seed,
      creator: { name: creatorName, email: input.creator.email },
      creatorSlot: creatorIdx >= 0 ? creatorIdx : null,
      adminKeyHash: admin.hash,
      spectatorKeyHash: spectator.hash,
      inviteKeyHash: null,
      adminKeySealed: admin.sealed,
      spectatorKeySealed: spectator.sealed,
      inviteKeySealed: null,
      inviteGeneration: 0,
      seats: [],
      policy: { ...DEFAULT_POLICY },
      wait: null,
      outcome: null,
      rulesVersion: rules.version,
      log: [],
    };
    owned(doc);
    const from = input.source ? ` from ${input.source}` : '';
    append(doc, {
      at: now,
      kind: 'create',
      rulesVersion: rules.version,
      text: `${creatorName} moved a game of ${rules.title} for ${n} players here${from}`,
      data: { rules: rules.id, options, seatCount: n, seedHash, imported: input.source ?? true },
    });
    const seatKeys: string[] = [];
    input.seats.forEach((p, slot) => {
      const issued = this.newSeat(id, slot, 0, names[slot]!, p.email, now);
      doc.seats.push(issued.record);
      seatKeys.push(issued.key);
      append(doc, { at: now, kind: 'join', seat: slot, text: `${names[slot]} took a seat`, data: { slot } });
    });
    const game: LoadedGame = { doc, rules, state: null, stateSeq: 0, attention: null, base: null };
    const started = this.startDoc(
      game,
      doc,
      now,
      input.seats.map((_, i) => i),
    );
    doc = started.doc;
    let state = started.state;
    // Playing a long game's actions takes a while: other requests are served every few milliseconds.
    let slice = performance.now();
    for (let i = 0; i < input.actions.length; i++) {
      if (performance.now() - slice > 5) {
        await new Promise((r) => setImmediate(r));
        slice = performance.now();
      }
      const { seat, action } = input.actions[i]!;
      if (doc.status !== 'active')
        throw new ServiceError(400, `Action ${i + 1} of the import comes after the end of the game.`);
      try {
        const played = this.playOnDoc(doc, rules, state, seat, action, now, {});
        doc = played.nextDoc;
        state = played.next;
      } catch (err) {
        throw new ServiceError(400, `Action ${i + 1} of the import does not apply here: ${(err as Error).message}`);
      }
    }
    await this.commit(null, doc);
    game.doc = doc;
    game.state = state;
    game.stateSeq = lastStateSeq(doc.log);
    this.keep(game);
    this.logger.info(
      { gameId: id, rules: rules.id, event: 'imported', actions: input.actions.length },
      'game imported',
    );
    this.emit({ type: 'created', gameId: id, at: now });
    this.emit({ type: 'started', gameId: id, at: now, toAct: doc.wait?.toAct ?? [] });
    if (doc.status === 'finished') this.emit({ type: 'finished', gameId: id, at: now });
    return {
      gameId: id,
      adminKey: admin.key,
      inviteKey: '',
      spectatorKey: spectator.key,
      seatKey: creatorIdx >= 0 ? seatKeys[creatorIdx]! : null,
      seatKeys: doc.seats.map((s) => seatKeys[s.slot]!),
    };
  }

  async join(gameId: string, person: { name: string; email: string }): Promise<{ seat: number; seatKey: string }> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const doc = game.doc;
      if (doc.confirmed === false)
        throw new ServiceError(
          409,
          'The organiser has not confirmed this game yet (a link in the mail they got); seats open once they have.',
        );
      const name = cleanName(person.name);
      const twin = doc.seats.find((s) => !s.vacant && looksLike(s.name, name));
      if (twin) {
        throw new ServiceError(
          409,
          twin.name === name
            ? `Somebody called ${name} already sits at this table; please pick another name.`
            : `${twin.name} already sits at this table, and "${name}" looks the same; please pick another name.`,
        );
      }
      const now = this.now().toISOString();
      const events: GameEvent[] = [];
      let seat: number;
      let seatRec: SeatRecord;
      let seatKey: string;
      if (doc.status === 'open') {
        if (doc.seats.length >= doc.seatCount) throw new ServiceError(409, 'Every seat at this table is taken.');
        // A slot is never given twice, not even one whose player left: mail and the
        // admin page tell players apart by slot and generation.
        const slot = doc.log.reduce((m, e) => (e.kind === 'join' ? Math.max(m, Number(e.data?.slot ?? 0) + 1) : m), 0);
        ({ record: seatRec, key: seatKey } = this.newSeat(doc.id, slot, 0, name, person.email, now));
        seat = doc.seats.length;
        let next = derive(doc, { seats: [...doc.seats, seatRec], updatedAt: now });
        pushEntry(next.log, { at: now, kind: 'join', seat, text: `${name} took a seat`, data: { slot } });
        events.push({ type: 'joined', gameId, at: now, seat, name });
        let state: Opaque = null;
        if (next.seats.length >= next.seatCount) {
          const started = this.startDoc(game, next, now);
          next = started.doc;
          state = started.state;
          seat = next.seats.indexOf(seatRec);
          events.push({ type: 'started', gameId, at: now, toAct: next.wait?.toAct ?? [] });
        }
        await this.commit(game.doc, next);
        game.doc = next;
        if (state !== null) {
          game.state = state;
          game.stateSeq = next.log.length;
        }
      } else if (doc.status === 'active') {
        seat = doc.seats.findIndex((s) => s.vacant);
        if (seat < 0) throw new ServiceError(409, 'Every seat at this table is taken.');
        const old = doc.seats[seat]!;
        ({ record: seatRec, key: seatKey } = this.newSeat(doc.id, old.slot, old.generation, name, person.email, now));
        const seats = doc.seats.map((s, i) => (i === seat ? seatRec : s));
        const stillVacant = seats.some((s) => s.vacant);
        const next = derive(doc, {
          seats,
          updatedAt: now,
          inviteKeyHash: stillVacant ? doc.inviteKeyHash : null,
          inviteKeySealed: stillVacant ? doc.inviteKeySealed : null,
        });
        pushEntry(next.log, {
          at: now,
          kind: 'join',
          seat,
          text: `${name} took over seat ${seat + 1}`,
          data: { slot: old.slot },
        });
        // Play resumes: the standing orders of the seats to act play now, in the same write.
        const chain = stillVacant || game.attention ? null : this.standingOrders(next, game.rules, game.state, now);
        await this.commit(game.doc, chain?.doc ?? next);
        game.doc = chain?.doc ?? next;
        if (chain && chain.played.length > 0) {
          game.before = undefined;
          game.state = chain.state;
          game.stateSeq = chain.played[chain.played.length - 1]!.entry.seq;
        }
        events.push({ type: 'joined', gameId, at: now, seat, name });
        if (chain) this.announceProgrammed(game, chain, now);
      } else {
        throw new ServiceError(409, doc.status === 'finished' ? 'This game is over.' : 'This game was abandoned.');
      }
      this.logger.info({ gameId, event: 'joined', seat }, 'seat taken');
      for (const e of events) this.emit(e);
      return { seat, seatKey };
    });
  }

  async start(gameId: string): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const doc = game.doc;
      if (doc.status !== 'open') throw new ServiceError(409, 'This game has already started.');
      if (doc.seats.length < game.rules.players.min) {
        throw new ServiceError(
          409,
          `${game.rules.title} needs at least ${game.rules.players.min} players; ${doc.seats.length} have joined.`,
        );
      }
      const now = this.now().toISOString();
      const started = this.startDoc(game, derive(doc, { updatedAt: now }), now);
      await this.commit(game.doc, started.doc);
      game.doc = started.doc;
      game.state = started.state;
      game.stateSeq = started.doc.log.length;
      this.logger.info({ gameId, event: 'started' }, 'game started');
      this.emit({ type: 'started', gameId, at: now, toAct: started.doc.wait?.toAct ?? [] });
    });
  }

  /** Draws the seat order from the seed (unless given) and sets the game up (no write). */
  private startDoc(game: LoadedGame, doc: GameDoc, now: string, given?: number[]): { doc: GameDoc; state: Opaque } {
    const order = given ?? seatOrder(doc.seed, doc.seats.length);
    const seats = order.map((i) => doc.seats[i]!);
    const state = game.rules.setup(seats.length, doc.seed, doc.options, doc.rulesVersion);
    const toAct = game.rules.toAct(state);
    const next = derive(doc, {
      seats,
      seatCount: seats.length,
      status: 'active',
      inviteKeyHash: null,
      inviteKeySealed: null,
    });
    pushEntry(next.log, {
      at: now,
      kind: 'start',
      stateHash: hashState(doc.seed, state).hash,
      text: `The game started. Seat order: ${seats.map((s) => s.name).join(', ')}`,
      data: { order: seats.map((s) => s.slot), names: seats.map((s) => s.name), toAct },
    });
    next.wait = { toAct, since: now, stateSeq: next.log.length, reminders: 0, escalated: false };
    return { doc: next, state };
  }

  async move(
    gameId: string,
    seat: Seat,
    input: { seq: number; action: unknown },
    opts: { auto?: boolean; opened?: LoadedGame } = {},
  ): Promise<{ seq: number; text: string }> {
    // Another process may have written to the game after we read it (a shared store): the
    // store refuses our write (StaleSeqError), we read the game again and decide once more,
    // so a move still legal is taken and a second click on one link is refused, never doubled.
    // A caller that hands in the game it opened by a key decides again itself (decideOnKey),
    // checking the key against the fresh game too.
    return this.withLock(gameId, () =>
      this.moveLocked(gameId, seat, input, opts).catch((err) => {
        if (!(err instanceof StaleWriteError) || opts.opened) throw err;
        return this.moveLocked(gameId, seat, input, { auto: opts.auto });
      }),
    );
  }

  /**
   * The game to decide a change on: `opened`, when the caller has just opened it (openByKey
   * read it from a shared store for this request) and it is still the object this process
   * holds, so that one read serves the request; else opened now. Deciding on it is safe
   * because the write is conditional: if another process wrote since, the store refuses it
   * and the change is decided again on a fresh read.
   */
  private async current(gameId: string, opened?: LoadedGame): Promise<LoadedGame> {
    if (opened && (this.games.peek(gameId) ?? this.parked.get(gameId)) === opened) {
      this.keep(opened);
      return opened;
    }
    return this.open(gameId);
  }

  private async moveLocked(
    gameId: string,
    seat: Seat,
    input: { seq: number; action: unknown },
    opts: { auto?: boolean; opened?: LoadedGame },
  ): Promise<{ seq: number; text: string }> {
    const game = await this.current(gameId, opts.opened);
    const { doc, rules } = game;
    this.checkPlaying(game, seat);
    const toAct = rules.toAct(game.state);
    if (input.seq !== game.stateSeq) {
      if (!acceptsOlderSeq(doc.log, input.seq, game.stateSeq, seat, toAct)) {
        throw new ServiceError(
          409,
          input.seq < game.stateSeq
            ? 'The game has moved on since this page was made; nothing was played. Look at the new position and choose again.'
            : 'That move was made against a position this game has not reached.',
        );
      }
    }
    const now = this.now().toISOString();
    const { nextDoc, next, moveEntry, nextToAct, outcome, text } = this.playOnDoc(
      doc,
      rules,
      game.state,
      seat,
      input.action,
      now,
      opts,
    );
    // The standing orders of the seats to act next play in the same write (server/orders.ts).
    const chain = this.standingOrders(nextDoc, rules, next, now, seat);
    // Decided on the game as held (perhaps not read in this request: decideOnKey): written only
    // if nobody changed it since, its metadata (standing orders, seats) included.
    await this.commit(game.doc, chain.doc, { onlyIfUnchanged: true });
    game.before = chain.played.length === 0 ? { seq: moveEntry.seq, state: game.state } : undefined;
    game.doc = chain.doc;
    game.state = chain.state;
    game.stateSeq = chain.played[chain.played.length - 1]?.entry.seq ?? moveEntry.seq;
    this.snapshotIfDue(game, moveEntry);
    this.logger.info({ gameId, event: 'moved', seq: moveEntry.seq, seat, auto: !!opts.auto }, 'move');
    this.emit({ type: 'moved', gameId, at: now, seq: moveEntry.seq, seat, auto: !!opts.auto, toAct: nextToAct });
    if (outcome) this.emit({ type: 'finished', gameId, at: now });
    this.announceProgrammed(game, chain, now);
    return { seq: moveEntry.seq, text };
  }

  /** Runs the standing orders after a move (or an order left) on a document in memory (no write). */
  private standingOrders(
    doc: GameDoc,
    rules: AnyRules,
    state: Opaque,
    now: string,
    exclude?: Seat,
    quietUntilMoved = false,
  ): ChainResult {
    return playStandingOrders(doc, rules, state, {
      now,
      exclude,
      quietUntilMoved,
      play: (d, st, seat, action) => this.playOnDoc(d, rules, st, seat, action, now, { programmed: true }),
    });
  }

  /** The events and log lines of the moves standing orders played (after their write). */
  private announceProgrammed(game: LoadedGame, chain: ChainResult, now: string): void {
    const gameId = game.doc.id;
    for (const p of chain.played) {
      this.snapshotIfDue(game, p.entry);
      this.logger.info({ gameId, event: 'moved', seq: p.entry.seq, seat: p.seat, programmed: true }, 'move');
      this.emit({
        type: 'moved',
        gameId,
        at: now,
        seq: p.entry.seq,
        seat: p.seat,
        auto: false,
        programmed: true,
        toAct: p.toAct,
      });
      if (p.outcome) this.emit({ type: 'finished', gameId, at: now });
    }
  }

  /**
   * Leaves a standing order for a seat (the rules check it against the position now): kept in the
   * seat's record, and played at once if the seat is to act. An order that would stop at once is
   * refused in words, and nothing is written.
   */
  async leaveOrder(gameId: string, seat: Seat, spec: unknown): Promise<{ id: string; text: string; played: number }> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkPlaying(game, seat);
      const { rules } = game;
      if (!rules.orders) throw new ServiceError(400, `${rules.title} takes no standing orders here.`);
      let order: ReturnType<NonNullable<AnyRules['orders']>['arm']>;
      try {
        order = rules.orders.arm(game.state, seat, spec);
      } catch (err) {
        if (err instanceof RuleError) throw new ServiceError(400, err.message);
        throw err;
      }
      const now = this.now().toISOString();
      const text = rules.orders.describe(order);
      const armed = withOrder(game.doc, seat, order, text, now);
      const id = armed.seats[seat]!.orders!.armed.at(-1)!.id;
      // Orders that end before any move is played are shown on the page the player is on, not mailed.
      const chain = this.standingOrders(armed, rules, game.state, now, undefined, true);
      const own = chain.ended.find((e) => e.order.id === id);
      if (own && chain.played.length === 0)
        throw new ServiceError(409, `That order would stop at once: ${own.order.why}.`);
      await this.commit(game.doc, chain.doc);
      game.doc = chain.doc;
      if (chain.played.length > 0) {
        game.before = undefined;
        game.state = chain.state;
        game.stateSeq = chain.played[chain.played.length - 1]!.entry.seq;
      }
      this.logger.info({ gameId, event: 'orderLeft', seat, played: chain.played.length }, 'standing order left');
      this.announceProgrammed(game, chain, now);
      return { id, text, played: chain.played.length };
    });
  }

  /** Cancels one of a seat's armed standing orders (404 when it has none such, e.g. it has already ended). */
  async cancelOrder(gameId: string, seat: Seat, id: string): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkSeat(game, seat);
      const next = withoutOrder(game.doc, seat, id, this.now().toISOString());
      if (!next) throw new ServiceError(404, 'That order is no longer standing (it has ended or was cancelled).');
      await this.commit(game.doc, next);
      game.doc = next;
    });
  }

  /** One move on a document in memory (no write): legality, the sealed move entry, the finish entry, the wait. */
  private playOnDoc(
    doc: GameDoc,
    rules: AnyRules,
    state: Opaque,
    seat: Seat,
    action: unknown,
    now: string,
    opts: { auto?: boolean; programmed?: boolean },
  ) {
    const toAct = rules.toAct(state);
    if (!toAct.includes(seat)) throw new ServiceError(409, 'It is not your turn.');
    // Played on a copy: a rule error leaves the state in memory as it was, and readers holding
    // the state across an await (a mail being composed, the page of the move before) keep one
    // position throughout, as does game.before (undo, the pictures' before). cloneState copies
    // plain data several times faster than structuredClone.
    const next = cloneState(state);
    try {
      rules.apply(next, seat, action);
    } catch (err) {
      if (err instanceof RuleError) throw new ServiceError(400, err.message);
      this.logger.error({ gameId: doc.id, err: (err as Error).message }, 'rules failed on a move');
      throw new ServiceError(400, 'The rules could not make sense of that move.');
    }
    const described = rules.describe(action, state, seat, next);
    // A move a standing order played is the player's move, marked so in every history.
    const text = opts.programmed ? `${described} (programmed)` : described;
    const nextToAct = rules.toAct(next);
    const outcome = rules.outcome(next);
    const stateHash = hashState(doc.seed, next).hash;
    // The new document takes the log over (shared-log.ts): a move costs its entries, not a
    // copy of the log; `doc` keeps showing its own entries.
    const nextDoc = derive(doc, { updatedAt: now });
    const log = nextDoc.log;
    const moveEntry = pushEntry(log, {
      at: now,
      kind: 'move',
      seat,
      action: action,
      text,
      stateHash,
      data: {
        by: doc.seats[seat]!.name,
        toAct: nextToAct,
        ...(opts.auto ? { auto: true } : {}),
        ...(opts.programmed ? { programmed: true } : {}),
      },
    });
    if (outcome) {
      nextDoc.status = 'finished';
      nextDoc.outcome = outcome;
      const scores = outcome.scores.map((s, i) => `${doc.seats[i]?.name ?? `seat ${i + 1}`} ${s}`).join(', ');
      pushEntry(log, {
        at: now,
        kind: 'finish',
        text: `Game over (${outcome.reason}): ${scores}`,
        data: { outcome, seed: doc.seed },
      });
    }
    nextDoc.wait = nextWait(nextDoc, doc.wait, nextToAct, moveEntry.seq, now);
    return { nextDoc, next, moveEntry, nextToAct, outcome, text };
  }

  /** Whether `seat` may take back its last move now; the reason when not. */
  undoBlocker(game: LoadedGame, seat: Seat): string | null {
    if (game.attention) return 'This game needs attention and cannot go on for now.';
    if (game.doc.status !== 'active') return 'The game is not running.';
    const target = lastEffectiveMove(game.doc.log);
    if (!target || target.seat !== seat) return 'You have no move to take back.';
    const log = game.doc.log;
    for (let i = log.length - 1; i >= 0 && log[i]!.seq > target.seq; i--) {
      const e = log[i]!;
      if ((e.kind === 'move' || e.kind === 'undo') && e.seat !== seat)
        return 'Somebody else has acted since your move.';
    }
    const before = this.stateBefore(game, target.seq);
    if (game.rules.undoable && game.rules.undoable(target.action, before) === false) {
      return 'That move revealed hidden information, so it cannot be taken back.';
    }
    return null;
  }

  async undo(gameId: string, seat: Seat, seq: number): Promise<{ seq: number }> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkSeat(game, seat);
      if (seq !== game.stateSeq)
        throw new ServiceError(409, 'The game has moved on since this page was made; nothing was taken back.');
      const blocker = this.undoBlocker(game, seat);
      if (blocker) throw new ServiceError(409, blocker);
      const target = lastEffectiveMove(game.doc.log)!;
      const now = this.now().toISOString();
      const state = this.stateBefore(game, target.seq);
      const toAct = game.rules.toAct(state);
      const nextDoc = derive(game.doc, { updatedAt: now });
      const entry = pushEntry(nextDoc.log, {
        at: now,
        kind: 'undo',
        seat,
        stateHash: hashState(game.doc.seed, state).hash,
        text: `took back "${target.text ?? 'a move'}"`,
        data: { by: game.doc.seats[seat]!.name, undoes: target.seq, toAct },
      });
      nextDoc.wait = nextWait(nextDoc, game.doc.wait, toAct, entry.seq, now);
      await this.commit(game.doc, nextDoc);
      game.doc = nextDoc;
      game.state = state;
      game.stateSeq = entry.seq;
      game.before = undefined;
      this.logger.info({ gameId, event: 'undone', seq: entry.seq, seat }, 'undo');
      this.emit({ type: 'undone', gameId, at: now, seq: entry.seq, seat, undoneSeq: target.seq, toAct });
      return { seq: entry.seq };
    });
  }

  async reopenSeat(gameId: string, seat: Seat, opts: { email?: string } = {}): Promise<{ inviteKey: string }> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const doc = game.doc;
      if (doc.status === 'finished' || doc.status === 'abandoned')
        throw new ServiceError(409, 'This game is over; its seats stay as they are.');
      const old = doc.seats[seat];
      if (!Number.isInteger(seat) || !old) throw new ServiceError(400, `There is no seat ${seat + 1}.`);
      if (old.vacant) throw new ServiceError(409, `Seat ${seat + 1} is already open.`);
      const now = this.now().toISOString();
      const inviteGeneration = doc.inviteGeneration + 1;
      const invite = this.links.issue(gameId, 'invite');
      const waits = !!opts.email && doc.confirmed === false;
      let seats: SeatRecord[];
      let entry: Omit<LogEntry, 'seq' | 'prev' | 'hash'>;
      if (doc.status === 'open') {
        // Before the start a reopened seat simply leaves the table.
        seats = doc.seats.filter((_, i) => i !== seat);
        entry = {
          at: now,
          kind: 'reopen',
          seat,
          text: `${old.name} left the table`,
          data: { left: true, slot: old.slot, generation: old.generation },
        };
      } else {
        const vacant: SeatRecord = {
          name: `(open seat ${seat + 1})`,
          email: '',
          keyHash: '',
          slot: old.slot,
          generation: old.generation + 1,
          joinedAt: now,
          prefs: {},
          vacant: true,
        };
        seats = doc.seats.map((s, i) => (i === seat ? vacant : s));
        entry = {
          at: now,
          kind: 'reopen',
          seat,
          text: `Seat ${seat + 1} (${old.name}) was reopened for a new player`,
          data: { inviteGeneration, slot: old.slot, generation: old.generation },
        };
      }
      const next = derive(doc, {
        seats,
        updatedAt: now,
        inviteGeneration,
        inviteKeyHash: invite.hash,
        inviteKeySealed: invite.sealed,
        // The creator who gives up their seat no longer has one: the admin page's "your seat" must not
        // lead to whoever sits down there next.
        creatorSlot: doc.creatorSlot === old.slot ? null : doc.creatorSlot,
        // The removed player's old link answers in words (410), and the player is told by mail.
        retiredSeats: [
          ...(doc.retiredSeats ?? []),
          {
            keyHash: old.keyHash,
            name: old.name,
            email: old.email,
            slot: old.slot,
            generation: old.generation,
            at: now,
            by: doc.creator.name,
          },
        ],
        // No invitation leaves before the organiser has confirmed; it waits with the others.
        ...(waits ? { pendingInvites: [...(doc.pendingInvites ?? []), opts.email!] } : {}),
      });
      pushEntry(next.log, entry);
      await this.commit(game.doc, next);
      game.doc = next;
      this.logger.info({ gameId, event: 'seatReopened', seat }, 'seat reopened');
      this.emit({ type: 'seatReopened', gameId, at: now, seat, inviteGeneration });
      if (opts.email && !waits) this.emit({ type: 'invited', gameId, at: now, emails: [opts.email], inviteGeneration });
      return { inviteKey: invite.key };
    });
  }

  async abandon(gameId: string): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const doc = game.doc;
      if (doc.status === 'finished' || doc.status === 'abandoned')
        throw new ServiceError(409, 'This game is already over.');
      const now = this.now().toISOString();
      const next = abandonedDoc(doc, now);
      pushEntry(next.log, { at: now, kind: 'abandon', text: 'The game was abandoned', data: { seed: doc.seed } });
      await this.commit(game.doc, next);
      game.doc = next;
      this.logger.info({ gameId, event: 'abandoned' }, 'game abandoned');
      this.emit({ type: 'abandoned', gameId, at: now });
    });
  }

  /**
   * The organiser proved they own their address (the link in the set-up mail): the invitations
   * waiting for that leave now, and the game is listed if it was to be. Again: nothing.
   */
  async confirm(gameId: string): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const doc = game.doc;
      if (doc.confirmed !== false) return;
      const now = this.now().toISOString();
      const invited = doc.pendingInvites ?? [];
      const next = derive(doc, {
        updatedAt: now,
        confirmed: true,
        confirmKeyHash: null,
        confirmKeySealed: null,
        pendingInvites: [],
      });
      pushEntry(next.log, {
        at: now,
        kind: 'notice',
        text: 'The organiser confirmed their address',
        data: { confirmed: true, invited, inviteGeneration: doc.inviteGeneration },
      });
      await this.commit(doc, next);
      game.doc = next;
      this.logger.info({ gameId, event: 'confirmed' }, 'organiser confirmed');
      if (invited.length > 0 && doc.inviteKeyHash)
        this.emit({ type: 'invited', gameId, at: now, emails: invited, inviteGeneration: doc.inviteGeneration });
    });
  }

  /**
   * Open games nobody confirmed within expiry.unconfirmedHours, or that nobody joined or changed
   * for expiry.openDays, end (status abandoned, links to join retired, off the lists). Read from
   * the index alone. An unconfirmed game ends without mail: its address was never proved.
   */
  async expireStale(now: Date = this.now()): Promise<string[]> {
    const t = now.getTime();
    const open = await this.store.listGames({ status: 'open', limit: Number.POSITIVE_INFINITY });
    const stale = open.entries.filter((e) => {
      if (e.status !== 'open') return false;
      if (e.confirmed === false) return Date.parse(e.createdAt) + this.expiry.unconfirmedHours * 3600_000 <= t;
      return Date.parse(e.updatedAt) + this.expiry.openDays * 86_400_000 <= t;
    });
    const ended: string[] = [];
    for (const e of stale) {
      // Another process sharing the store may end the same game at the same time: its write wins.
      await this.withLock(e.id, async () => {
        const game = await this.open(e.id);
        const doc = game.doc;
        if (doc.status !== 'open') return;
        const quiet = doc.confirmed === false;
        const at = this.now().toISOString();
        const next = abandonedDoc(doc, at);
        pushEntry(next.log, {
          at,
          kind: 'abandon',
          text: quiet
            ? `The game expired: the organiser did not confirm it within ${this.expiry.unconfirmedHours} hours`
            : `The game expired: nobody joined for ${this.expiry.openDays} days`,
          data: { seed: doc.seed, expired: true, ...(quiet ? { quiet: true } : {}) },
        });
        await this.commit(doc, next);
        game.doc = next;
        ended.push(e.id);
        this.logger.info({ gameId: e.id, event: 'expired' }, 'game expired');
        if (!quiet) this.emit({ type: 'abandoned', gameId: e.id, at });
      }).catch((err) => {
        if (!(err instanceof StaleWriteError)) throw err;
      });
    }
    return ended;
  }

  async setPolicy(gameId: string, policy: ReminderPolicy): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const now = this.now().toISOString();
      const p = { ...policy };
      const next = derive(game.doc, { policy: p, updatedAt: now });
      pushEntry(next.log, { at: now, kind: 'policy', text: describePolicy(p), data: { policy: p } });
      await this.commit(game.doc, next);
      game.doc = next;
    });
  }

  /**
   * Logs a non-move entry. 'reminder' counts towards the current wait's
   * reminders; 'notice' with data.escalation = true marks the wait escalated;
   * 'prefs' merges data.prefs into the seat's prefs. Returns the entry's seq.
   */
  async appendNote(
    gameId: string,
    note: {
      kind: 'reminder' | 'notice' | 'prefs';
      seat?: Seat;
      text: string;
      data?: Record<string, unknown>;
      /** Written only if the log still ends at this seq (another process has not written meanwhile); else 409. */
      atSeq?: number;
    },
    /** The game as the caller just opened it (see current()): no second read of it. */
    opts: { opened?: LoadedGame } = {},
  ): Promise<number> {
    return this.withLock(gameId, async () => {
      const game = await this.current(gameId, opts.opened);
      const doc = game.doc;
      if (note.atSeq !== undefined && logLength(doc) !== note.atSeq) throw new StaleWriteError();
      if (note.seat !== undefined && !doc.seats[note.seat])
        throw new ServiceError(400, `There is no seat ${note.seat + 1}.`);
      const now = this.now().toISOString();
      const next = derive(doc, { updatedAt: now });
      const entry = pushEntry(next.log, {
        at: now,
        kind: note.kind,
        seat: note.seat,
        text: note.text,
        data: note.data,
      });
      if (note.kind === 'reminder' && doc.wait) next.wait = { ...doc.wait, reminders: doc.wait.reminders + 1 };
      if (note.kind === 'notice' && note.data?.escalation && doc.wait) next.wait = { ...doc.wait, escalated: true };
      if (note.kind === 'prefs' && note.seat !== undefined) {
        const prefs = (note.data?.prefs ?? {}) as Record<string, unknown>;
        next.seats = doc.seats.map((s, i) => (i === note.seat ? { ...s, prefs: { ...s.prefs, ...prefs } } : s));
      }
      await this.commit(game.doc, next);
      game.doc = next;
      return entry.seq;
    });
  }

  /**
   * Logs a reminder from the game's index row alone (row.remind: the reminder job), without
   * reading or replaying the game: the entry is sealed onto the row's last entry, and the wait
   * the row carries is written back with one more reminder counted. The store writes it only if
   * the game's log still ends at the row's last seq (from this process or another), so a game
   * that moved, or was reminded by another process, since the row was read is not reminded on an
   * old turn: StaleWriteError, nothing written (the next tick decides again). Returns the seq.
   */
  async logReminder(row: IndexEntry, note: { text: string; data: Record<string, unknown> }): Promise<number> {
    const wait = row.remind?.wait;
    if (!wait) throw new Error(`game ${row.id}: its index row carries no reminder schedule`);
    const gameId = row.id;
    return this.withLock(gameId, async () => {
      // A read of this game under way finishes first (so it cannot keep what this write replaces).
      await this.loading.get(gameId)?.catch(() => {});
      const now = this.now().toISOString();
      const entry = sealAfter(row.lastSeq > 0 ? { seq: row.lastSeq, hash: row.lastHash } : undefined, {
        at: now,
        kind: 'reminder',
        text: note.text,
        data: note.data,
        rulesVersion: row.rulesVersion,
      });
      const nextWait = { ...wait, reminders: wait.reminders + 1 };
      const write = this.store.append(gameId, {
        expectedSeq: row.lastSeq,
        entries: [entry],
        meta: { wait: nextWait, updatedAt: now },
      });
      // Until it is durable only the store knows of it: an open of this game waits for it.
      const settled = write.then(
        () => {},
        () => {},
      );
      this.writing.set(gameId, settled);
      const held = this.games.peek(gameId) ?? this.parked.get(gameId);
      try {
        await write;
      } catch (err) {
        // The row was stale, not the copy in memory (if any): it stays.
        if (err instanceof StaleSeqError) throw new StaleWriteError();
        throw err;
      } finally {
        if (this.writing.get(gameId) === settled) this.writing.delete(gameId);
      }
      // The copy in memory gets the entry too when only this process writes (it is then the game
      // the row described). With a shared store it is checked against the store at its next open
      // anyway, which brings the entry and whatever else other processes changed.
      if (held && !this.store.shared) {
        if (logLength(held.doc) === row.lastSeq) {
          const doc = derive(held.doc, { wait: nextWait, updatedAt: now });
          doc.log.push(entry);
          held.doc = doc;
        } else this.letGo(held);
      }
      return entry.seq;
    });
  }

  // ---- replies by mail (server/mail/inbound/) ---------------------------------

  /**
   * The seat whose current reply token this is (constant-time check against every seat), or null:
   * an unknown, retired or renewed token opens nothing.
   */
  async seatByReplyToken(gameId: string, token: string): Promise<{ game: LoadedGame; seat: Seat } | null> {
    if (!looksLikeKey(token)) return null;
    let game: LoadedGame;
    try {
      game = await this.open(gameId);
    } catch (err) {
      if (err instanceof ServiceError && err.status === 404) return null;
      throw err;
    }
    let found: Seat | null = null;
    game.doc.seats.forEach((s, i) => {
      if (!s.vacant && s.replyHash && keyMatches(token, s.replyHash)) found = i;
    });
    return found === null ? null : { game, seat: found };
  }

  /** A new reply token for a seat: the old address is retired for good. Returns the new token. */
  async renewReplyToken(gameId: string, seat: Seat): Promise<string> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkSeat(game, seat);
      const reply = this.links.issue(gameId, 'reply');
      const seats = game.doc.seats.map((s, i) =>
        i === seat ? { ...s, replyHash: reply.hash, replySealed: reply.sealed } : s,
      );
      const next = derive(game.doc, { seats });
      await this.commit(game.doc, next);
      game.doc = next;
      this.logger.info({ gameId, event: 'replyAddressRenewed', seat }, 'reply address renewed');
      return reply.key;
    });
  }

  /** The admin lets replies from these addresses (besides the seat's own) play for the seat; [] withdraws them. */
  async allowReplyFrom(gameId: string, seat: Seat, addresses: string[]): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkSeat(game, seat);
      const clean = [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter((a) => a !== ''))];
      if (clean.some((a) => !/^[^@\s<>]+@[^@\s<>]+$/.test(a)))
        throw new ServiceError(400, 'Give plain mail addresses, such as ada@example.org.');
      const seats = game.doc.seats.map((s, i) => (i === seat ? { ...s, replyFrom: clean } : s));
      const next = derive(game.doc, { seats });
      await this.commit(game.doc, next);
      game.doc = next;
    });
  }

  /**
   * A seat's own settings (mail preferences): private, so kept in the seat's record only, never
   * in the log (which every player downloads). Changes no game state and no time shown in lists.
   */
  async setSeatPrefs(gameId: string, seat: Seat, prefs: Record<string, unknown>): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const doc = game.doc;
      const rec = doc.seats[seat];
      if (!rec || rec.vacant) throw new ServiceError(400, `There is no player in seat ${seat + 1}.`);
      const next = derive(doc, {
        seats: doc.seats.map((s, i) => (i === seat ? { ...s, prefs: { ...s.prefs, ...prefs } } : s)),
        // Private, so not in the log: the revision tells other processes the game changed.
        privateRev: (doc.privateRev ?? 0) + 1,
      });
      await this.commit(doc, next);
      game.doc = next;
    });
  }

  /**
   * Table talk: what a seat says to the table, logged (shown on the pages' history) and
   * announced as a 'talk' event, so every seat receives it in its mail thread.
   */
  async say(gameId: string, seat: Seat, text: string): Promise<{ seq: number }> {
    // Control characters (but line breaks and tabs) are dropped.
    const words = [...text]
      .filter((c) => {
        const code = c.charCodeAt(0);
        return code === 9 || code === 10 || (code >= 32 && code !== 127);
      })
      .join('')
      .trim()
      .slice(0, 2000);
    if (words === '') throw new ServiceError(400, 'There is nothing to say.');
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkSeat(game, seat);
      const status = game.doc.status;
      if (status === 'finished' || status === 'abandoned') throw new ServiceError(409, 'The game is over.');
      const now = this.now().toISOString();
      const name = game.doc.seats[seat]!.name;
      const next = derive(game.doc, { updatedAt: now });
      const entry = pushEntry(next.log, {
        at: now,
        kind: 'notice',
        seat,
        text: `${name} says: ${words}`,
        data: { talk: words, by: name },
      });
      await this.commit(game.doc, next);
      game.doc = next;
      this.logger.info({ gameId, event: 'talk', seat, seq: entry.seq }, 'table talk');
      this.emit({ type: 'talk', gameId, at: now, seq: entry.seq, seat });
      return { seq: entry.seq };
    });
  }

  /**
   * Plays the rules' autoMove for a seat that must act, again and again while that seat still
   * has to act (an 18xx operating turn is several actions), in one write: the absent player is
   * not asked in between, and the table hears of it once. Null if the rules offer no move.
   */
  async playAutoMove(gameId: string, seat: Seat): Promise<{ seq: number; text: string; moves: number } | null> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkPlaying(game, seat);
      const { rules } = game;
      const now = this.now().toISOString();
      let doc = game.doc;
      let state = game.state;
      const played: { entry: LogEntry; toAct: Seat[]; outcome: boolean; text: string }[] = [];
      for (let i = 0; i < MAX_AUTO_MOVES && doc.status === 'active' && rules.toAct(state).includes(seat); i++) {
        const action = rules.autoMove?.(state, seat) ?? null;
        if (action === null) break;
        const r = this.playOnDoc(doc, rules, state, seat, action, now, { auto: true });
        played.push({ entry: r.moveEntry, toAct: r.nextToAct, outcome: !!r.outcome, text: r.text });
        doc = r.nextDoc;
        state = r.next;
      }
      const last = played[played.length - 1];
      if (!last) return null;
      const chain = this.standingOrders(doc, rules, state, now);
      await this.commit(game.doc, chain.doc);
      game.before =
        played.length === 1 && chain.played.length === 0 ? { seq: last.entry.seq, state: game.state } : undefined;
      game.doc = chain.doc;
      game.state = chain.state;
      game.stateSeq = chain.played[chain.played.length - 1]?.entry.seq ?? last.entry.seq;
      this.snapshotIfDue(game, last.entry);
      for (const p of played) {
        this.logger.info({ gameId, event: 'moved', seq: p.entry.seq, seat, auto: true }, 'move');
        this.emit({ type: 'moved', gameId, at: now, seq: p.entry.seq, seat, auto: true, toAct: p.toAct });
        if (p.outcome) this.emit({ type: 'finished', gameId, at: now });
      }
      this.announceProgrammed(game, chain, now);
      return { seq: last.entry.seq, text: last.text, moves: played.length };
    });
  }

  // ---- reading (game-reading.ts) -----------------------------------------------

  viewFor(game: LoadedGame, seat: Seat | null): View {
    return reading.viewFor(game, seat);
  }

  /** The rules' view of any state of this game (a step page), with players named in its status. */
  viewOf(game: LoadedGame, state: Opaque, seat: Seat | null): View {
    return reading.namedView(game, game.rules.view(state, seat));
  }

  canPlayAt(game: LoadedGame, seat: Seat, seq: number): boolean {
    return reading.canPlayAt(game, seat, seq);
  }

  movesFor(game: LoadedGame, seat: Seat, ranked = false): MoveChoice[] {
    return reading.firstMoves(game, seat, Infinity, ranked).moves;
  }

  moveAt(game: LoadedGame, seat: Seat, n: number): MoveChoice | null {
    return reading.moveAt(game, seat, n);
  }

  firstMoves(game: LoadedGame, seat: Seat, limit: number): { moves: MoveChoice[]; total: number } {
    return reading.firstMoves(game, seat, limit);
  }

  historyLines(game: LoadedGame, upto = Infinity): HistoryLine[] {
    return reading.historyLines(game, upto);
  }

  /** The last `count` lines of historyLines(game, upto), without reading the log before them. */
  recentLines(game: LoadedGame, upto: number, count: number): HistoryLine[] {
    return reading.recentLines(game, upto, count);
  }

  sinceLastTurn(game: LoadedGame, seat: Seat): HistoryLine[] {
    return reading.sinceLastTurn(game, seat);
  }

  historyDoc(game: LoadedGame, seat: Seat | null): Record<string, unknown> {
    return reading.historyDoc(game, seat);
  }

  /** The state after entry `seq`, from the newest snapshot at or before it (null before the start or when it does not replay). */
  async stateAt(game: LoadedGame, seq: number): Promise<Opaque | null> {
    if (seq >= logLength(game.doc) && !game.attention) return game.state;
    const base = await this.snapshotFor(game.doc.id, game.doc.log, seq);
    const replayed = replayTo(game.doc, game.rules, seq, { base, snapshotEvery: SNAPSHOT_EVERY });
    this.keepSnapshots(game, replayed, base);
    return replayed.state;
  }

  // ---- internals -------------------------------------------------------------

  /** The state before the move at `seq` (never mutated: moves apply to a clone). */
  private stateBefore(game: LoadedGame, seq: number): Opaque {
    if (game.before?.seq !== seq) {
      // From the newest snapshot that is before the move and still in force, else the one before it.
      const log = game.doc.log;
      const base = [game.base, game.older].find((b) => b && replaysFrom(log, b.seq, seq - 1)) ?? null;
      const replayed = replayTo(game.doc, game.rules, seq - 1, { base });
      game.before = { seq, state: replayed.state };
    }
    return game.before.state;
  }

  /** A seat record with a freshly issued key (the key itself is handed to the player once). */
  private newSeat(
    gameId: string,
    slot: number,
    generation: number,
    name: string,
    email: string,
    now: string,
  ): { record: SeatRecord; key: string } {
    const issued = this.links.issue(gameId, 'seat');
    const reply = this.links.issue(gameId, 'reply');
    return {
      key: issued.key,
      record: {
        name,
        email,
        keyHash: issued.hash,
        keySealed: issued.sealed,
        replyHash: reply.hash,
        replySealed: reply.sealed,
        slot,
        generation,
        joinedAt: now,
        prefs: {},
      },
    };
  }

  private checkSeat(game: LoadedGame, seat: Seat): void {
    const s = game.doc.seats[seat];
    if (!s || s.vacant) throw new ServiceError(404, 'There is no such seat in this game.');
  }

  private checkPlaying(game: LoadedGame, seat: Seat): void {
    this.checkSeat(game, seat);
    if (game.attention)
      throw new ServiceError(503, `This game needs attention and cannot go on for now: ${game.attention}`);
    const status = game.doc.status;
    if (status === 'open') throw new ServiceError(409, 'The game has not started yet.');
    if (status === 'finished') throw new ServiceError(409, 'The game is over.');
    if (status === 'abandoned') throw new ServiceError(409, 'The game was abandoned.');
    if (game.doc.seats.some((s) => s.vacant))
      throw new ServiceError(409, 'A seat is open; play resumes when somebody takes it.');
  }

  /** Keeps a game in memory as the most recently used (the cache evicts beyond maxOpenGames). */
  private keep(game: LoadedGame): void {
    this.parked.delete(game.doc.id);
    this.games.set(game.doc.id, game);
  }

  /** Forgets this loaded game (damaged, or stale), unless another object has replaced it. */
  private letGo(game: LoadedGame): void {
    if (this.games.peek(game.doc.id) === game) this.games.delete(game.doc.id);
    if (this.parked.get(game.doc.id) === game) this.parked.delete(game.doc.id);
  }

  /**
   * Writes one change: a new game (before = null), or the entries `next` adds
   * to `before`'s log and the metadata fields it changed, made against
   * `before`'s last seq. A stale write (another process moved first) drops the
   * game from memory and is refused in words; nothing was written.
   */
  private async commit(before: GameDoc | null, next: GameDoc, opts: { onlyIfUnchanged?: boolean } = {}): Promise<void> {
    try {
      if (!before) {
        await this.store.create(metaOf(next), next.log);
        return;
      }
      const meta: Partial<GameMeta> = {};
      for (const k of Object.keys(next) as (keyof GameMeta)[]) {
        if ((k as string) !== 'log' && next[k] !== before[k]) (meta as Record<string, unknown>)[k] = next[k];
      }
      const length = logLength(before);
      await this.store.append(next.id, {
        expectedSeq: length,
        entries: next.log.slice(length),
        meta,
        ...(opts.onlyIfUnchanged
          ? { onlyIfUnchanged: { updatedAt: before.updatedAt, privateRev: before.privateRev ?? 0 } }
          : {}),
      });
    } catch (err) {
      if (!(err instanceof StaleSeqError)) throw err;
      this.games.delete(next.id);
      this.parked.delete(next.id);
      throw new StaleWriteError();
    }
  }

  /** After a move: keeps a snapshot every SNAPSHOT_EVERY entries (not waited for: a cache). */
  private snapshotIfDue(game: LoadedGame, entry: LogEntry): void {
    if (entry.seq - (game.base?.seq ?? 0) < SNAPSHOT_EVERY || game.state === null) return;
    const snap = snapshotOf(game.doc, entry, game.state, entry.stateHash ?? hashState(game.doc.seed, game.state).hash);
    this.keepSnapshots(game, { state: game.state, problem: null, from: 0, snapshots: [snap] }, null);
  }

  private emit(event: GameEvent): void {
    for (const listener of this.listeners) {
      try {
        const r = listener(event);
        if (r && typeof (r as Promise<void>).then === 'function') {
          const p = (r as Promise<void>).catch((err) =>
            this.logger.error({ gameId: event.gameId, event: event.type, err: String(err) }, 'event listener failed'),
          );
          this.pendingListeners.add(p);
          void p.finally(() => this.pendingListeners.delete(p));
        }
      } catch (err) {
        this.logger.error({ gameId: event.gameId, event: event.type, err: String(err) }, 'event listener failed');
      }
    }
  }

  private async withLock<T>(gameId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(gameId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.locks.set(gameId, tail);
    await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(gameId) === tail) {
        this.locks.delete(gameId);
        this.parked.delete(gameId);
      }
    }
  }
}

/** A write refused because the game changed after it was read (in another process); nothing was written. */
export class StaleWriteError extends ServiceError {
  constructor() {
    super(
      409,
      'The game has moved on since this page was made; nothing was changed. Look at the new position and try again.',
    );
  }
}

/** A refusal a person reads (4xx): decided before anything was written, so it may be decided again. */
function isRefusal(err: unknown): err is ServiceError {
  return err instanceof ServiceError && err.status >= 400 && err.status < 500;
}

/**
 * A game ended without a winner (abandoned by its admin, or expired): nobody waits, the
 * links to join and to confirm are retired, and invitations still waiting never leave.
 */
function abandonedDoc(doc: GameDoc, at: string): GameDoc {
  return derive(doc, {
    status: 'abandoned',
    wait: null,
    inviteKeyHash: null,
    inviteKeySealed: null,
    confirmKeyHash: null,
    confirmKeySealed: null,
    pendingInvites: [],
    updatedAt: at,
  });
}

/** Whether `entries` (read from the store) follow `last` and each holds its own hash. */
function continues(last: LogEntry | undefined, entries: LogEntry[]): boolean {
  let seq = last?.seq ?? 0;
  let prev = last?.hash ?? '';
  for (const e of entries) {
    if (e.seq !== seq + 1 || e.prev !== prev || checkEntry(e)) return false;
    seq = e.seq;
    prev = e.hash;
  }
  return true;
}

/** Whether the key with this hash is, in `doc`, the current key of `target`'s role (constant time). */
function keyOpens(doc: GameDoc, target: KeyTarget, hash: string): boolean {
  const stored =
    target.role === 'admin'
      ? doc.adminKeyHash
      : target.role === 'spectator'
        ? doc.spectatorKeyHash
        : target.role === 'invite'
          ? doc.inviteKeyHash
          : target.role === 'confirm'
            ? doc.confirmKeyHash
            : target.role === 'seat'
              ? doc.seats[target.seat!]?.keyHash
              : undefined;
  return typeof stored === 'string' && stored !== '' && hashMatches(hash, stored);
}
