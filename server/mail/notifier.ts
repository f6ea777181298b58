// Listens to the game service's events and queues the mails they call for.
// Only small specs are queued here (durably, under an idempotency key made of
// the game, the log position and the recipient), so a move's answer is not
// held up by rendering; the queue renders each one when it sends it.
import { createHash } from 'node:crypto';
import type { QuotaCounter } from '../quota.ts';
import type { GameEvent, GameEventListener } from '../events.ts';
import type { GameService, LoadedGame } from '../service.ts';
import type { GameDoc, LogEntry } from '../store/types.ts';
import type { Seat } from '../../rules/types.ts';
import type { MailQueueApi } from './queue.ts';
import type { Spec } from './compose.ts';
import { mailPref } from './prefs.ts';
import { localDate, nextDigestAt, type DigestBookApi } from './digest.ts';
import { mailId } from './message.ts';
import type { MailCursorApi } from './cursor.ts';

export interface NotifierOptions {
  service: GameService;
  queue: MailQueueApi;
  digest: DigestBookApi;
  /** Hour (UTC) the daily digest goes out for an address that chose no time. */
  digestHourUtc?: number;
  /** Where the notifier records how far each game's mail is queued (crash recovery). */
  cursor: MailCursorApi;
  /** Invitations per receiving address (a quota; server/quota.ts). None: no limit. */
  inviteQuota?: QuotaCounter;
  log?: (event: Record<string, unknown>) => void;
}

const STATE_KINDS = new Set(['start', 'move', 'undo']);

/** The toAct recorded by the state-changing entry before `seq` ([] if none). */
function toActBefore(log: LogEntry[], seq: number): Seat[] {
  for (let i = seq - 2; i >= 0; i--) {
    const e = log[i]!;
    if (STATE_KINDS.has(e.kind)) return (e.data?.toAct as Seat[] | undefined) ?? [];
  }
  return [];
}

/** `seat` made a move logged after entry `seq` (a standing order played it in the same write). */
function movedAfter(log: LogEntry[], seat: Seat, seq: number): boolean {
  for (let i = log.length - 1; i >= 0 && log[i]!.seq > seq; i--) {
    const e = log[i]!;
    if (e.kind === 'move' && e.seat === seat) return true;
  }
  return false;
}

/** The last of the first `upto` entries that `test` takes, looked for from the end (a log may be long). */
function findLast(log: LogEntry[], upto: number, test: (e: LogEntry) => boolean): LogEntry | undefined {
  for (let i = Math.min(upto, log.length) - 1; i >= 0; i--) if (test(log[i]!)) return log[i];
  return undefined;
}

function seatId(doc: GameDoc, seat: Seat) {
  const s = doc.seats[seat]!;
  return { seat, slot: s.slot, generation: s.generation };
}

export function createMailNotifier(o: NotifierOptions): Notifier {
  const put = (key: string, spec: Spec) => o.queue.enqueueSpec(key, spec as unknown as { type: string });

  /** Turn mail for a seat asked to act by the state-changing entry `seq` (the current one by default). */
  async function turn(game: LoadedGame, seat: Seat, at: string, intro?: string, seq = game.stateSeq): Promise<void> {
    const doc = game.doc;
    const rec = doc.seats[seat];
    if (!rec || rec.vacant || !rec.email) return;
    const pref = mailPref(rec);
    if (pref === 'digest') {
      await o.digest.add(rec.email, doc.id, seat);
      // At the hour the player chose on their own clock (else the server's default hour, UTC).
      // The digest day follows the game clock; the send time is on the queue's clock.
      const time = (await o.digest.time(rec.email)) ?? { hour: o.digestHourUtc ?? 7, zone: 'UTC' };
      const t = Date.parse(at);
      const when = nextDigestAt(t, time.hour, time.zone);
      const day = localDate(when, time.zone);
      await o.queue.enqueueSpec(
        `digest:${mailId(rec.email.toLowerCase())}:${day}`,
        { type: 'digest', email: rec.email },
        { notBefore: o.queue.clock() + (when - t) },
      );
      return;
    }
    if (pref !== 'every') return;
    const id = seatId(doc, seat);
    await put(`turn:${doc.id}:${seq}:${seat}:${id.slot}.${id.generation}`, {
      type: 'turn',
      gameId: doc.id,
      ...id,
      stateSeq: seq,
      intro,
    });
  }

  /** A seat whose standing order ended at entry `seq` is told why (server/orders.ts; keyed by the order: once). */
  async function orderMails(doc: GameDoc, seq: number): Promise<void> {
    for (let seat = 0; seat < doc.seats.length; seat++) {
      const rec = doc.seats[seat]!;
      if (rec.vacant || !rec.email) continue;
      for (const e of rec.orders?.ended ?? []) {
        if (e.seq !== seq || !e.mail) continue;
        await put(`order:${doc.id}:${seat}:${rec.slot}.${rec.generation}:${e.id}`, {
          type: 'orderEnded',
          gameId: doc.id,
          seat,
          slot: rec.slot,
          generation: rec.generation,
          orderId: e.id,
        });
      }
    }
  }

  /** The organiser hears once per reason and log length (a game mended and broken again is news again). */
  async function attention(gameId: string, reason: string): Promise<void> {
    const lastSeq = (await o.service.entry(gameId))?.lastSeq ?? 0;
    const why = createHash('sha256').update(reason).digest('hex').slice(0, 16);
    await put(`attention:${gameId}:${lastSeq}:${why}`, { type: 'attention', gameId, reason });
  }

  async function toEveryone(doc: GameDoc, make: (seat: Seat) => [string, Spec] | null): Promise<void> {
    for (let seat = 0; seat < doc.seats.length; seat++) {
      const rec = doc.seats[seat]!;
      if (rec.vacant || !rec.email) continue;
      const r = make(seat);
      if (r) await put(r[0], r[1]);
    }
  }

  async function handle(event: GameEvent): Promise<void> {
    if (event.type === 'invited') {
      const game = await o.service.open(event.gameId);
      // Invited to take over a reopened seat: say whose.
      const reopen = game.doc.status === 'active' ? game.doc.log.filter((e) => e.kind === 'reopen').pop() : undefined;
      const replacing = reopen?.text?.match(/\((.*)\)/)?.[1];
      for (const email of event.emails) {
        // An address that said no to invitations gets none.
        if (!(await o.digest.takesInvitations(email))) {
          o.log?.({ msg: 'invitation not sent: the address takes no invitations', gameId: event.gameId });
          continue;
        }
        // Nobody gets invitations by the dozen, whoever sends them.
        if (o.inviteQuota && !(await o.inviteQuota.take(email.trim().toLowerCase()))) {
          o.log?.({ msg: 'invitation not sent: the address had its quota for today', gameId: event.gameId });
          continue;
        }
        await put(`invite:${event.gameId}:${event.inviteGeneration}:${email.toLowerCase()}`, {
          type: 'invite',
          gameId: event.gameId,
          email,
          inviteGeneration: event.inviteGeneration,
          ...(replacing ? { replacing } : {}),
        });
      }
      return;
    }
    if (event.type === 'created') {
      await put(`created:${event.gameId}`, { type: 'created', gameId: event.gameId });
      return;
    }
    if (event.type === 'attention') {
      await attention(event.gameId, event.reason);
      return;
    }
    const game = await o.service.open(event.gameId);
    const doc = game.doc;
    if (event.type === 'abandoned') {
      await toEveryone(doc, (seat) => {
        const id = seatId(doc, seat);
        return [
          `abandoned:${doc.id}:${seat}:${id.slot}.${id.generation}`,
          { type: 'abandoned', gameId: doc.id, ...id },
        ];
      });
      return;
    }
    switch (event.type) {
      case 'talk': {
        // Table talk reaches every other seat in its thread (the speaker gets the answer to their reply).
        await toEveryone(doc, (seat) => {
          if (seat === event.seat) return null;
          const id = seatId(doc, seat);
          return [
            `talk:${doc.id}:${event.seq}:${seat}:${id.slot}.${id.generation}`,
            { type: 'talk', gameId: doc.id, ...id, talkSeq: event.seq },
          ];
        });
        return;
      }
      case 'joined': {
        // The join's own entry (the event's seat is the index at that moment; the order is drawn at the start).
        const entry = findLast(
          doc.log,
          doc.log.length,
          (e) => e.kind === 'join' && e.seat === event.seat && e.at === event.at,
        );
        if (!entry) return;
        // A running game goes on when its seat is taken: standing orders may have ended with it.
        if (doc.status === 'active') await orderMails(doc, entry.seq);
        const slot = Number(entry.data?.slot ?? entry.seat ?? 0);
        const seat = doc.seats.findIndex((s) => s.slot === slot && !s.vacant);
        const rec = doc.seats[seat];
        if (!rec?.email) return;
        if (/took over/.test(entry.text ?? '')) {
          // A newcomer took over a reopened seat of a running game: a welcome with the game so far
          // (and the quick links, if it is their turn). Keyed by the join, so hearing it again queues nothing.
          await put(`welcome:${doc.id}:${entry.seq}:${slot}.${rec.generation}`, {
            type: 'welcome',
            gameId: doc.id,
            seat,
            slot,
            generation: rec.generation,
            joinSeq: entry.seq,
          });
          return;
        }
        // The organiser's own seat, taken as the game was made: the set-up mail carries its link.
        if (doc.creatorSlot === slot && doc.log[0]?.at === entry.at) return;
        // Somebody took a seat before the start: their personal link at once (a closed tab must not
        // lose the seat). Skipped when sent if the game has started by then: that mail carries it.
        await put(`seated:${doc.id}:${slot}.${rec.generation}`, {
          type: 'seated',
          gameId: doc.id,
          slot,
          generation: rec.generation,
        });
        return;
      }
      case 'started': {
        const start = doc.log.find((e) => e.kind === 'start');
        // An imported game is started and played up to where it stood in one write: the turn mail
        // is for the position after its last imported move.
        const startSeq =
          start && doc.log[0]?.data?.imported !== undefined
            ? doc.log.filter((e) => STATE_KINDS.has(e.kind) && e.at === start.at).pop()?.seq
            : start?.seq;
        for (let seat = 0; seat < doc.seats.length; seat++) {
          if (event.toAct.includes(seat)) await turn(game, seat, event.at, 'The game has started.', startSeq);
          else if (mailPref(doc.seats[seat]!) === 'every') {
            const id = seatId(doc, seat);
            await put(`started:${doc.id}:${seat}:${id.slot}.${id.generation}`, {
              type: 'started',
              gameId: doc.id,
              ...id,
            });
          }
        }
        return;
      }
      case 'moved':
      case 'undone': {
        const before = toActBefore(doc.log, event.seq);
        // The server's moves for an absent seat come as a run in one write: one mail, for the last.
        const autoRun = (e: LogEntry | undefined) =>
          e?.kind === 'move' && e.seat === event.seat && e.data?.auto === true && e.at === event.at;
        if (event.type === 'moved' && event.auto && !autoRun(doc.log[event.seq])) {
          let first = event.seq;
          while (first > 1 && autoRun(doc.log[first - 2])) first--;
          const prev = findLast(doc.log, first - 1, (e) => STATE_KINDS.has(e.kind));
          const since = prev?.at ?? event.at;
          // The reminders of the wait before the run (entries between its state change and the run).
          let reminders = 0;
          for (let i = prev?.seq ?? 0; i < event.seq - 1; i++) {
            const e = doc.log[i];
            if (e?.kind === 'reminder' && ((e.data?.seats as Seat[] | undefined) ?? []).includes(event.seat))
              reminders++;
          }
          await toEveryone(doc, (seat) => {
            const id = seatId(doc, seat);
            return [
              `auto:${doc.id}:${event.seq}:${seat}:${id.slot}.${id.generation}`,
              {
                type: 'automoved',
                gameId: doc.id,
                ...id,
                moveSeq: event.seq,
                firstSeq: first,
                absent: event.seat,
                since,
                reminders,
              },
            ];
          });
        }
        if (event.type === 'undone') {
          await toEveryone(doc, (seat) => {
            if (seat === event.seat || mailPref(doc.seats[seat]!) !== 'every') return null;
            const id = seatId(doc, seat);
            return [
              `undone:${doc.id}:${event.seq}:${seat}:${id.slot}.${id.generation}`,
              { type: 'undone', gameId: doc.id, ...id, undoSeq: event.seq },
            ];
          });
        }
        // A turn mail for every seat whose turn it has just become: not for seats
        // already asked (simultaneous choices: one mail when the choice opens, not
        // one per other seat's choice), and not for a player who acts again right
        // after their own move or take-back (several actions in a row, as in an
        // 18xx operating turn): the page they moved from already shows it. A seat
        // the server moved for is not on any page, so it is told.
        if (event.type === 'moved') await orderMails(doc, event.seq);
        for (const seat of event.toAct) {
          // The seat has moved since (a standing order in the same write, or a move made before
          // this entry's mail was queued: a late listener, or another process's reconcile after a
          // crash): the turn has gone by, and its mail would only tell of a position played.
          if (movedAfter(doc.log, seat, event.seq)) continue;
          // A seat the server or its own standing order moved for is not on any page, so it is told.
          const byServer = event.type === 'moved' && (event.auto || event.programmed === true);
          const ownAgain = seat === event.seat && !byServer;
          if (ownAgain || (before.includes(seat) && seat !== event.seat)) continue;
          await turn(game, seat, event.at, undefined, event.seq);
        }
        return;
      }
      case 'seatReopened': {
        // The player who was removed is told, and by whom (the address is kept privately, not in the log).
        const reopen = doc.log.filter((e) => e.kind === 'reopen' && e.seat === event.seat && e.at === event.at).pop();
        const gone = (doc.retiredSeats ?? []).find(
          (r) => r.slot === reopen?.data?.slot && r.generation === reopen?.data?.generation,
        );
        if (gone?.email)
          await put(`removed:${doc.id}:${gone.slot}.${gone.generation}`, {
            type: 'removed',
            gameId: doc.id,
            slot: gone.slot,
            generation: gone.generation,
          });
        const name =
          doc.log
            .filter((e) => e.kind === 'reopen' && e.seat === event.seat)
            .pop()
            ?.text?.match(/\((.*)\)/)?.[1] ?? `Seat ${event.seat + 1}`;
        await toEveryone(doc, (seat) => {
          if (seat === event.seat || mailPref(doc.seats[seat]!) !== 'every') return null;
          const id = seatId(doc, seat);
          return [
            `reopened:${doc.id}:${event.inviteGeneration}:${seat}:${id.slot}.${id.generation}`,
            { type: 'reopened', gameId: doc.id, ...id, reopenedSeat: event.seat, reopenedName: name },
          ];
        });
        return;
      }
      case 'finished': {
        await toEveryone(doc, (seat) => {
          const id = seatId(doc, seat);
          return [`over:${doc.id}:${seat}:${id.slot}.${id.generation}`, { type: 'over', gameId: doc.id, ...id }];
        });
        return;
      }
    }
  }

  /**
   * After a restart: the events of writes that reached the disk before a crash
   * may never have reached this listener, however long ago that was. For every
   * game whose log is longer than its mail cursor, the entries past the cursor
   * are heard again as the events they were (start, moves, take-backs,
   * reopened seats, the end, the abandon); every mail is keyed by the entry it
   * answers, so this queues nothing that was queued before. A game the cursor
   * has never seen is heard from its first entry. Invitations are not
   * replayed: the log does not hold invitees' addresses, and the admin page
   * shows the link. Opens only the games behind their cursor; returns how many.
   * `fresh`: there was no cursor file (a new data folder, or the first start
   * since cursors): every game counts as mailed up to its end.
   */
  async function reconcile(fresh = false): Promise<number> {
    let opened = 0;
    let failure: unknown = null;
    const all = o.cursor.behind && !fresh ? await o.cursor.behind() : await o.service.logEnds();
    for (const e of all) {
      // A game found needing attention just before a crash: its organiser may not have heard (keyed: once).
      if (e.attention) await attention(e.id, e.attention);
      if (fresh) {
        o.cursor.set(e.id, e.lastSeq);
        continue;
      }
      const mark = o.cursor.get(e.id) ?? 0;
      if (e.lastSeq <= mark) continue;
      opened++;
      try {
        const doc = (await o.service.open(e.id)).doc;
        // Entry seq n is at index n - 1: only the entries past the mark are read.
        for (let i = mark; i < doc.log.length; i++) {
          const entry = doc.log[i]!;
          const event = eventOf(doc, entry);
          if (event) await handle(event);
        }
        o.cursor.set(e.id, doc.log.length);
      } catch (err) {
        failure ??= err; // this game's cursor stays where it was; the others go on
      }
    }
    await o.cursor.save();
    if (failure) throw failure;
    return opened;
  }

  /** A seat changed its mail preference: one who switched to the digest while the game waits for it goes in the next digest. */
  async function prefChanged(gameId: string, seat: Seat, at: string): Promise<void> {
    const game = await o.service.open(gameId);
    const rec = game.doc.seats[seat];
    if (!rec || mailPref(rec) !== 'digest' || game.doc.status !== 'active' || !game.state) return;
    if (game.rules.toAct(game.state).includes(seat)) await turn(game, seat, at);
  }

  // The position an event stands for: its own entry, or (events without one) the
  // game's log as it was when the event was emitted, right after the write.
  const listener = (async (event: GameEvent) => {
    const seq = 'seq' in event ? event.seq : ((await o.service.entry(event.gameId))?.lastSeq ?? 0);
    const done = o.cursor.begin(event.gameId, seq);
    return handle(event).then(
      () => done(true),
      (err: unknown) => {
        done(false);
        throw err;
      },
    );
  }) as Notifier;
  listener.handle = handle;
  listener.reconcile = reconcile;
  listener.prefChanged = prefChanged;
  return listener;
}

/** The event a log entry was announced with, for those that call for mail. */
function eventOf(doc: GameDoc, e: LogEntry): GameEvent | null {
  const base = { gameId: doc.id, at: e.at };
  const toAct = (e.data?.toAct as Seat[] | undefined) ?? [];
  switch (e.kind) {
    case 'create':
      return { ...base, type: 'created' };
    case 'start':
      return { ...base, type: 'started', toAct };
    case 'move':
      return {
        ...base,
        type: 'moved',
        seq: e.seq,
        seat: e.seat ?? 0,
        auto: e.data?.auto === true,
        ...(e.data?.programmed === true ? { programmed: true } : {}),
        toAct,
      };
    case 'undo':
      return { ...base, type: 'undone', seq: e.seq, seat: e.seat ?? 0, undoneSeq: Number(e.data?.undoes ?? 0), toAct };
    case 'join':
      return { ...base, type: 'joined', seat: e.seat ?? 0, name: '' };
    case 'reopen':
      if (e.data?.left) return null;
      return {
        ...base,
        type: 'seatReopened',
        seat: e.seat ?? 0,
        inviteGeneration: Number(e.data?.inviteGeneration ?? doc.inviteGeneration),
      };
    case 'finish':
      return { ...base, type: 'finished' };
    case 'abandon':
      return e.data?.quiet ? null : { ...base, type: 'abandoned' };
    case 'notice': {
      if (typeof e.data?.talk === 'string') return { ...base, type: 'talk', seq: e.seq, seat: e.seat ?? 0 };
      const invited = e.data?.confirmed ? ((e.data.invited as string[] | undefined) ?? []) : [];
      if (invited.length === 0) return null;
      return { ...base, type: 'invited', emails: invited, inviteGeneration: Number(e.data?.inviteGeneration ?? 0) };
    }
    default:
      return null;
  }
}

export type Notifier = GameEventListener & {
  handle(event: GameEvent): Promise<void>;
  reconcile(fresh?: boolean): Promise<number>;
  prefChanged(gameId: string, seat: Seat, at: string): Promise<void>;
};
