// The shared store: PostgreSQL (DATABASE_URL), for several server processes
// on one database. Tables (pg-migrations/001_games.ts, 007_games_hot.ts):
//   games          one row per game: the metadata fields a move changes
//                  (hot, jsonb: HOT_FIELDS), the log's end, and the columns
//                  listing and the reminder job ask about (status, listed,
//                  free_seat, updated_at, next_reminder_at, attention),
//                  indexed for them. A move rewrites only this row, so it is
//                  kept small (PostgreSQL writes every UPDATE as a new copy
//                  of the row, and its WAL)
//   game_meta      the rest of the metadata, and the players' address hashes
//                  (a player's list of games): written only when they change
//   game_log       one row per log entry, primary key (game_id, seq); the
//                  entry's JSON text exactly as appended
//   game_keys      key hash -> game, role, seat (current keys only)
//   game_snapshots cached states (a cache: see types.ts)
// The index row (indexEntryOf) is not stored: it is derived from the
// metadata and the log's end whenever a game is read, as every backend does.
// An append is one transaction: the game's row is locked (SELECT ... FOR
// UPDATE), its last seq compared with expectedSeq (StaleSeqError otherwise:
// from any process), the chain checked, the entries inserted, the row and
// its keys updated, COMMIT. With synchronous_commit on (the default), COMMIT
// returns once the WAL is flushed: durable when the promise resolves. The
// unique (game_id, seq) backs the seq check: a second writer that got past it
// somehow fails on the key, and that is reported as StaleSeqError too.
// The fast path: the store remembers, per game it read or wrote, the metadata
// and the row's `version` (bumped by every append). An append on a game it
// remembers at the expected seq, that changes no key, is one statement (one
// round trip, its own transaction): UPDATE ... WHERE version = <remembered>
// AND last_seq = <expected>, with the entries inserted in the same statement
// only if that row was updated. If another process wrote meanwhile the
// version differs, nothing is written, and the append takes the locking path
// above (which refuses it as stale or writes it on the fresh metadata), or,
// for an append made onlyIfUnchanged (a move decided on the game as this
// process holds it), is refused as stale at once.
// Batches (batcher.ts): one-statement appends and readGame calls made at the
// same moment for different games go to the database as one statement each
// (appendMany, readMany), so that a reminder tick logging a hundred reminders,
// or many players moving at once, costs a few round trips and commits, not one
// per game. Each game's part is still all or nothing, decided on its own row.
// Such an append carries the game's hot fields (small) and the other metadata
// fields that changed (applied to the stored ones; the version check makes
// sure those are the ones they were computed on), not the whole document.
// Schema and formats: migrations at open (pg-migrate.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Batcher } from './batcher.ts';
import { hasFreeSeat, indexEntryOf } from './index-entry.ts';
import { checkContinues } from './lowdb-store.ts';
import { migrate, quoteIdent } from './pg-migrate.ts';
import { warmConnection, warmWith } from './pg-warm.ts';
import {
  DamagedGameError,
  GameExistsError,
  StaleSeqError,
  type Append,
  type GameMeta,
  type GameRead,
  type GameQuery,
  type GameStore,
  type IndexEntry,
  type KeyRole,
  type KeyTarget,
  type LogEntry,
  type Snapshot,
} from './types.ts';

const GAME_ID = /^[A-Za-z0-9_-]{4,64}$/;
const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PgStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** The schema the tables live in (default public); tests give each store its own. */
  schema?: string;
  /** Connections in the pool (default 20). */
  max?: number;
  onProblem?: (message: string) => void;
  /**
   * Only reads games (a mail compose worker's store): its connections are warmed for reading
   * only, not for appends and reminder ticks it never runs (one of which writes a row and rolls it back).
   */
  readsOnly?: boolean;
}

/** A game as the tables hold it (games joined with game_meta). */
export interface StoredGame {
  /** The fields of HOT_FIELDS. */
  hot: Partial<GameMeta>;
  /** The other fields. */
  meta: Partial<GameMeta>;
  last_seq: number;
  last_hash: string;
}

/** The columns of StoredGame, from games g joined with game_meta m. */
export const STORED_GAME = 'g.hot, m.meta, g.last_seq, g.last_hash';

/**
 * The metadata fields a move or a reminder changes (updatedAt and the wait every time, status and
 * outcome at the end): kept in the games row, which every append rewrites; the rest of the
 * metadata (seats, keys, options, the seed: most of it) in game_meta, written only when it changes.
 */
const HOT_FIELDS = new Set<string>(['updatedAt', 'status', 'wait', 'outcome']);

interface GameRow extends StoredGame {
  version: string;
}

/** What the store remembers of a game it read or wrote (for the one-statement append). */
interface Known {
  meta: GameMeta;
  row: IndexEntry;
  version: string;
}

interface ReadCall {
  gameId: string;
  afterSeq: number;
  snapshot: boolean;
}

/** A one-statement append, decided on the remembered row (appendKnown). */
interface AppendJob {
  gameId: string;
  /** The new index row (its columns are written whole). */
  row: IndexEntry;
  /** The new hot fields (written whole: they are few and small). */
  hot: Partial<GameMeta>;
  /** What changes in game_meta: its metadata fields, its address hashes (null: unchanged). */
  cold: FieldChanges;
  mailHashes: string[] | null;
  version: string;
  expectedSeq: number;
  entries: LogEntry[];
}

/**
 * A JSON object's change as top-level fields: those set (each replaced whole) and those removed.
 * The database applies it to the stored document ((doc - drop) || set): what is sent is the
 * size of the change, not of the game's metadata, which it would parse and write again.
 */
interface FieldChanges {
  set: Record<string, unknown>;
  drop: string[];
}

/** Games remembered (the ones used most recently). */
const KNOWN_MAX = 10_000;
/** Connections opened (and warmed: pg-warm.ts) when the store opens: as many as batches run at once. */
const WARM_AT_OPEN = 4;

export class PgGameStore implements GameStore {
  readonly shared = true;
  readonly pool: pg.Pool;
  readonly schema: string;
  private opening: Promise<void> | null = null;
  /** Migrated: new connections are warmed. */
  private ready = false;
  private known = new Map<string, Known>();
  private reads = new Batcher<ReadCall, GameRead | null>((calls) => this.readMany(calls), {
    maxBatch: 256,
    maxInFlight: 4,
  });
  private appends = new Batcher<AppendJob, string | null>((jobs) => this.appendMany(jobs), {
    maxBatch: 256,
    maxInFlight: 4,
    key: (j) => j.gameId,
  });

  constructor(private opts: PgStoreOptions) {
    this.schema = opts.schema ?? 'public';
    if (!SCHEMA.test(this.schema)) throw new Error(`bad schema name ${this.schema}`);
    this.pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.max ?? 20,
      // A connection costs a PostgreSQL backend and a SCRAM handshake (milliseconds of CPU on both
      // sides): keep idle ones for 10 minutes, so a burst (a reminder tick) finds them open.
      idleTimeoutMillis: 10 * 60_000,
      options: `-c search_path=${this.schema}`,
      // Once the schema is there, a new connection runs the busy paths' statements before it serves.
      onConnect: (client) => (this.ready ? this.warm(client) : undefined),
    });
    warmWith(this.pool, { text: READ_MANY, values: [[], [], []] });
    if (!opts.readsOnly)
      warmWith(
        this.pool,
        { name: 'append_many', text: APPEND_MANY, values: ['[]'] },
        { text: dueRemindersSql(''), values: [''] },
        { text: WARM_LOG_CHECK, values: [], rollback: true },
        { text: WARM_DUE_SOON, values: [WARM_DUE_GAMES] },
      );
    // An idle connection the server dropped is replaced at the next query; say so, do not crash.
    this.pool.on('error', (err) => opts.onProblem?.(`database connection lost: ${err.message}`));
  }

  /** Migrates the schema (once per store, however often it is called). */
  open(): Promise<void> {
    this.opening ??= (async () => {
      const client = await this.pool.connect();
      try {
        await migrate(client, this.schema, { onProblem: this.opts.onProblem });
        this.ready = true;
        await this.warm(client);
      } finally {
        client.release();
      }
      // A few warm connections for the first burst (a reminder tick, the first moves): the others
      // are warmed as the pool opens them.
      const more = Math.min(WARM_AT_OPEN, this.opts.max ?? 20) - 1;
      const opened = await Promise.allSettled(Array.from({ length: more }, () => this.pool.connect()));
      for (const c of opened) if (c.status === 'fulfilled') c.value.release();
    })();
    return this.opening;
  }

  /** Warms a connection (pg-warm.ts); a failure is reported, and the connection serves anyway. */
  private async warm(client: pg.ClientBase): Promise<void> {
    try {
      await warmConnection(this.pool, client);
    } catch (err) {
      this.opts.onProblem?.(`warming a database connection: ${(err as Error).message}`);
    }
  }

  /**
   * The server secret every link key derives from (links.ts), kept in the database so that
   * every process shares it: made by the first process that asks (SECRET_KEY overrides it).
   */
  async loadOrCreateSecret(): Promise<Buffer> {
    await this.open();
    await this.pool.query('INSERT INTO server_secret (secret) VALUES ($1) ON CONFLICT DO NOTHING', [
      randomBytes(32).toString('hex'),
    ]);
    const r = await this.pool.query<{ secret: string }>('SELECT secret FROM server_secret');
    return Buffer.from(r.rows[0]!.secret, 'hex');
  }

  async ping(): Promise<void> {
    const r = await this.pool.query<{ ro: boolean }>('SELECT pg_is_in_recovery() AS ro');
    if (r.rows[0]?.ro) throw new Error('the database is a read-only standby');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Runs fn in one transaction on one connection (ROLLBACK if it throws). */
  async transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  // ---- writing -------------------------------------------------------------

  async create(meta: GameMeta, entries: LogEntry[]): Promise<IndexEntry> {
    if (!GAME_ID.test(meta.id)) throw new Error(`bad game id ${meta.id}`);
    checkContinues(meta.id, 0, '', entries);
    const tail = entries[entries.length - 1];
    const row = indexEntryOf(meta, tail?.seq ?? 0, tail?.hash ?? '');
    try {
      await this.transaction(async (c) => {
        const { hot, cold } = splitMeta(meta);
        const ins = await c.query(
          `INSERT INTO games (id, hot, last_seq, last_hash, status, listed, free_seat, updated_at, next_reminder_at, attention)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
          [meta.id, JSON.stringify(hot), row.lastSeq, row.lastHash, ...indexColumns(row)],
        );
        if (ins.rowCount === 0) throw new GameExistsError(meta.id);
        await c.query('INSERT INTO game_meta (game_id, meta, mail_hashes) VALUES ($1, $2, $3)', [
          meta.id,
          JSON.stringify(cold),
          row.mailHashes ?? [],
        ]);
        await insertEntries(c, meta.id, entries);
        await putKeys(c, null, row);
      });
      this.remember(meta.id, { meta: structuredClone(meta), row, version: '1' });
    } catch (err) {
      if (isUniqueViolation(err)) throw new GameExistsError(meta.id);
      throw err;
    }
    return row;
  }

  async append(gameId: string, change: Append): Promise<IndexEntry> {
    // onlyIfUnchanged: the version the change was decided on is the one remembered (every read
    // and write of the game through this store remembers it), provided the metadata remembered
    // is the one the caller decided on; else, or with none remembered, it is not known.
    const decided = change.onlyIfUnchanged;
    const k = decided ? this.known.get(gameId) : undefined;
    const basis = k?.version;
    if (
      decided &&
      (!k || k.meta.updatedAt !== decided.updatedAt || (k.meta.privateRev ?? 0) !== (decided.privateRev ?? 0))
    )
      throw new StaleSeqError(gameId, change.expectedSeq, -1);
    const fast = await this.appendKnown(gameId, change);
    if (fast) return fast;
    try {
      return await this.transaction(async (c) => {
        const r = await c.query<GameRow>(
          `SELECT ${STORED_GAME}, g.version FROM games g JOIN game_meta m ON m.game_id = g.id
           WHERE g.id = $1 FOR UPDATE OF g`,
          [gameId],
        );
        const now = r.rows[0];
        if (!now) throw new StaleSeqError(gameId, change.expectedSeq, 0);
        if (now.last_seq !== change.expectedSeq || (basis !== undefined && now.version !== basis))
          throw new StaleSeqError(gameId, change.expectedSeq, now.last_seq);
        checkContinues(gameId, now.last_seq, now.last_hash, change.entries);
        const was = metaOfStored(now);
        const before = indexEntryOf(was, now.last_seq, now.last_hash);
        const meta: GameMeta = change.meta ? { ...was, ...change.meta } : was;
        const tail = change.entries[change.entries.length - 1];
        const row = indexEntryOf(meta, tail?.seq ?? now.last_seq, tail?.hash ?? now.last_hash);
        await insertEntries(c, gameId, change.entries);
        const v = await c.query<{ version: string }>(
          `UPDATE games SET hot = $2, last_seq = $3, last_hash = $4, status = $5, listed = $6,
             free_seat = $7, updated_at = $8, next_reminder_at = $9, attention = $10, version = version + 1
           WHERE id = $1 RETURNING version`,
          [gameId, JSON.stringify(splitMeta(meta).hot), row.lastSeq, row.lastHash, ...indexColumns(row)],
        );
        const cold = coldChanges(change.meta ?? {});
        const mailHashes = sameJson(before.mailHashes, row.mailHashes) ? null : (row.mailHashes ?? []);
        if (touches(cold, mailHashes))
          await c.query(
            `UPDATE game_meta SET meta = (meta - $2::text[]) || $3::jsonb, mail_hashes = coalesce($4, mail_hashes)
             WHERE game_id = $1`,
            [gameId, cold.drop, JSON.stringify(cold.set), mailHashes],
          );
        await putKeys(c, before, row);
        this.remember(gameId, { meta, row, version: v.rows[0]!.version });
        return row;
      });
    } catch (err) {
      this.known.delete(gameId);
      // Two writers past the check at once (cannot happen under FOR UPDATE, but the key says so if it did).
      if (isUniqueViolation(err)) throw new StaleSeqError(gameId, change.expectedSeq, -1);
      throw err;
    }
  }

  /**
   * The one-statement append (see the header), when this store knows the game at the expected
   * seq and no key changes; null when it does not apply or another process wrote meanwhile
   * (nothing was written then).
   */
  private async appendKnown(gameId: string, change: Append): Promise<IndexEntry | null> {
    const k = this.known.get(gameId);
    if (!k || k.row.lastSeq !== change.expectedSeq) return null;
    try {
      checkContinues(gameId, k.row.lastSeq, k.row.lastHash, change.entries);
    } catch {
      return null; // the locking path decides, on what is stored
    }
    const meta: GameMeta = change.meta ? { ...k.meta, ...change.meta } : k.meta;
    const tail = change.entries[change.entries.length - 1];
    const row = indexEntryOf(meta, tail?.seq ?? k.row.lastSeq, tail?.hash ?? k.row.lastHash);
    // A change of keys takes the locking path (it rewrites game_keys); the row's `keys` field holds them all.
    if (!sameJson(k.row.keys, row.keys)) return null;

    let v: string | null;
    try {
      v = await this.appends.add({
        gameId,
        row,
        hot: splitMeta(meta).hot,
        cold: coldChanges(change.meta ?? {}),
        mailHashes: sameJson(k.row.mailHashes, row.mailHashes) ? null : (row.mailHashes ?? []),
        version: k.version,
        expectedSeq: change.expectedSeq,
        entries: change.entries,
      });
    } catch (err) {
      this.known.delete(gameId);
      if (isUniqueViolation(err)) throw new StaleSeqError(gameId, change.expectedSeq, -1);
      throw err;
    }
    if (!v) {
      this.known.delete(gameId);
      // Another process wrote since: the locking path would apply the metadata to what it wrote.
      if (change.onlyIfUnchanged) throw new StaleSeqError(gameId, change.expectedSeq, -1);
      return null;
    }
    this.remember(gameId, { meta, row, version: v });
    return row;
  }

  private remember(gameId: string, k: Known): void {
    this.known.delete(gameId);
    this.known.set(gameId, k);
    if (this.known.size > KNOWN_MAX) this.known.delete(this.known.keys().next().value!);
  }

  /**
   * Conditional appends of several games in one statement (one round trip, one commit): each
   * game's row is updated only if its version and last seq are still the ones the append was
   * decided on, and its entries are inserted only if its row was. The new version per game, or
   * null where another process wrote first (nothing of that game was written).
   */
  private async appendMany(jobs: AppendJob[]): Promise<(string | null | Error)[]> {
    // One JSON parameter for the whole batch (stringified natively; the driver's escaping of
    // array parameters cost more than the statement). Each entry is stored as its own text
    // within it, exactly as JSON.stringify wrote it. The hot fields go whole (a few hundred
    // bytes), the rest of the metadata as its changes, applied to the stored ones (the version
    // check makes sure those are the ones the changes were computed on), and only if it has any.
    const batch = jobs.map((j) => {
      const [status, listed, freeSeat, updatedAt, nextReminderAt, attention] = indexColumns(j.row);
      return {
        id: j.gameId,
        hot: j.hot,
        cold: touches(j.cold, j.mailHashes),
        cold_set: j.cold.set,
        cold_drop: j.cold.drop,
        mail_hashes: j.mailHashes,
        last_seq: j.row.lastSeq,
        last_hash: j.row.lastHash,
        status,
        listed,
        free_seat: freeSeat,
        updated_at: updatedAt,
        next_reminder_at: nextReminderAt,
        attention,
        version: j.version,
        expected: j.expectedSeq,
        entries: j.entries,
      };
    });
    try {
      // By name: parsed once per connection, and after its first few runs planned once (its plan
      // does not depend on the batch, so PostgreSQL keeps a generic one): 0.5-1 ms a batch.
      const r = await this.pool.query<{ id: string; version: string }>({
        name: 'append_many',
        text: APPEND_MANY,
        values: [JSON.stringify(batch)],
      });
      const written = new Map(r.rows.map((x) => [x.id, x.version]));
      return jobs.map((j) => written.get(j.gameId) ?? null);
    } catch (err) {
      if (jobs.length === 1) return [err as Error];
      // One game's failure (a key the check above could not foresee) must not fail the others:
      // each again on its own.
      return Promise.all(jobs.map(async (j) => (await this.appendMany([j]))[0]!));
    }
  }

  /** readGame for several games in one statement (each game's row, entries and snapshot of one moment). */
  private async readMany(calls: ReadCall[]): Promise<(GameRead | null | Error)[]> {
    const r = await this.pool.query<
      GameRow & {
        i: string;
        entries: string[] | null;
        snap: { seq: number; entry_hash: string; rules_version: number; state_hash: string; state: string } | null;
      }
    >(READ_MANY, [calls.map((c) => c.gameId), calls.map((c) => c.afterSeq), calls.map((c) => c.snapshot)]);
    const rows = new Map(r.rows.map((g) => [Number(g.i) - 1, g]));
    return calls.map((c, i) => {
      const g = rows.get(i);
      if (!g) return null;
      try {
        const entries = (g.entries ?? []).map((text, n) => {
          try {
            return JSON.parse(text) as LogEntry;
          } catch (err) {
            throw new DamagedGameError(c.gameId, `game_log seq ${c.afterSeq + n + 1}`, (err as Error).message);
          }
        });
        const meta = metaOfStored(g);
        const row = indexEntryOf(meta, g.last_seq, g.last_hash);
        this.remember(c.gameId, { meta: structuredClone(meta), row, version: g.version });
        const s = g.snap;
        return {
          meta,
          row,
          entries,
          snapshot: s
            ? {
                seq: s.seq,
                entryHash: s.entry_hash,
                rulesVersion: s.rules_version,
                stateHash: s.state_hash,
                state: s.state,
              }
            : null,
        };
      } catch (err) {
        return err as Error;
      }
    });
  }

  // ---- reading -------------------------------------------------------------

  async readMeta(gameId: string): Promise<GameMeta | null> {
    if (!GAME_ID.test(gameId)) return null;
    const r = await this.pool.query<GameRow>(
      `SELECT ${STORED_GAME}, g.version FROM games g JOIN game_meta m ON m.game_id = g.id WHERE g.id = $1`,
      [gameId],
    );
    const g = r.rows[0];
    if (!g) return null;
    const meta = metaOfStored(g);
    this.remember(gameId, {
      meta: structuredClone(meta),
      row: indexEntryOf(meta, g.last_seq, g.last_hash),
      version: g.version,
    });
    return meta;
  }

  async readLog(gameId: string, from = 1, to = Number.MAX_SAFE_INTEGER): Promise<LogEntry[]> {
    if (!GAME_ID.test(gameId)) return [];
    const r = await this.pool.query<{ seq: number; entry: string }>(
      'SELECT seq, entry FROM game_log WHERE game_id = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq',
      [gameId, Math.max(0, from), Math.min(to, 2_147_483_647)],
    );
    return r.rows.map((row) => {
      try {
        return JSON.parse(row.entry) as LogEntry;
      } catch (err) {
        throw new DamagedGameError(gameId, `game_log seq ${row.seq}`, (err as Error).message);
      }
    });
  }

  async readGame(gameId: string, afterSeq: number, opts: { snapshot?: boolean } = {}): Promise<GameRead | null> {
    if (!GAME_ID.test(gameId)) return null;
    // One statement, so one moment: the row, the entries and the snapshot belong together
    // whatever other processes append meanwhile; with the reads of other games asked for at
    // the same time (readMany).
    return this.reads.add({
      gameId,
      afterSeq: Math.max(0, Math.min(afterSeq, 2_147_483_647)),
      snapshot: opts.snapshot === true,
    });
  }

  async saveSnapshot(gameId: string, s: Snapshot): Promise<void> {
    if (!GAME_ID.test(gameId)) return;
    await this.pool.query(
      `INSERT INTO game_snapshots (game_id, seq, entry_hash, rules_version, state_hash, state)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id, seq) DO NOTHING`,
      [gameId, s.seq, s.entryHash, s.rulesVersion, s.stateHash, s.state],
    );
  }

  async readSnapshot(gameId: string, atOrBefore: number): Promise<Snapshot | null> {
    if (!GAME_ID.test(gameId)) return null;
    const r = await this.pool.query<{
      seq: number;
      entry_hash: string;
      rules_version: number;
      state_hash: string;
      state: string;
    }>(
      `SELECT seq, entry_hash, rules_version, state_hash, state FROM game_snapshots
       WHERE game_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 1`,
      [gameId, Math.min(atOrBefore, 2_147_483_647)],
    );
    const s = r.rows[0];
    return s
      ? { seq: s.seq, entryHash: s.entry_hash, rulesVersion: s.rules_version, stateHash: s.state_hash, state: s.state }
      : null;
  }

  async entry(gameId: string): Promise<IndexEntry | null> {
    if (!GAME_ID.test(gameId)) return null;
    const r = await this.pool.query<StoredGame>(
      `SELECT ${STORED_GAME} FROM games g JOIN game_meta m ON m.game_id = g.id WHERE g.id = $1`,
      [gameId],
    );
    return r.rows[0] ? indexRowOf(r.rows[0]) : null;
  }

  async findKey(keyHash: string): Promise<KeyTarget | null> {
    const r = await this.pool.query<{ game_id: string; role: KeyRole | 'retired'; seat: number | null }>(
      'SELECT game_id, role, seat FROM game_keys WHERE key_hash = $1',
      [keyHash],
    );
    const k = r.rows[0];
    if (!k) return null;
    return k.role === 'seat' ? { gameId: k.game_id, role: k.role, seat: k.seat! } : { gameId: k.game_id, role: k.role };
  }

  async listGames(q: GameQuery): Promise<{ entries: IndexEntry[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    const arg = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    if (q.status !== undefined) where.push(`status = ${arg(q.status)}`);
    if (q.listed !== undefined) where.push(`listed = ${arg(q.listed)}`);
    if (q.freeSeats) where.push('free_seat');
    if (q.updatedSince !== undefined) where.push(`updated_at >= ${arg(q.updatedSince)}`);
    // A player's list of games (rare, on request): the row's address hashes, no index of its own.
    if (q.mailHash !== undefined) where.push(`${arg(q.mailHash)} = ANY(m.mail_hashes)`);
    const cond = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const limit = q.limit ?? 100;
    const lim = Number.isFinite(limit) ? `LIMIT ${Math.max(0, Math.floor(limit))}` : '';
    const join = 'JOIN game_meta m ON m.game_id = g.id';
    const [rows, count] = await Promise.all([
      this.pool.query<StoredGame>(
        `SELECT ${STORED_GAME} FROM games g ${join} ${cond} ORDER BY g.updated_at DESC, g.id ${lim}`,
        args,
      ),
      // Counted on the games' columns alone unless the address is asked about.
      this.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM games g ${q.mailHash !== undefined ? join : ''} ${cond}`,
        args,
      ),
    ]);
    return { entries: rows.rows.map(indexRowOf), total: Number(count.rows[0]?.n ?? 0) };
  }

  async dueReminders(now: string, limit = Number.POSITIVE_INFINITY): Promise<IndexEntry[]> {
    const lim = Number.isFinite(limit) ? `LIMIT ${Math.max(0, Math.floor(limit))}` : '';
    // With each row its metadata and version, remembered: the reminder job logs a reminder from
    // the row alone (service.logReminder), and that append is then the one-statement kind,
    // batched with the other due games' (one round trip for the tick, not a transaction each).
    const r = await this.pool.query<GameRow>(dueRemindersSql(lim), [now]);
    return r.rows.map((x) => {
      const meta = metaOfStored(x);
      const row = indexEntryOf(meta, x.last_seq, x.last_hash);
      this.remember(row.id, { meta, row, version: x.version });
      return row;
    });
  }

  /** The schema name quoted for SQL (tools that address this store's tables from another connection). */
  get qualifiedSchema(): string {
    return quoteIdent(this.schema);
  }
}

/**
 * readMany's statement ($1, $2, $3: game ids, the seq to read after, whether a snapshot is wanted).
 * The entries come as one JSON array of their texts (parsed natively, not by the driver's
 * array parser), each text exactly as appended.
 */
const READ_MANY = `SELECT r.i, ${STORED_GAME}, g.version,
         (SELECT array_to_json(array_agg(l.entry ORDER BY l.seq)) FROM game_log l
           WHERE l.game_id = g.id AND l.seq > r.after) AS entries,
         CASE WHEN r.snap THEN (SELECT row_to_json(s) FROM (
           SELECT seq, entry_hash, rules_version, state_hash, state FROM game_snapshots
           WHERE game_id = g.id AND seq <= g.last_seq ORDER BY seq DESC LIMIT 1) s) END AS snap
       FROM unnest($1::text[], $2::int[], $3::bool[]) WITH ORDINALITY AS r(id, after, snap, i)
       JOIN games g ON g.id = r.id JOIN game_meta m ON m.game_id = g.id`;

/**
 * appendMany's statement ($1: the batch as JSON).
 * json_to_recordset reads each game's object once (x->>'field' on json parses it again
 * for every field); the entries stay json, so each keeps its text as written. The objects
 * that become jsonb are read as text and cast: a jsonb column of json_to_recordset cost
 * 2.5 ms per 100 games, most of the statement's parse, where the cast costs next to nothing.
 */
const APPEND_MANY = `WITH c AS (
           SELECT * FROM json_to_recordset($1::json) AS x(id text, hot text, cold boolean, cold_set text,
             cold_drop text[], mail_hashes text[], last_seq int, last_hash text, status text, listed boolean,
             free_seat boolean, updated_at text, next_reminder_at text, attention boolean, version bigint,
             expected int, entries json)
         ), up AS (
           UPDATE games g SET hot = c.hot::jsonb, last_seq = c.last_seq, last_hash = c.last_hash,
             status = c.status, listed = c.listed, free_seat = c.free_seat, updated_at = c.updated_at,
             next_reminder_at = c.next_reminder_at, attention = c.attention, version = g.version + 1
           FROM c WHERE g.id = c.id AND g.version = c.version AND g.last_seq = c.expected
           RETURNING g.id, g.version
         ), ins AS (
           INSERT INTO game_log (game_id, seq, entry)
           SELECT c.id, (e->>'seq')::int, e::text FROM c, json_array_elements(c.entries) AS e
           WHERE c.id IN (SELECT id FROM up)
         ), cold AS (
           UPDATE game_meta m SET meta = (m.meta - c.cold_drop) || c.cold_set::jsonb,
             mail_hashes = coalesce(c.mail_hashes, m.mail_hashes)
           FROM c WHERE c.cold AND m.game_id = c.id AND c.id IN (SELECT id FROM up)
         )
         SELECT id, version FROM up`;

/**
 * A warm-up (pg-warm.ts) of game_log's foreign key: a log row for some game nobody is writing
 * (SKIP LOCKED), at a seq no entry has, rolled back. It makes the connection plan the key's check,
 * which it keeps: the first checked insert on a new connection cost its server process 4.5 ms of
 * CPU (0.3 ms once warm), on a reminder tick's first append.
 */
const WARM_LOG_CHECK = `INSERT INTO game_log (game_id, seq, entry)
  SELECT id, -1, '' FROM games LIMIT 1 FOR KEY SHARE SKIP LOCKED`;

/**
 * A warm-up (pg-warm.ts) that reads the rows of the games due next, the first $1 by
 * next_reminder_at (without sending them): a new connection's server process pays for the first
 * touch of every page it reads (5-6 ms of CPU for the hundred due games of a process's first
 * reminder tick, 1.2 ms once touched), whether or not another process has them in memory.
 */
const WARM_DUE_SOON = `SELECT sum(n)::int AS n FROM (
  SELECT pg_column_size(g.hot) + pg_column_size(m.meta) AS n FROM games g JOIN game_meta m ON m.game_id = g.id
  WHERE g.status = 'active' AND NOT g.attention AND g.next_reminder_at IS NOT NULL
  ORDER BY g.next_reminder_at, g.id LIMIT $1) due`;
/** Games WARM_DUE_SOON reads: as many as the reminder job handles at once (reminders.ts). */
const WARM_DUE_GAMES = 128;

/** dueReminders' statement ($1: the time; lim: the LIMIT clause, or ''). */
function dueRemindersSql(lim: string): string {
  return `SELECT ${STORED_GAME}, g.version FROM games g JOIN game_meta m ON m.game_id = g.id
    WHERE g.status = 'active' AND NOT g.attention AND g.next_reminder_at IS NOT NULL AND g.next_reminder_at <= $1
    ORDER BY g.next_reminder_at, g.id ${lim}`;
}

/** A game's metadata split into its hot fields (games.hot) and the rest (game_meta.meta). */
function splitMeta(meta: GameMeta): { hot: Partial<GameMeta>; cold: Partial<GameMeta> } {
  const hot: Record<string, unknown> = {};
  const cold: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) (HOT_FIELDS.has(k) ? hot : cold)[k] = v;
  return { hot, cold };
}

/** The metadata of a game as stored. */
function metaOfStored(g: StoredGame): GameMeta {
  return { ...g.meta, ...g.hot } as GameMeta;
}

/** The index row of a game as stored (derived, as on every backend: indexEntryOf). */
export function indexRowOf(g: StoredGame): IndexEntry {
  return indexEntryOf(metaOfStored(g), g.last_seq, g.last_hash);
}

/**
 * An Append's `meta` as changes of game_meta's fields (the hot ones go whole with the games row):
 * a field given as undefined is removed (as the JSON of the shallow merge has it).
 */
function coldChanges(fields: Record<string, unknown>): FieldChanges {
  const set: Record<string, unknown> = {};
  const drop: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (HOT_FIELDS.has(k)) continue;
    if (v === undefined) drop.push(k);
    else set[k] = v;
  }
  return { set, drop };
}

/** Whether an append writes game_meta (a field of it changes, or the address hashes do). */
function touches(cold: FieldChanges, mailHashes: string[] | null): boolean {
  return mailHashes !== null || cold.drop.length > 0 || Object.keys(cold.set).length > 0;
}

/**
 * Whether two values are the same JSON: objects compared field by field whatever their order
 * (a row read back from jsonb has its fields in jsonb's order), a field that is undefined the
 * same as one that is not there.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => sameJson(x, bs[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of Object.keys(ao)) if (!sameJson(ao[k], bo[k])) return false;
  for (const k of Object.keys(bo)) if (ao[k] === undefined && bo[k] !== undefined) return false;
  return true;
}

/** status, listed, free_seat, updated_at, next_reminder_at, attention: the columns listing and reminders ask about. */
function indexColumns(row: IndexEntry): unknown[] {
  return [
    row.status,
    row.listed && row.confirmed !== false,
    hasFreeSeat(row),
    row.updatedAt,
    row.nextReminderAt,
    row.attention !== null,
  ];
}

async function insertEntries(c: pg.PoolClient, gameId: string, entries: LogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await c.query(
    'INSERT INTO game_log (game_id, seq, entry) SELECT $1, s, e FROM unnest($2::int[], $3::text[]) AS t(s, e)',
    [gameId, entries.map((e) => e.seq), entries.map((e) => JSON.stringify(e))],
  );
}

/** The row's key hashes: its current keys, then the retired keys of players removed from their seats. */
function keysOf(row: IndexEntry): { hash: string; role: KeyRole | 'retired'; seat: number | null }[] {
  const out: { hash: string; role: KeyRole | 'retired'; seat: number | null }[] = [];
  const put = (hash: string | null | undefined, role: KeyRole | 'retired', seat: number | null = null) => {
    if (hash) out.push({ hash, role, seat });
  };
  put(row.keys.admin, 'admin');
  put(row.keys.spectator, 'spectator');
  put(row.keys.invite, 'invite');
  put(row.keys.confirm, 'confirm');
  for (const [seat, h] of row.keys.seats.entries()) put(h, 'seat', seat);
  for (const h of row.keys.retired ?? []) put(h, 'retired');
  return out;
}

/** Makes game_keys hold exactly the row's current keys (only when they changed). */
async function putKeys(c: pg.PoolClient, before: IndexEntry | null, after: IndexEntry): Promise<void> {
  const now = keysOf(after);
  if (before && JSON.stringify(keysOf(before)) === JSON.stringify(now)) return;
  if (before) await c.query('DELETE FROM game_keys WHERE game_id = $1', [after.id]);
  // A current key takes its hash over; a retired one never displaces a key that opens something.
  for (const [keys, onConflict] of [
    [
      now.filter((k) => k.role !== 'retired'),
      'DO UPDATE SET game_id = EXCLUDED.game_id, role = EXCLUDED.role, seat = EXCLUDED.seat',
    ],
    [now.filter((k) => k.role === 'retired'), 'DO NOTHING'],
  ] as const) {
    if (keys.length === 0) continue;
    await c.query(
      `INSERT INTO game_keys (key_hash, game_id, role, seat)
       SELECT h, $1, r, s FROM unnest($2::text[], $3::text[], $4::int[]) AS t(h, r, s)
       ON CONFLICT (key_hash) ${onConflict}`,
      [after.id, keys.map((k) => k.hash), keys.map((k) => k.role), keys.map((k) => k.seat)],
    );
  }
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === '23505';
}
