// The game service: every change to a game goes through here.
//
// API (names are stable; the mail/reminder code and the routes use them):
//   new GameService({ store, registry, links, now?, onEvent?, logger?, maxOpenGames? })
//   await service.init()                       loads the index (no game file is read)
//   service.on(listener) -> unsubscribe        GameEvent after each durable write (events.ts)
//   service.links                              key derivation and URLs (links.ts)
//   service.resolveKey(key) -> KeyTarget|null  {gameId, role, seat?} for a link key (404 if null)
//   await service.openByKey(key, roles)        { game, target }, checked against the game (404 otherwise)
//   service.list() / service.entry(id)         index entries (data/index.json), never opens files
//   service.listPublic()                       listed open games with free seats, and running ones
//   service.dueReminders(now) -> IndexEntry[]  active games whose nextReminderAt <= now
//   await service.open(id) -> LoadedGame       { doc, rules, state, stateSeq } kept in memory (the
//                                              maxOpenGames used most recently); replays the log when read
//   await service.create(input) -> CreatedGame keys for admin, invite, spectator (and the creator's seat)
//   await service.join(id, {name, email})      -> { seat, seatKey }; starts the game when full
//   await service.start(id)                    seat order drawn from the seed
//   await service.importGame(input)            a game moved here: seats in order, started, actions played as moves
//   await service.move(id, seat, {seq, action}, {auto?})   seq check, simultaneous-move rule
//   await service.undo(id, seat, seq)          a new 'undo' entry
//   await service.reopenSeat(id, seat, {email?}) -> { inviteKey }   old seat key retired
//   await service.abandon(id) / setPolicy(id, policy)
//   await service.appendNote(id, {kind: 'reminder'|'notice'|'prefs', seat?, text, data?})
//   await service.playAutoMove(id, seat)       the rules' autoMove, logged as a move with auto: true
//   service.viewFor(game, seat|null)           the rules' view (a waiting view before the start)
//   service.movesFor(game, seat)               [{ n, action, text }] legal moves, n for quick links
//   service.firstMoves(game, seat, limit)      the first `limit` of them, described, and the total
//   service.canPlayAt(game, seat, seq)         would a move made against seq be taken now
//   service.undoBlocker(game, seat)            null if the seat may take back its last move, else why not
//   service.sinceLastTurn(game, seat)          history lines after that seat's last own move
//   service.historyLines(game)                 every entry as a plain-words line
//   service.historyDoc(game, seat|null)        the history.json download (others' actions withheld
//                                              while the game runs; seed once it is over)
//   service.stateAt(game, seq)                 the rules state after log entry `seq` (step page)
//   await service.settled()                    waits for event listeners (tests)
// Errors a person should read are ServiceError(status, message); RuleError
// messages from the rules come back as ServiceError 400 with the same text.
import { randomBytes } from 'node:crypto';
import { RuleError, type AnyRules, type Opaque, type Options, type Seat, type View } from '../rules/types.ts';
import type { GameEvent, GameEventListener } from './events.ts';
import { ServiceError, notFound } from './errors.ts';
import { keyHash, keyMatches, looksLikeKey, type Links } from './links.ts';
import { DEFAULT_POLICY } from './policy.ts';
import { sha256 } from './store/chain.ts';
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
  replayState,
  seatOrder,
} from './game-log.ts';

export { checkOptions, effectiveMoves, lastStateSeq, replayState, seatOrder } from './game-log.ts';
import { indexEntryOf } from './store/index-entry.ts';
import { cleanName, looksLike } from './names.ts';
import { StepStates } from './step-states.ts';
import {
  DamagedGameError,
  type GameDoc,
  type GameStore,
  type IndexEntry,
  type LogEntry,
  type ReminderPolicy,
  type SeatRecord,
} from './store/types.ts';

export type KeyRole = 'seat' | 'invite' | 'admin' | 'spectator' | 'confirm';

export interface KeyTarget {
  gameId: string;
  role: KeyRole;
  /** For role seat: the index into doc.seats (play order once started). */
  seat?: number;
}

export interface LoadedGame {
  doc: GameDoc;
  rules: AnyRules;
  /** Rules state after the last entry; null before the start. */
  state: Opaque | null;
  /** Seq of the last state-changing entry (start, move, undo); moves are made against it. */
  stateSeq: number;
  /** The state just before the move logged at `seq` (for undo), when known. */
  before?: { seq: number; state: Opaque };
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
  text: string;
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

export class GameService {
  readonly links: Links;
  readonly registry: AnyRules[];
  readonly store: GameStore;
  private now: () => Date;
  private listeners: GameEventListener[] = [];
  private logger: ServiceLogger;
  /** Opened games, most recently used last (see maxOpenGames). */
  private games = new Map<string, LoadedGame>();
  private maxOpenGames: number;
  private confirmOrganiser: boolean;
  private expiry: { unconfirmedHours: number; openDays: number };
  private loading = new Map<string, Promise<LoadedGame>>();
  private locks = new Map<string, Promise<void>>();
  private keys = new Map<string, KeyTarget>();
  private keysOfGame = new Map<string, string[]>();
  private pendingListeners = new Set<Promise<void>>();
  /** States kept for the step pages (step-states.ts). */
  private steps = new StepStates();
  private indexVersion = 0;
  private listCache: { version: number; open: IndexEntry[]; running: IndexEntry[] } | null = null;

  constructor(opts: GameServiceOptions) {
    this.store = opts.store;
    this.registry = opts.registry;
    this.links = opts.links;
    this.now = opts.now ?? (() => new Date());
    this.logger = opts.logger ?? silent;
    this.maxOpenGames = opts.maxOpenGames ?? 5_000;
    this.confirmOrganiser = opts.confirmOrganiser ?? false;
    this.expiry = opts.expiry ?? DEFAULT_EXPIRY;
    if (opts.onEvent) this.listeners.push(...(Array.isArray(opts.onEvent) ? opts.onEvent : [opts.onEvent]));
  }

  async init(): Promise<void> {
    await this.store.open();
    for (const e of this.store.list()) this.indexKeys(e);
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

  resolveKey(key: string): KeyTarget | null {
    if (typeof key !== 'string' || !looksLikeKey(key)) return null;
    return this.keys.get(keyHash(key)) ?? null;
  }

  /** Resolves a key and checks it against the game's document (constant time); 404 otherwise. */
  async openByKey(key: string, roles: KeyRole[]): Promise<{ game: LoadedGame; target: KeyTarget }> {
    const target = this.resolveKey(key);
    if (!target || !roles.includes(target.role)) throw notFound();
    const game = await this.open(target.gameId);
    const d = game.doc;
    const stored =
      target.role === 'admin'
        ? d.adminKeyHash
        : target.role === 'spectator'
          ? d.spectatorKeyHash
          : target.role === 'invite'
            ? d.inviteKeyHash
            : target.role === 'confirm'
              ? d.confirmKeyHash
              : d.seats[target.seat!]?.keyHash;
    if (!stored || !keyMatches(key, stored)) throw notFound();
    return { game, target };
  }

  list(): IndexEntry[] {
    return this.store.list();
  }

  entry(gameId: string): IndexEntry | undefined {
    return this.store.entry(gameId);
  }

  listPublic(limit = 100): { open: IndexEntry[]; running: IndexEntry[]; openTotal: number; runningTotal: number } {
    // The sorted lists are kept until the next write (the home page is read far more than games change).
    if (!this.listCache || this.listCache.version !== this.indexVersion) {
      this.listCache = { version: this.indexVersion, ...this.sortPublic() };
    }
    const { open, running } = this.listCache;
    return {
      open: open.slice(0, limit),
      running: running.slice(0, limit),
      openTotal: open.length,
      runningTotal: running.length,
    };
  }

  private sortPublic(): { open: IndexEntry[]; running: IndexEntry[] } {
    const open: IndexEntry[] = [];
    const running: IndexEntry[] = [];
    for (const e of this.store.list()) {
      if (!e.listed || e.confirmed === false) continue;
      if (e.status === 'open' && e.names.length < e.seatCount) open.push(e);
      else if (e.status === 'active') running.push(e);
    }
    const newest = (a: IndexEntry, b: IndexEntry) =>
      a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;
    open.sort(newest);
    running.sort(newest);
    return { open, running };
  }

  dueReminders(now: Date = this.now()): IndexEntry[] {
    const t = now.toISOString();
    return this.store.list().filter((e) => e.status === 'active' && e.nextReminderAt !== null && e.nextReminderAt <= t);
  }

  async open(gameId: string): Promise<LoadedGame> {
    const cached = this.games.get(gameId);
    if (cached) {
      this.keep(cached);
      return cached;
    }
    let p = this.loading.get(gameId);
    if (!p) {
      p = this.loadGame(gameId).finally(() => this.loading.delete(gameId));
      this.loading.set(gameId, p);
    }
    return p;
  }

  private async loadGame(gameId: string): Promise<LoadedGame> {
    let doc: GameDoc | null;
    try {
      doc = await this.store.load(gameId);
    } catch (err) {
      if (err instanceof DamagedGameError) {
        this.logger.error({ gameId, file: err.file, err: err.message }, 'damaged game file');
        throw new ServiceError(503, `This game's file is damaged (${err.file}); the server's keeper has been told.`);
      }
      throw err;
    }
    if (!doc) throw notFound();
    const rules = this.rulesOf(doc.rules);
    if (!rules) throw new ServiceError(503, `This server no longer has the rules for "${doc.rules}".`);
    const game: LoadedGame = { doc, rules, state: null, stateSeq: 0 };
    try {
      game.state = replayState(doc, rules, doc.log.length);
    } catch (err) {
      this.logger.error({ gameId, err: (err as Error).message }, 'game log does not replay');
      throw new ServiceError(503, `This game's log does not replay (${(err as Error).message}).`);
    }
    game.stateSeq = lastStateSeq(doc.log);
    this.keep(game);
    if (this.store.entry(gameId)?.lastSeq !== doc.log.length) {
      await this.store.reindex(doc);
      this.indexKeys(indexEntryOf(doc));
    }
    return game;
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
      log: [],
    };
    append(doc, {
      at: now,
      kind: 'create',
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
    await this.save(doc);
    const game: LoadedGame = { doc, rules, state: null, stateSeq: 0 };
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
      log: [],
    };
    const from = input.source ? ` from ${input.source}` : '';
    append(doc, {
      at: now,
      kind: 'create',
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
    const game: LoadedGame = { doc, rules, state: null, stateSeq: 0 };
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
    await this.save(doc);
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
        const log = [...doc.log];
        seat = doc.seats.length;
        pushEntry(log, { at: now, kind: 'join', seat, text: `${name} took a seat`, data: { slot } });
        let next: GameDoc = { ...doc, seats: [...doc.seats, seatRec], log, updatedAt: now };
        events.push({ type: 'joined', gameId, at: now, seat, name });
        let state: Opaque = null;
        if (next.seats.length >= next.seatCount) {
          const started = this.startDoc(game, next, now);
          next = started.doc;
          state = started.state;
          seat = next.seats.indexOf(seatRec);
          events.push({ type: 'started', gameId, at: now, toAct: next.wait?.toAct ?? [] });
        }
        await this.save(next);
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
        const log = [...doc.log];
        pushEntry(log, {
          at: now,
          kind: 'join',
          seat,
          text: `${name} took over seat ${seat + 1}`,
          data: { slot: old.slot },
        });
        const next: GameDoc = {
          ...doc,
          seats,
          log,
          updatedAt: now,
          inviteKeyHash: stillVacant ? doc.inviteKeyHash : null,
          inviteKeySealed: stillVacant ? doc.inviteKeySealed : null,
        };
        await this.save(next);
        game.doc = next;
        events.push({ type: 'joined', gameId, at: now, seat, name });
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
      const started = this.startDoc(game, { ...doc, log: [...doc.log], updatedAt: now }, now);
      await this.save(started.doc);
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
    const state = game.rules.setup(seats.length, doc.seed, doc.options);
    const toAct = game.rules.toAct(state);
    const next: GameDoc = {
      ...doc,
      seats,
      seatCount: seats.length,
      status: 'active',
      inviteKeyHash: null,
      inviteKeySealed: null,
    };
    pushEntry(next.log, {
      at: now,
      kind: 'start',
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
    opts: { auto?: boolean } = {},
  ): Promise<{ seq: number; text: string }> {
    return this.withLock(gameId, () => this.moveLocked(gameId, seat, input, opts));
  }

  private async moveLocked(
    gameId: string,
    seat: Seat,
    input: { seq: number; action: unknown },
    opts: { auto?: boolean },
  ): Promise<{ seq: number; text: string }> {
    const game = await this.open(gameId);
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
    await this.save(nextDoc);
    game.before = { seq: moveEntry.seq, state: game.state };
    game.doc = nextDoc;
    game.state = next;
    game.stateSeq = moveEntry.seq;
    this.logger.info({ gameId, event: 'moved', seq: moveEntry.seq, seat, auto: !!opts.auto }, 'move');
    this.emit({ type: 'moved', gameId, at: now, seq: moveEntry.seq, seat, auto: !!opts.auto, toAct: nextToAct });
    if (outcome) this.emit({ type: 'finished', gameId, at: now });
    return { seq: moveEntry.seq, text };
  }

  /** One move on a document in memory (no write): legality, the sealed move entry, the finish entry, the wait. */
  private playOnDoc(
    doc: GameDoc,
    rules: AnyRules,
    state: Opaque,
    seat: Seat,
    action: unknown,
    now: string,
    opts: { auto?: boolean },
  ) {
    const toAct = rules.toAct(state);
    if (!toAct.includes(seat)) throw new ServiceError(409, 'It is not your turn.');
    const next = structuredClone(state);
    try {
      rules.apply(next, seat, action);
    } catch (err) {
      if (err instanceof RuleError) throw new ServiceError(400, err.message);
      this.logger.error({ gameId: doc.id, err: (err as Error).message }, 'rules failed on a move');
      throw new ServiceError(400, 'The rules could not make sense of that move.');
    }
    const text = rules.describe(action, state, seat);
    const log = [...doc.log];
    const nextToAct = rules.toAct(next);
    const moveEntry = pushEntry(log, {
      at: now,
      kind: 'move',
      seat,
      action: action,
      text,
      data: { by: doc.seats[seat]!.name, toAct: nextToAct, ...(opts.auto ? { auto: true } : {}) },
    });
    const outcome = rules.outcome(next);
    const nextDoc: GameDoc = { ...doc, log, updatedAt: now };
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
    if (game.doc.status !== 'active') return 'The game is not running.';
    const target = lastEffectiveMove(game.doc.log);
    if (!target || target.seat !== seat) return 'You have no move to take back.';
    const after = game.doc.log.filter((e) => e.seq > target.seq && (e.kind === 'move' || e.kind === 'undo'));
    if (after.some((e) => e.seat !== seat)) return 'Somebody else has acted since your move.';
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
      const log = [...game.doc.log];
      const state = this.stateBefore(game, target.seq);
      const toAct = game.rules.toAct(state);
      const entry = pushEntry(log, {
        at: now,
        kind: 'undo',
        seat,
        text: `took back "${target.text ?? 'a move'}"`,
        data: { by: game.doc.seats[seat]!.name, undoes: target.seq, toAct },
      });
      const nextDoc: GameDoc = { ...game.doc, log, updatedAt: now };
      nextDoc.wait = nextWait(nextDoc, game.doc.wait, toAct, entry.seq, now);
      await this.save(nextDoc);
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
      const log = [...doc.log];
      let seats: SeatRecord[];
      if (doc.status === 'open') {
        // Before the start a reopened seat simply leaves the table.
        seats = doc.seats.filter((_, i) => i !== seat);
        pushEntry(log, { at: now, kind: 'reopen', seat, text: `${old.name} left the table`, data: { left: true } });
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
        pushEntry(log, {
          at: now,
          kind: 'reopen',
          seat,
          text: `Seat ${seat + 1} (${old.name}) was reopened for a new player`,
          data: { inviteGeneration },
        });
      }
      const next: GameDoc = {
        ...doc,
        seats,
        log,
        updatedAt: now,
        inviteGeneration,
        inviteKeyHash: invite.hash,
        inviteKeySealed: invite.sealed,
        // The creator who gives up their seat no longer has one: the admin page's "your seat" must not
        // lead to whoever sits down there next.
        creatorSlot: doc.creatorSlot === old.slot ? null : doc.creatorSlot,
        // No invitation leaves before the organiser has confirmed; it waits with the others.
        ...(waits ? { pendingInvites: [...(doc.pendingInvites ?? []), opts.email!] } : {}),
      };
      await this.save(next);
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
      const log = [...doc.log];
      pushEntry(log, { at: now, kind: 'abandon', text: 'The game was abandoned', data: { seed: doc.seed } });
      const next: GameDoc = {
        ...doc,
        log,
        status: 'abandoned',
        wait: null,
        inviteKeyHash: null,
        inviteKeySealed: null,
        confirmKeyHash: null,
        confirmKeySealed: null,
        updatedAt: now,
      };
      await this.save(next);
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
      const log = [...doc.log];
      pushEntry(log, {
        at: now,
        kind: 'notice',
        text: 'The organiser confirmed their address',
        data: { confirmed: true, invited, inviteGeneration: doc.inviteGeneration },
      });
      const next: GameDoc = {
        ...doc,
        log,
        updatedAt: now,
        confirmed: true,
        confirmKeyHash: null,
        confirmKeySealed: null,
        pendingInvites: [],
      };
      await this.save(next);
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
    const stale = this.store.list().filter((e) => {
      if (e.status !== 'open') return false;
      if (e.confirmed === false) return Date.parse(e.createdAt) + this.expiry.unconfirmedHours * 3600_000 <= t;
      return Date.parse(e.updatedAt) + this.expiry.openDays * 86_400_000 <= t;
    });
    const ended: string[] = [];
    for (const e of stale) {
      await this.withLock(e.id, async () => {
        const game = await this.open(e.id);
        const doc = game.doc;
        if (doc.status !== 'open') return;
        const quiet = doc.confirmed === false;
        const at = this.now().toISOString();
        const log = [...doc.log];
        pushEntry(log, {
          at,
          kind: 'abandon',
          text: quiet
            ? `The game expired: the organiser did not confirm it within ${this.expiry.unconfirmedHours} hours`
            : `The game expired: nobody joined for ${this.expiry.openDays} days`,
          data: { seed: doc.seed, expired: true, ...(quiet ? { quiet: true } : {}) },
        });
        const next: GameDoc = {
          ...doc,
          log,
          status: 'abandoned',
          wait: null,
          inviteKeyHash: null,
          inviteKeySealed: null,
          confirmKeyHash: null,
          confirmKeySealed: null,
          pendingInvites: [],
          updatedAt: at,
        };
        await this.save(next);
        game.doc = next;
        ended.push(e.id);
        this.logger.info({ gameId: e.id, event: 'expired' }, 'game expired');
        if (!quiet) this.emit({ type: 'abandoned', gameId: e.id, at });
      });
    }
    return ended;
  }

  async setPolicy(gameId: string, policy: ReminderPolicy): Promise<void> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const now = this.now().toISOString();
      const log = [...game.doc.log];
      const p = { ...policy };
      pushEntry(log, { at: now, kind: 'policy', text: describePolicy(p), data: { policy: p } });
      const next: GameDoc = { ...game.doc, log, policy: p, updatedAt: now };
      await this.save(next);
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
    note: { kind: 'reminder' | 'notice' | 'prefs'; seat?: Seat; text: string; data?: Record<string, unknown> },
  ): Promise<number> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      const doc = game.doc;
      if (note.seat !== undefined && !doc.seats[note.seat])
        throw new ServiceError(400, `There is no seat ${note.seat + 1}.`);
      const now = this.now().toISOString();
      const log = [...doc.log];
      const entry = pushEntry(log, { at: now, kind: note.kind, seat: note.seat, text: note.text, data: note.data });
      const next: GameDoc = { ...doc, log, updatedAt: now };
      if (note.kind === 'reminder' && doc.wait) next.wait = { ...doc.wait, reminders: doc.wait.reminders + 1 };
      if (note.kind === 'notice' && note.data?.escalation && doc.wait) next.wait = { ...doc.wait, escalated: true };
      if (note.kind === 'prefs' && note.seat !== undefined) {
        const prefs = (note.data?.prefs ?? {}) as Record<string, unknown>;
        next.seats = doc.seats.map((s, i) => (i === note.seat ? { ...s, prefs: { ...s.prefs, ...prefs } } : s));
      }
      await this.save(next);
      game.doc = next;
      return entry.seq;
    });
  }

  /** Plays the rules' autoMove for a seat that must act; null if the rules offer none. */
  async playAutoMove(gameId: string, seat: Seat): Promise<{ seq: number; text: string } | null> {
    return this.withLock(gameId, async () => {
      const game = await this.open(gameId);
      this.checkPlaying(game, seat);
      const action = game.rules.autoMove?.(game.state, seat) ?? null;
      if (action === null) return null;
      return this.moveLocked(gameId, seat, { seq: game.stateSeq, action }, { auto: true });
    });
  }

  // ---- reading (game-reading.ts) -----------------------------------------------

  viewFor(game: LoadedGame, seat: Seat | null): View {
    return reading.viewFor(game, seat);
  }

  canPlayAt(game: LoadedGame, seat: Seat, seq: number): boolean {
    return reading.canPlayAt(game, seat, seq);
  }

  movesFor(game: LoadedGame, seat: Seat): MoveChoice[] {
    return reading.firstMoves(game, seat, Infinity).moves;
  }

  firstMoves(game: LoadedGame, seat: Seat, limit: number): { moves: MoveChoice[]; total: number } {
    return reading.firstMoves(game, seat, limit);
  }

  historyLines(game: LoadedGame, upto = Infinity): HistoryLine[] {
    return reading.historyLines(game, upto);
  }

  sinceLastTurn(game: LoadedGame, seat: Seat): HistoryLine[] {
    return reading.sinceLastTurn(game, seat);
  }

  historyDoc(game: LoadedGame, seat: Seat | null): Record<string, unknown> {
    return reading.historyDoc(game, seat);
  }

  stateAt(game: LoadedGame, seq: number): Opaque | null {
    return this.steps.stateAt(game.doc, game.rules, seq);
  }

  // ---- internals -------------------------------------------------------------

  /** The state before the move at `seq` (never mutated: moves apply to a clone). */
  private stateBefore(game: LoadedGame, seq: number): Opaque {
    if (game.before?.seq !== seq) game.before = { seq, state: replayState(game.doc, game.rules, seq - 1) };
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
    return {
      key: issued.key,
      record: {
        name,
        email,
        keyHash: issued.hash,
        keySealed: issued.sealed,
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
    const status = game.doc.status;
    if (status === 'open') throw new ServiceError(409, 'The game has not started yet.');
    if (status === 'finished') throw new ServiceError(409, 'The game is over.');
    if (status === 'abandoned') throw new ServiceError(409, 'The game was abandoned.');
    if (game.doc.seats.some((s) => s.vacant))
      throw new ServiceError(409, 'A seat is open; play resumes when somebody takes it.');
  }

  /**
   * Keeps a game in memory as the most recently used, and lets go of the ones
   * used longest ago beyond maxOpenGames that nothing is changing (one skipped
   * for that goes at a later call).
   */
  private keep(game: LoadedGame): void {
    this.games.delete(game.doc.id);
    this.games.set(game.doc.id, game);
    let over = this.games.size - this.maxOpenGames;
    for (const id of this.games.keys()) {
      if (over <= 0) break;
      if (id === game.doc.id || this.locks.has(id)) continue;
      this.games.delete(id);
      this.store.forget(id);
      over--;
    }
  }

  private async save(doc: GameDoc): Promise<void> {
    await this.store.save(doc);
    this.indexKeys(this.store.entry(doc.id) ?? indexEntryOf(doc));
  }

  private indexKeys(e: IndexEntry): void {
    this.indexVersion++;
    for (const h of this.keysOfGame.get(e.id) ?? []) this.keys.delete(h);
    const hashes: string[] = [];
    const put = (h: string | null, t: KeyTarget) => {
      if (!h) return;
      this.keys.set(h, t);
      hashes.push(h);
    };
    put(e.keys.admin, { gameId: e.id, role: 'admin' });
    put(e.keys.spectator, { gameId: e.id, role: 'spectator' });
    put(e.keys.invite, { gameId: e.id, role: 'invite' });
    put(e.keys.confirm ?? null, { gameId: e.id, role: 'confirm' });
    e.keys.seats.forEach((h, seat) => {
      put(h, { gameId: e.id, role: 'seat', seat });
    });
    this.keysOfGame.set(e.id, hashes);
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
      if (this.locks.get(gameId) === tail) this.locks.delete(gameId);
    }
  }
}
