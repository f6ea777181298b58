// The persisted mail queue: a message is on disk before anybody tries to send it.
//
// Layout under <dir> (DATA_DIR/mail):
//   queue/<id>.json   a message waiting to go: { key, state, attempts, nextAttemptAt, mail }
//   sent/receipts-<time>-<random>.jsonl
//                     a small receipt (no body) once the transport accepted a message: one
//                     line each, group-committed like the queue's journal (queue-journal.ts);
//                     older servers wrote sent/<id>.json, still read and pruned
//   failed/<id>.json  a message given up on (kept whole, so nothing is lost silently)
// <id> is derived from the idempotency key, so enqueueing the same key twice
// (an event replayed, a job run twice) stores and sends one message.
//
// Delivery guarantee. Every record is durable before anybody tries to send it
// (a journal line, a batch file, or a file of its own). An attempt writes
// nothing before it sends: after the transport accepts the message the receipt
// is written (a line in the receipts journal: the one synced write a sent mail
// costs, its fdatasync shared with every receipt written meanwhile) and a record
// file of its own, if it had one, removed. A transport failure writes the record with its
// attempts and exponential back-off. The only ambiguous moment is a crash after
// the SMTP server said 250 and before the receipt reached the disk (one durable
// write: usually a few milliseconds, measured at up to 445 ms on a loaded
// machine). We chose AT-LEAST-ONCE for that window: a record with no receipt is
// sent again after a restart, with the very same Message-ID (the idempotency
// key), so it is the same message and mail clients that see both collapse them.
// Losing a turn email stalls a game; a duplicate of an identical message in that
// rare window does not. Outside that window (SMTP refusing, process stopped or
// killed while pending, queue restarted) nothing is ever sent twice: receipts are
// checked before every attempt and at start-up. The outbox transport (no
// SMTP_URL) is exactly-once: its .eml file name is the id and an existing file is
// kept. (Records used to be marked `attempting` durably before each attempt: a
// second synced write per mail that told only which records the window might hold.)
//
// One turn mail per seat. A turn mail is composed from the game as it is when it
// is sent, so an older one still waiting for the same seat (its game, seat and
// holder) would tell of the same position, or of none: queueing a newer one skips
// the older one never attempted, as the PostgreSQL queue does (its migration
// 006). The ids skipped go in the newer one's journal line, durable in the same
// sync: read back at start they are skipped again. A journal file whose lines
// skipped others is removed only after those have receipts (written then, for
// the few whose own file is still there).
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensureDir, unlinkDurable, writeFileDurable } from '../store/durable-file.ts';
import { mailId, type OutgoingMail } from './message.ts';
import { QueueJournal, isJournalFile, isReceiptsFile, journalLines } from './queue-journal.ts';

/**
 * Format of the queue's files (records, batches, receipts): written into each, read back at
 * start. A file of a newer format (a newer server wrote it) is left alone and logged.
 */
export const MAIL_FORMAT = 1;
const newerFormat = (data: unknown) =>
  typeof (data as { format?: unknown })?.format === 'number' && (data as { format: number }).format > MAIL_FORMAT;

export interface MailTransport {
  /** Resolves once the mail server (or the outbox) accepted the message; rejects otherwise. */
  send(mail: OutgoingMail, id: string): Promise<void>;
  close?(): void | Promise<void>;
}

export type MailState = 'pending' | 'attempting';

export interface QueuedMail {
  key: string;
  id: string;
  state: MailState;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  lastError?: string;
  /** A message rendered when it was queued... */
  mail?: OutgoingMail;
  /** ...or what to render when it is sent (see MailQueueOptions.compose). */
  spec?: MailSpec;
  /** Set when it was queued in a batch file (enqueueSpecs) and has no file of its own yet. */
  batch?: string;
  /** Ids of the older turn mails of the same seat this one skipped when it was queued. */
  supersedes?: string[];
}

/** A small JSON description of a mail that is rendered only when it is sent. */
export type MailSpec = { type: string; [key: string]: unknown };

export interface SentReceipt {
  key: string;
  id: string;
  to: string;
  subject: string;
  messageId: string;
  createdAt: number;
  sentAt: number;
  attempts: number;
  /** Set when compose found the mail no longer relevant (the player already moved). */
  skipped?: boolean;
}

export interface MailQueueOptions {
  /** DATA_DIR/mail */
  dir: string;
  transport: MailTransport;
  now?: () => number;
  /** First retry delay; doubles per attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A message still failing this long after it was queued moves to failed/. */
  giveUpAfterMs?: number;
  /** Permanent (5xx) refusals are retried this many times before giving up. */
  maxPermanentAttempts?: number;
  /** Messages sent at once. */
  concurrency?: number;
  /** Receipts (sent/) older than this are removed some seconds after start; default 60 days. */
  keepReceiptsMs?: number;
  log?: (event: Record<string, unknown>) => void;
  /**
   * Renders a queued spec at send time. Returns null when the mail is no
   * longer relevant (it is then recorded as skipped, never sent). Throwing
   * counts as a failed attempt and is retried with back-off.
   */
  compose?: (spec: MailSpec, key: string) => Promise<OutgoingMail | null> | OutgoingMail | null;
}

export interface MailQueueStats {
  pending: number;
  sending: number;
  sent: number;
  skipped: number;
  failed: number;
  attempts: number;
  transportErrors: number;
}

/**
 * Which mail goes first when many are due: mail of games being played (turns,
 * reminders, take-backs...) before the organiser's set-up mail and digests, and
 * those before invitations, so a flood of invitations never holds up a turn.
 */
const LATER: Record<string, number> = { created: 1, digest: 1, invite: 2 };
function priorityOf(r: QueuedMail): number {
  return LATER[r.spec?.type ?? ''] ?? 0;
}

/** A turn mail's seat (game, seat, holder) and the position it was queued for; null for other mail. */
export function turnLineOf(spec?: MailSpec): { of: string; rank: number } | null {
  const s = spec as
    | { type?: string; gameId?: string; seat?: number; slot?: number; generation?: number; stateSeq?: number }
    | undefined;
  if (s?.type !== 'turn' || typeof s.stateSeq !== 'number') return null;
  return { of: `turn:${s.gameId}:${s.seat}:${s.slot}.${s.generation}`, rank: s.stateSeq };
}

/** What the rest of the server uses of a mail queue: the file queue here, or the PostgreSQL one (pg-queue.ts). */
export type MailQueueApi = Pick<
  MailQueue,
  | 'start'
  | 'stop'
  | 'enqueue'
  | 'enqueueSpec'
  | 'enqueueSpecs'
  | 'knows'
  | 'claim'
  | 'clock'
  | 'stats'
  | 'list'
  | 'idle'
  | 'retryNow'
  | 'pruneReceipts'
>;

export class MailQueue {
  private readonly queueDir: string;
  private readonly sentDir: string;
  private readonly failedDir: string;
  private readonly now: () => number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly giveUpAfterMs: number;
  private readonly maxPermanentAttempts: number;
  private readonly concurrency: number;
  private readonly log: (event: Record<string, unknown>) => void;
  private readonly pending = new Map<string, QueuedMail>();
  private readonly sending = new Set<string>();
  /** Ids being enqueued right now (guards two enqueues of one key at once). */
  private readonly enqueuing = new Map<string, Promise<boolean>>();
  private timer: NodeJS.Timeout | null = null;
  private dirsReady: Promise<void> | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  /**
   * The ids that have a file in sent/, failed/ and queue/ (read once, then kept up to date by
   * this queue, the only writer of its folder): asking whether a key is known costs no file
   * system call, which a reply waits for (inbound/desk.ts).
   */
  private files: Promise<{ sent: Set<string>; failed: Set<string>; queued: Set<string> }> | null = null;
  /** Where single messages are queued: one line each, group-committed (queue-journal.ts). */
  private readonly journal: QueueJournal;
  /**
   * Where receipts go: one line each, group-committed. A file of its own per receipt (temp file,
   * fsync, rename, fsync of the folder) was two of the disk flushes every sent mail cost, queued
   * on the same disk as the moves' journal syncs.
   */
  private readonly receipts: QueueJournal;
  /** Batch or journal file -> ids in it not yet done. */
  private readonly batches = new Map<string, Set<string>>();
  /** Turn line (turnLineOf) -> the id of the newest turn mail pending on it. */
  private readonly newestTurn = new Map<string, string>();
  /** Ids skipped for a newer turn mail -> the journal file of that newer one's line, and of their own. */
  private readonly skippedFor = new Map<string, { by: string; line: string }>();
  private running = false;
  private pumping = false;
  private repump = false;
  /** The most urgent priority (priorityOf) among the mails queued since this round of the pump began. */
  private repumpPriority = Number.POSITIVE_INFINITY;
  private idleWaiters: (() => void)[] = [];
  private readonly counters = { sent: 0, skipped: 0, failed: 0, attempts: 0, transportErrors: 0 };

  constructor(private readonly opts: MailQueueOptions) {
    this.queueDir = join(opts.dir, 'queue');
    this.sentDir = join(opts.dir, 'sent');
    this.failedDir = join(opts.dir, 'failed');
    this.now = opts.now ?? Date.now;
    this.baseDelayMs = opts.baseDelayMs ?? 30_000;
    this.maxDelayMs = opts.maxDelayMs ?? 60 * 60_000;
    this.giveUpAfterMs = opts.giveUpAfterMs ?? 3 * 24 * 3600_000;
    this.maxPermanentAttempts = opts.maxPermanentAttempts ?? 5;
    this.concurrency = Math.max(1, opts.concurrency ?? 2);
    this.log = opts.log ?? (() => {});
    this.journal = new QueueJournal(this.queueDir, this.now);
    this.receipts = new QueueJournal(this.sentDir, this.now, 'receipts-');
  }

  /** Loads what a previous run left in the queue and starts sending. */
  async start(): Promise<void> {
    await Promise.all([ensureDir(this.queueDir), ensureDir(this.sentDir), ensureDir(this.failedDir)]);
    const files = (await readdir(this.queueDir)).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
    for (const file of files) {
      if (file.startsWith('batch-')) continue;
      const path = join(this.queueDir, file);
      let rec: QueuedMail;
      try {
        rec = JSON.parse(await readFile(path, 'utf8')) as QueuedMail;
      } catch (err) {
        this.log({ msg: 'mail record unreadable', file, err: String(err) });
        continue;
      }
      if (newerFormat(rec)) {
        this.log({ msg: `mail record written by a newer server (format above ${MAIL_FORMAT}); left as it is`, file });
        continue;
      }
      if (await this.isSent(rec.id)) {
        // Crashed after the receipt and before removing the queue file.
        await unlinkDurable(path);
        (await this.knownFiles()).queued.delete(file.slice(0, -'.json'.length));
        continue;
      }
      if (rec.state === 'attempting') {
        this.log({ msg: 'mail may have been sent before a crash; sending again with the same Message-ID', id: rec.id });
        rec.state = 'pending';
      }
      this.pending.set(rec.id, rec);
    }
    // Batch files: a message in one that has its own file (it was attempted) follows that file.
    // Journal files: read like batch files, one record a line.
    const journals = (await readdir(this.queueDir)).filter(isJournalFile).sort();
    const read: { file: string; records: QueuedMail[] }[] = [];
    for (const file of [...files, ...journals]) {
      if (!file.startsWith('batch-') && !isJournalFile(file)) continue;
      const records = await this.readLines(file);
      if (records) read.push({ file, records });
    }
    // Turn mails a newer one skipped when it was queued are skipped again (with a receipt now,
    // before any file that says so can go), unless they were attempted since (a file of their own).
    const skipped = new Set(read.flatMap((b) => b.records.flatMap((r) => r.supersedes ?? [])));
    for (const { file, records } of read) {
      const outstanding = new Set<string>();
      for (const r of records) {
        if ((await this.isSent(r.id)) || (await this.hasFailed(r.id))) continue;
        if (skipped.has(r.id) && !(await this.hasRecordFile(r.id))) {
          await this.writeReceipt(skippedReceipt(r.id, this.now()));
          continue;
        }
        outstanding.add(r.id);
        if (!this.pending.has(r.id)) this.pending.set(r.id, { ...r, state: 'pending', batch: file });
      }
      if (outstanding.size === 0) await unlinkDurable(join(this.queueDir, file));
      else this.batches.set(file, outstanding);
    }
    for (const r of this.pending.values()) {
      const line = turnLineOf(r.spec);
      if (line && !this.newerTurnPending(line)) this.newestTurn.set(line.of, r.id);
    }
    this.running = true;
    this.kick();
    // Old receipts only guard against re-queueing long-finished mail; tidy them away in the background.
    this.pruneTimer = setTimeout(() => void this.pruneReceipts().catch(() => {}), 5_000);
    this.pruneTimer.unref?.();
  }

  /** The records of a batch or journal file; null (logged) when it cannot be read or is of a newer format. */
  private async readLines(file: string): Promise<QueuedMail[] | null> {
    try {
      const text = await readFile(join(this.queueDir, file), 'utf8');
      if (isJournalFile(file)) {
        const lines = journalLines(text) as QueuedMail[];
        if (lines.some(newerFormat)) {
          this.log({
            msg: `mail journal written by a newer server (format above ${MAIL_FORMAT}); left as it is`,
            file,
          });
          return null;
        }
        return lines;
      }
      const batch = JSON.parse(text) as { records: QueuedMail[] };
      if (newerFormat(batch)) {
        this.log({ msg: `mail batch written by a newer server (format above ${MAIL_FORMAT}); left as it is`, file });
        return null;
      }
      return batch.records;
    } catch (err) {
      this.log({ msg: 'mail batch unreadable', file, err: String(err) });
      return null;
    }
  }

  /**
   * Removes receipts older than keepReceiptsMs (file times are wall-clock times): a receipts file
   * goes whole once its newest line is that old (and no line is being added to it).
   */
  async pruneReceipts(): Promise<number> {
    const limit = Date.now() - (this.opts.keepReceiptsMs ?? 60 * 24 * 3600_000);
    let removed = 0;
    for (const f of await readdir(this.sentDir)) {
      if (!this.running) break;
      try {
        const path = join(this.sentDir, f);
        const st = await stat(path);
        if (st.mtimeMs >= limit) continue;
        const sent = (await this.knownFiles()).sent;
        if (isReceiptsFile(f)) {
          if (!this.receipts.retire(f)) continue;
          const ids = receiptLineIds(await readFile(path, 'utf8'));
          await unlink(path);
          for (const id of ids) sent.delete(id);
          removed += ids.length;
        } else if (f.endsWith('.json')) {
          await unlink(path);
          sent.delete(f.slice(0, -'.json'.length));
          removed++;
        }
      } catch {
        // gone already
      }
    }
    return removed;
  }

  /** Stops sending; records stay on disk for the next start. Waits for attempts under way. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.pruneTimer) clearTimeout(this.pruneTimer);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.sending.size > 0 || this.pumping) await new Promise((r) => setTimeout(r, 5));
    while (this.enqueuing.size > 0) await Promise.allSettled([...this.enqueuing.values()]);
    await this.journal.close();
    await this.receipts.close();
    await this.opts.transport.close?.();
  }

  /**
   * Records a message durably under its idempotency key and wakes the sender.
   * Resolves true if it was queued now, false if this key was queued or sent before.
   */
  enqueue(key: string, mail: OutgoingMail): Promise<boolean> {
    return this.enqueueContent(key, { mail });
  }

  /**
   * Holds `key` for this process while it decides what to queue under it (a reply being played:
   * inbound/desk.ts); resolves with the release, or null when another holds it. One process
   * shares this folder, and the desk guards its own concurrent deliveries, so this one always
   * succeeds (the PostgreSQL queue holds an advisory lock across processes).
   */
  async claim(_key: string): Promise<(() => Promise<void>) | null> {
    return async () => {};
  }

  /** Whether a message under this key is queued, being queued, sent (receipt kept) or given up on. */
  async knows(key: string): Promise<boolean> {
    const id = mailId(key);
    if (this.enqueuing.has(id) || this.pending.has(id) || this.sending.has(id) || this.skippedFor.has(id)) return true;
    const files = await this.knownFiles();
    return files.sent.has(id) || files.queued.has(id) || files.failed.has(id);
  }

  /** Like enqueue, but stores only `spec`; the compose hook renders it when it is sent. */
  enqueueSpec(key: string, spec: MailSpec, opts: { notBefore?: number } = {}): Promise<boolean> {
    if (!this.opts.compose) throw new Error('MailQueue: enqueueSpec needs a compose hook');
    return this.enqueueContent(key, { spec }, opts.notBefore);
  }

  /**
   * Queues many specs with one durable write (one batch file) instead of one
   * per message: what the reminder job does for all the games due in a tick.
   * Keys already known are left out. Resolves with the number queued now.
   */
  async enqueueSpecs(items: { key: string; spec: MailSpec; notBefore?: number }[]): Promise<number> {
    if (!this.opts.compose) throw new Error('MailQueue: enqueueSpecs needs a compose hook');
    const fresh: QueuedMail[] = [];
    const seen = new Set<string>();
    const t = this.now();
    for (const item of items) {
      const id = mailId(item.key);
      if (seen.has(id) || this.enqueuing.has(id) || this.pending.has(id)) continue;
      seen.add(id);
      fresh.push({
        key: item.key,
        id,
        state: 'pending',
        attempts: 0,
        createdAt: t,
        nextAttemptAt: Math.max(t, item.notBefore ?? t),
        spec: item.spec,
      });
    }
    const checked = await Promise.all(
      fresh.map(
        async (r) => !((await this.isSent(r.id)) || (await this.hasFailed(r.id)) || (await this.hasRecordFile(r.id))),
      ),
    );
    const records = fresh.filter(
      (_, i) => checked[i] && !this.enqueuing.has(fresh[i]!.id) && !this.pending.has(fresh[i]!.id),
    );
    if (records.length === 0) return 0;
    const file = `batch-${t}-${randomBytes(6).toString('hex')}.json`;
    let release!: () => void;
    const guard = new Promise<boolean>((r) => (release = () => r(true)));
    for (const r of records) this.enqueuing.set(r.id, guard);
    try {
      this.dirsReady ??= Promise.all([
        ensureDir(this.queueDir),
        ensureDir(this.sentDir),
        ensureDir(this.failedDir),
      ]).then(() => {});
      await this.dirsReady;
      await writeFileDurable(join(this.queueDir, file), JSON.stringify({ format: MAIL_FORMAT, records }));
      this.batches.set(file, new Set(records.map((r) => r.id)));
      for (const r of records) this.pending.set(r.id, { ...r, batch: file });
    } finally {
      for (const r of records) this.enqueuing.delete(r.id);
      release();
    }
    this.kick();
    return records.length;
  }

  /** A message of a batch is done (sent, skipped or given up): the batch file goes with its last one. */
  private async settleBatch(rec: QueuedMail): Promise<void> {
    if (!rec.batch) return;
    const outstanding = this.batches.get(rec.batch);
    if (!outstanding) return;
    outstanding.delete(rec.id);
    // The journal lines still go to stays (it goes once it is retired and its last message is done).
    if (outstanding.size === 0 && (!isJournalFile(rec.batch) || this.journal.retire(rec.batch))) {
      this.batches.delete(rec.batch);
      await this.receiptsForSkipped(rec.batch);
      await unlinkDurable(join(this.queueDir, rec.batch));
    }
  }

  /**
   * Before a journal file goes: the lines it skipped (older turn mails) that are still in a file
   * on disk get a receipt, or the next start would read them back without what skipped them.
   */
  private async receiptsForSkipped(file: string): Promise<void> {
    const skipped = [...this.skippedFor].filter(([, s]) => s.by === file);
    for (const [id, s] of skipped) {
      if (this.batches.has(s.line)) await this.writeReceipt(skippedReceipt(id, this.now()));
      this.skippedFor.delete(id);
    }
  }

  private async writeReceipt(receipt: SentReceipt): Promise<void> {
    await this.receipts.append(JSON.stringify({ format: MAIL_FORMAT, ...receipt }));
    (await this.knownFiles()).sent.add(receipt.id);
  }

  private enqueueContent(
    key: string,
    content: { mail?: OutgoingMail; spec?: MailSpec },
    notBefore?: number,
  ): Promise<boolean> {
    const id = mailId(key);
    const inFlight = this.enqueuing.get(id);
    if (inFlight) return inFlight.then(() => false);
    const p = this.enqueueOnce(key, id, content, notBefore).finally(() => this.enqueuing.delete(id));
    this.enqueuing.set(id, p);
    return p;
  }

  private async enqueueOnce(
    key: string,
    id: string,
    content: { mail?: OutgoingMail; spec?: MailSpec },
    notBefore?: number,
  ): Promise<boolean> {
    if (this.pending.has(id) || this.skippedFor.has(id) || (await this.isSent(id)) || (await this.hasFailed(id)))
      return false;
    if (await this.hasRecordFile(id)) return false;
    this.dirsReady ??= Promise.all([ensureDir(this.queueDir), ensureDir(this.sentDir), ensureDir(this.failedDir)]).then(
      () => {},
    );
    await this.dirsReady;
    const t = this.now();
    const rec: QueuedMail = {
      key,
      id,
      state: 'pending',
      attempts: 0,
      createdAt: t,
      nextAttemptAt: Math.max(t, notBefore ?? t),
      ...content,
    };
    // The same seat's older turn mails, taken out now (nothing starts sending them meanwhile)
    // and skipped once this line is durable; put back if it cannot be written.
    const line = turnLineOf(content.spec);
    const older = line ? this.olderTurns(line) : [];
    if (older.length > 0) rec.supersedes = older.map((r) => r.id);
    // One line in the journal (one shared fdatasync), not a file of its own: the message gets
    // its own file when it fails an attempt.
    let file: string;
    try {
      file = await this.journal.append(JSON.stringify({ format: MAIL_FORMAT, ...rec }));
    } catch (err) {
      for (const r of older) this.pending.set(r.id, r);
      if (line && older.length > 0) this.newestTurn.set(line.of, older[0]!.id);
      throw err;
    }
    let inFile = this.batches.get(file);
    if (!inFile) this.batches.set(file, (inFile = new Set()));
    inFile.add(id);
    this.pending.set(id, { ...rec, batch: file });
    if (line && !this.newerTurnPending(line)) this.newestTurn.set(line.of, id);
    for (const r of older) {
      this.skippedFor.set(r.id, { by: file, line: r.batch! });
      this.counters.skipped++;
      this.log({ msg: 'turn mail skipped: a newer one for the seat is queued', id: r.id, by: id });
      await this.settleBatch(r);
    }
    this.kick(rec.nextAttemptAt <= this.now() ? priorityOf(rec) : Number.POSITIVE_INFINITY);
    return true;
  }

  /** Takes out of `pending` the seat's older turn mail never attempted (at most one: each newer one takes the one before). */
  private olderTurns(line: { of: string; rank: number }): QueuedMail[] {
    const id = this.newestTurn.get(line.of);
    const r = id === undefined ? undefined : this.pending.get(id);
    if (!r || this.sending.has(r.id) || r.attempts > 0 || !r.batch) return [];
    const rank = turnLineOf(r.spec)?.rank ?? Infinity;
    if (rank >= line.rank) return [];
    this.pending.delete(r.id);
    this.newestTurn.delete(line.of);
    return [r];
  }

  /** Whether a turn mail of this seat for a later position is pending (one queued late stays beside it). */
  private newerTurnPending(line: { of: string; rank: number }): boolean {
    const id = this.newestTurn.get(line.of);
    const r = id === undefined ? undefined : this.pending.get(id);
    return r !== undefined && (turnLineOf(r.spec)?.rank ?? -1) > line.rank;
  }

  /** The queue's own clock (real time unless a test injects one); not the game clock. */
  clock(): number {
    return this.now();
  }

  stats(): MailQueueStats {
    return { pending: this.pending.size, sending: this.sending.size, ...this.counters };
  }

  /** Queued messages (for the outbox page and tests), oldest first. */
  list(): QueuedMail[] {
    return [...this.pending.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Resolves when nothing is pending (or after timeoutMs, rejecting). For tests and shutdown. */
  idle(timeoutMs = 30_000): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`mail queue not idle after ${timeoutMs} ms (${this.pending.size} pending)`)),
        timeoutMs,
      );
      this.idleWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** Tries every pending message now, ignoring back-off (an admin's "retry now"). */
  retryNow(): void {
    for (const rec of this.pending.values()) rec.nextAttemptAt = Math.min(rec.nextAttemptAt, this.now());
    this.kick();
  }

  /**
   * Sends what is due. `priority`: that of a mail just queued, due now (a round of the pump under
   * way goes on past it while it would sort after the mail to be sent next); left out, whatever
   * changed ends the round.
   */
  private kick(priority = Number.NEGATIVE_INFINITY): void {
    if (!this.running) return;
    if (this.pumping) {
      this.repump = true;
      this.repumpPriority = Math.min(this.repumpPriority, priority);
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.repump = false;
        this.repumpPriority = Number.POSITIVE_INFINITY;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        const t = this.now();
        const due = this.list()
          .filter((r) => r.nextAttemptAt <= t && !this.sending.has(r.id))
          .sort((a, b) => priorityOf(a) - priorityOf(b));
        const workers: Promise<void>[] = [];
        let next = 0;
        // A mail queued meanwhile (repump) that would go before the next one of this round ends
        // the round after the mails being sent, and the next round sorts again. One that would
        // go after it does not: with moves coming in faster than turn mails go out, sorting every
        // pending mail again for each one sent was most of the pump's time. Mails of equal
        // priority go oldest first, so a newer one never goes before the next of the round.
        const goesFirst = () => this.repump && this.repumpPriority < priorityOf(due[next]!);
        const worker = async () => {
          while (this.running && next < due.length && !goesFirst()) await this.attempt(due[next++]!);
        };
        for (let i = 0; i < Math.min(this.concurrency, due.length); i++) workers.push(worker());
        await Promise.all(workers);
      } while (this.repump && this.running);
    } finally {
      this.pumping = false;
    }
    this.schedule();
    this.notifyIdle();
  }

  private schedule(): void {
    if (!this.running || this.pending.size === 0) return;
    let earliest = Infinity;
    for (const r of this.pending.values()) earliest = Math.min(earliest, r.nextAttemptAt);
    const delay = Math.max(0, Math.min(earliest - this.now(), 2_147_000_000));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, delay);
    this.timer.unref?.();
  }

  /** Nothing being sent or queued, and nothing waiting but mail deliberately scheduled for later (digests). */
  private isIdle(): boolean {
    if (this.sending.size > 0 || this.enqueuing.size > 0) return false;
    const t = this.now();
    for (const r of this.pending.values()) if (r.attempts > 0 || r.nextAttemptAt <= t) return false;
    return true;
  }

  private notifyIdle(): void {
    if (this.isIdle()) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async attempt(rec: QueuedMail): Promise<void> {
    if (!this.pending.has(rec.id) || this.sending.has(rec.id)) return;
    this.sending.add(rec.id);
    const path = join(this.queueDir, `${rec.id}.json`);
    try {
      if (await this.isSent(rec.id)) {
        this.forget(rec);
        await this.unlinkRecord(rec.id);
        await this.settleBatch(rec);
        return;
      }
      let mail: OutgoingMail | null;
      try {
        mail = rec.mail ?? (rec.spec && this.opts.compose ? await this.opts.compose(rec.spec, rec.key) : null);
      } catch (err) {
        rec.attempts++;
        await this.failed(rec, path, err);
        return;
      }
      if (mail) {
        // Nothing is written before the send (see the top): a crash now leaves the record as it was.
        rec.state = 'attempting';
        rec.attempts++;
        this.counters.attempts++;
        try {
          await this.opts.transport.send(mail, rec.id);
        } catch (err) {
          this.counters.transportErrors++;
          await this.failed(rec, path, err);
          return;
        }
      }
      const receipt: SentReceipt = {
        key: rec.key,
        id: rec.id,
        to: mail?.to ?? '',
        subject: mail?.subject ?? '',
        messageId: mail?.messageId ?? '',
        createdAt: rec.createdAt,
        sentAt: this.now(),
        attempts: rec.attempts,
        ...(mail ? {} : { skipped: true }),
      };
      await this.writeReceipt(receipt);
      this.forget(rec);
      await this.unlinkRecord(rec.id);
      await this.settleBatch(rec);
      if (mail) this.counters.sent++;
      else this.counters.skipped++;
      this.log({ msg: mail ? 'mail sent' : 'mail no longer relevant, skipped', id: rec.id, attempts: rec.attempts });
    } finally {
      this.sending.delete(rec.id);
    }
  }

  private async failed(rec: QueuedMail, path: string, err: unknown): Promise<void> {
    const code = (err as { responseCode?: number })?.responseCode;
    const message = String((err as Error)?.message ?? err).slice(0, 500);
    const permanent = typeof code === 'number' && code >= 500 && code < 600;
    const t = this.now();
    const giveUp = (permanent && rec.attempts >= this.maxPermanentAttempts) || t - rec.createdAt >= this.giveUpAfterMs;
    rec.state = 'pending';
    rec.lastError = message;
    if (giveUp) {
      await writeFileDurable(join(this.failedDir, `${rec.id}.json`), JSON.stringify({ format: MAIL_FORMAT, ...rec }));
      (await this.knownFiles()).failed.add(rec.id);
      this.forget(rec);
      await this.unlinkRecord(rec.id);
      await this.settleBatch(rec);
      this.counters.failed++;
      this.log({ msg: 'mail given up', id: rec.id, attempts: rec.attempts, err: message });
      return;
    }
    const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** Math.min(rec.attempts - 1, 30));
    // A little jitter so many messages queued at once do not retry in lock-step.
    rec.nextAttemptAt =
      t + Math.round(delay * (0.9 + (0.2 * ((rec.attempts * 7919 + rec.id.charCodeAt(0)) % 10)) / 10));
    await writeFileDurable(path, JSON.stringify({ format: MAIL_FORMAT, ...rec }));
    (await this.knownFiles()).queued.add(rec.id);
    this.log({
      msg: 'mail retry scheduled',
      id: rec.id,
      attempts: rec.attempts,
      in_ms: rec.nextAttemptAt - t,
      err: message,
    });
  }

  /** A record is done (sent, skipped or given up): out of `pending` and the turn lines. */
  private forget(rec: QueuedMail): void {
    this.pending.delete(rec.id);
    const line = turnLineOf(rec.spec);
    if (line && this.newestTurn.get(line.of) === rec.id) this.newestTurn.delete(line.of);
  }

  private async isSent(id: string): Promise<boolean> {
    return (await this.knownFiles()).sent.has(id);
  }

  private async hasFailed(id: string): Promise<boolean> {
    return (await this.knownFiles()).failed.has(id);
  }

  /** Whether a message has a record file of its own in queue/ (not only a line in a batch). */
  private async hasRecordFile(id: string): Promise<boolean> {
    return (await this.knownFiles()).queued.has(id);
  }

  private async unlinkRecord(id: string): Promise<void> {
    const queued = (await this.knownFiles()).queued;
    // Most messages never had a file of their own (a journal line only): nothing to remove.
    if (!queued.has(id)) return;
    await unlinkDurable(join(this.queueDir, `${id}.json`));
    queued.delete(id);
  }

  /** The ids with a file in sent/, failed/ and queue/, read once (see `files`). */
  private knownFiles(): Promise<{ sent: Set<string>; failed: Set<string>; queued: Set<string> }> {
    const ids = async (dir: string) => {
      try {
        const names = await readdir(dir);
        return new Set(
          names
            .filter((f) => f.endsWith('.json') && !f.startsWith('.') && !f.startsWith('batch-'))
            .map((f) => f.slice(0, -'.json'.length)),
        );
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set<string>();
        throw err;
      }
    };
    this.files ??= Promise.all([receiptIds(this.opts.dir), ids(this.failedDir), ids(this.queueDir)]).then(
      ([sent, failed, queued]) => ({ sent, failed, queued }),
      (err) => {
        this.files = null;
        throw err;
      },
    );
    return this.files;
  }
}

/** The receipt of a turn mail skipped for a newer one of the same seat (never composed). */
function skippedReceipt(id: string, at: number): SentReceipt {
  return { key: '', id, to: '', subject: '', messageId: '', createdAt: 0, sentAt: at, attempts: 0, skipped: true };
}

/** The ids in a receipts file's lines (a line cut short by a crash was never acknowledged: left out). */
function receiptLineIds(text: string): string[] {
  return (journalLines(text) as { id?: unknown }[]).flatMap((r) => (typeof r?.id === 'string' ? [r.id] : []));
}

/** The ids of every receipt kept under a mail folder (DATA_DIR/mail): receipts files and older single files. */
export async function receiptIds(mailDir: string): Promise<Set<string>> {
  const dir = join(mailDir, 'sent');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw err;
  }
  const out = new Set<string>();
  for (const f of names) {
    if (f.startsWith('.')) continue;
    if (isReceiptsFile(f)) {
      try {
        for (const id of receiptLineIds(await readFile(join(dir, f), 'utf8'))) out.add(id);
      } catch (err) {
        // removed by a prune meanwhile
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    } else if (f.endsWith('.json')) out.add(f.slice(0, -'.json'.length));
  }
  return out;
}
