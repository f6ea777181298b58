// Turns a queued mail spec into the mail itself, at send time, from the game
// as it stands then. A spec that no longer applies (the player already moved,
// the seat was reopened, they switched mail off) composes to null and is
// recorded as skipped. Every mail of one game to one address shares a thread.
import { changedShapes, pictureThen, ringChanges } from '../http/page-parts.ts';
import { nameRows, phoneCloseUp } from './closeup.ts';
import { orderLinks } from '../http/orders.ts';
import type { GameService, LoadedGame } from '../service.ts';
import type { GameDoc, SeatRecord } from '../store/types.ts';
import type { AnyRules, Seat, View } from '../../rules/types.ts';
import { mailId, messageIdFor, type OutgoingMail } from './message.ts';
import { nameSeats, nameSeatsInMarkup } from '../game-log.ts';
import { gamesOf } from './my-games.ts';
import type { MailSpec } from './queue.ts';
import type { MailRenderer, MailContext, MailKind, PlayerRef } from './render.ts';
import { mailPref, type MailPref } from './prefs.ts';
import type { DigestBookApi } from './digest.ts';
import { replyAddress } from './reply-address.ts';

/** History lines in a newcomer's welcome mail (the newest; the rest are on their page). */
const WELCOME_HISTORY = 30;

/** Quick links per turn mail; the rest of the moves are on the player's page. */
export const MAX_QUICK_LINKS = 12;

export type Spec =
  | { type: 'turn'; gameId: string; seat: Seat; slot: number; generation: number; stateSeq: number; intro?: string }
  | { type: 'invite'; gameId: string; email: string; inviteGeneration: number; replacing?: string }
  | { type: 'started'; gameId: string; seat: Seat; slot: number; generation: number }
  | {
      type: 'reopened';
      gameId: string;
      seat: Seat;
      slot: number;
      generation: number;
      reopenedSeat: Seat;
      reopenedName: string;
    }
  | { type: 'undone'; gameId: string; seat: Seat; slot: number; generation: number; undoSeq: number }
  | {
      type: 'reminder';
      gameId: string;
      seat: Seat;
      slot: number;
      generation: number;
      number: number;
      of: number;
      since: string;
    }
  | {
      type: 'escalation';
      gameId: string;
      seat: Seat;
      slot: number;
      generation: number;
      since: string;
      waitingFor: Seat[];
      reminders: number;
    }
  | {
      type: 'automoved';
      gameId: string;
      seat: Seat;
      slot: number;
      generation: number;
      moveSeq: number;
      /** The first of the server's moves in a row for the absent seat (absent: only moveSeq). */
      firstSeq?: number;
      absent: Seat;
      since: string;
      reminders: number;
    }
  | { type: 'over'; gameId: string; seat: Seat; slot: number; generation: number }
  /** A newcomer took over a reopened seat (join entry `joinSeq`): the game so far, and their link. */
  | { type: 'welcome'; gameId: string; seat: Seat; slot: number; generation: number; joinSeq: number }
  /** Somebody took a seat before the start: their personal link at once. */
  | { type: 'seated'; gameId: string; slot: number; generation: number }
  /** A player removed from their seat (GameMeta.retiredSeats): what became of it, and by whom. */
  | { type: 'removed'; gameId: string; slot: number; generation: number }
  | { type: 'abandoned'; gameId: string; seat: Seat; slot: number; generation: number }
  | { type: 'created'; gameId: string }
  | { type: 'attention'; gameId: string; reason: string }
  | { type: 'digest'; email: string }
  | {
      /** The answer to a reply by mail (server/mail/inbound/desk.ts), in the reply's thread. */
      type: 'answer';
      gameId: string;
      seat: Seat;
      slot: number;
      generation: number;
      /** The reply's Message-ID and subject (null: it had none). */
      replyTo: string | null;
      subject: string;
      done: string[];
      refusal: string | null;
      refusedLine: string | null;
      ignored: string | null;
      /** Blocks of text asked for (history, help). */
      output: string[];
    }
  | { type: 'talk'; gameId: string; seat: Seat; slot: number; generation: number; talkSeq: number }
  /** The seat's standing order `orderId` ended (stopped or done): why (SeatRecord.orders.ended). */
  | { type: 'orderEnded'; gameId: string; seat: Seat; slot: number; generation: number; orderId: string }
  /** An address's list of all its games, asked for on /games. */
  | { type: 'mygames'; email: string };

export interface ComposerOptions {
  service: GameService;
  renderer: MailRenderer;
  /** From: header, e.g. "Share Games <games@example.org>". */
  from: string;
  /** Domain for Message-IDs. */
  domain: string;
  digest: DigestBookApi;
  /** false: always rasterise afresh (the bench). */
  pngCache?: boolean;
  /** MAIL_DOMAIN: seats' mail carries Reply-To play+<token>@replyDomain and the commands to reply with. Unset: none. */
  replyDomain?: string;
}

/** Moves listed by number for replies in a turn mail's text; the rest are typed as commands. */
export const MAX_REPLY_MOVES = 30;

/** The seq a game mail's Message-ID carries (`<id.s<seq>@domain>`), so a reply to it is judged at that position. */
export function seqOfMessageId(id: string): number | null {
  const m = /\.s(\d{1,9})@/.exec(id);
  return m ? Number(m[1]) : null;
}

/** Which preferences receive which mail. Invitations go out regardless (there are no preferences yet). */
const WANTS: Record<
  Exclude<Spec['type'], 'invite' | 'digest' | 'created' | 'seated' | 'removed' | 'mygames' | 'attention'>,
  MailPref[]
> = {
  welcome: ['every', 'digest', 'reminders'],
  abandoned: ['every', 'digest', 'reminders'],
  turn: ['every'],
  started: ['every'],
  reopened: ['every'],
  undone: ['every'],
  reminder: ['every', 'reminders'],
  escalation: ['every', 'digest', 'reminders'],
  automoved: ['every', 'digest', 'reminders'],
  over: ['every', 'digest', 'reminders'],
  // Somebody wrote to the server: they get the answer whatever their mail preference.
  answer: ['every', 'digest', 'reminders', 'nothing'],
  talk: ['every', 'digest', 'reminders'],
  // The player left the order and asked to hear when it stops.
  orderEnded: ['every', 'digest', 'reminders'],
};

export function gameLabel(doc: Pick<GameDoc, 'id' | 'title'>): string {
  return `${doc.title} #${doc.id.slice(0, 6)}`;
}

export class MailComposer {
  constructor(private readonly o: ComposerOptions) {}

  /** The root of the thread for one game and one address (never sent itself; every mail refers to it). */
  threadRoot(gameId: string, email: string): string {
    return `<game.${gameId}.${mailId(email.toLowerCase())}@${this.o.domain}>`;
  }

  async compose(raw: MailSpec, key: string): Promise<OutgoingMail | null> {
    const spec = raw as unknown as Spec;
    if (spec.type === 'digest') return this.digest(spec.email, key);
    if (spec.type === 'mygames') return this.myGames(spec.email, key);
    if (spec.type === 'invite') return this.invite(spec, key);
    if (spec.type === 'created') return this.created(spec, key);
    if (spec.type === 'seated') return this.seated(spec, key);
    if (spec.type === 'removed') return this.removed(spec, key);
    if (spec.type === 'attention') return this.attention(spec, key);
    const game = await this.openIfThere(spec.gameId);
    if (!game) return null;
    const doc = game.doc;
    const seatRec = doc.seats[spec.seat];
    // The seat changed hands (reopened) or is empty: this mail was for somebody else.
    if (
      !seatRec ||
      seatRec.vacant ||
      seatRec.slot !== spec.slot ||
      seatRec.generation !== spec.generation ||
      !seatRec.email
    )
      return null;
    if (!WANTS[spec.type].includes(mailPref(seatRec))) return null;
    const base = this.baseContext(game, spec.seat, seatRec);
    const toAct = game.state ? game.rules.toAct(game.state) : [];
    const names = (seats: Seat[]) => seats.map((s) => doc.seats[s]?.name ?? `Seat ${s + 1}`);
    const label = gameLabel(doc);
    switch (spec.type) {
      case 'turn': {
        if (doc.status !== 'active' || !toAct.includes(spec.seat) || this.movedSince(doc, spec.seat, spec.stateSeq))
          return null;
        const ctx = this.withTurn(game, spec.seat, base);
        // What changed since the seat's last move, ringed on the board; and the close-up for a
        // phone above it (those changes at a readable size, and the seat's own card), drawn from
        // the seat's own views only.
        const then = ctx.svg ? await pictureThen(this.o.service, game, spec.seat, 'mail') : null;
        const rows = ctx.view && game.rules.holdings ? safely(() => game.rules.holdings!(ctx.view!)) : undefined;
        // The shapes that changed, found once for both the close-up and the rings on the board.
        const changed = then !== null && ctx.svg ? changedShapes(then, ctx.svg) : null;
        ctx.closeUpSvg = phoneCloseUp({
          rows: rows && nameRows(rows, (text) => nameSeats(text, doc)),
          before: then,
          after: ctx.svg,
          changed,
        });
        if (then !== null && ctx.svg) ctx.svg = ringChanges(then, ctx.svg, undefined, changed);
        ctx.intro = spec.intro;
        ctx.history = this.o.service.sinceLastTurn(game, spec.seat).map((l) => ({ seq: l.seq, text: l.text }));
        ctx.waitingFor = names(toAct);
        ctx.others = names(toAct.filter((s) => s !== spec.seat));
        return this.mail('turn', ctx, game, seatRec, key, `Your turn in ${label} (move ${game.stateSeq})`);
      }
      case 'welcome': {
        if (doc.status !== 'active') return null;
        const yourTurn = toAct.includes(spec.seat);
        const ctx = yourTurn ? this.withTurn(game, spec.seat, base) : { ...base, ...this.seen(game, spec.seat) };
        // The game so far: the newest entries in words (the page and the download hold all of them).
        const lines = this.o.service
          .historyLines(game)
          .filter((l) => l.kind !== 'reminder' && l.kind !== 'prefs' && l.kind !== 'policy');
        Object.assign(ctx, {
          seatNumber: spec.seat + 1,
          replacing: this.replaced(doc, spec.slot, spec.generation),
          history: lines.slice(-WELCOME_HISTORY).map((l) => ({ seq: l.seq, text: l.text })),
          earlier: Math.max(0, lines.length - WELCOME_HISTORY),
          yourTurn,
          waitingFor: names(toAct),
        });
        return this.mail(
          'welcome',
          ctx,
          game,
          seatRec,
          key,
          `Welcome to ${label}: you took over seat ${spec.seat + 1}`,
        );
      }
      case 'started': {
        if (doc.status !== 'active' || toAct.includes(spec.seat)) return null; // those to act get a turn mail
        const ctx = { ...base, ...this.seen(game, spec.seat), waitingFor: names(toAct) };
        return this.mail('started', ctx, game, seatRec, key, `${label}: the game has started`);
      }
      case 'reopened':
        return this.mail(
          'reopened',
          { ...base, seatName: spec.reopenedName },
          game,
          seatRec,
          key,
          `${label}: ${spec.reopenedName}'s seat was reopened`,
        );
      case 'undone': {
        const undo = doc.log[spec.undoSeq - 1];
        if (undo?.kind !== 'undo') return null;
        const by = (undo.data?.by as string | undefined) ?? names([undo.seat ?? 0])[0]!;
        const ctx = {
          ...base,
          undoneBy: by,
          undoneText: String(undo.text ?? '').replace(/^took back /, ''),
          yourTurn: toAct.includes(spec.seat),
          waitingFor: names(toAct),
        };
        return this.mail('undone', ctx, game, seatRec, key, `${label}: ${by} took back a move`);
      }
      case 'reminder': {
        // Only while this very wait lasts and the seat still has to act.
        if (doc.status !== 'active' || !doc.wait || doc.wait.since !== spec.since || !toAct.includes(spec.seat))
          return null;
        const ctx = this.withTurn(game, spec.seat, base);
        Object.assign(ctx, { reminderNumber: spec.number, reminderOf: spec.of, waitingSince: formatTime(spec.since) });
        return this.mail(
          'reminder',
          ctx,
          game,
          seatRec,
          key,
          `Reminder: your move in ${label} (move ${game.stateSeq})`,
        );
      }
      case 'escalation': {
        const ctx = {
          ...base,
          waitingFor: names(spec.waitingFor),
          waitingSince: formatTime(spec.since),
          reminders: spec.reminders,
          youAreWaitedFor: spec.waitingFor.includes(spec.seat) && toAct.includes(spec.seat),
        };
        return this.mail(
          'escalation',
          ctx,
          game,
          seatRec,
          key,
          `${label} is waiting for ${names(spec.waitingFor).join(', ')}`,
        );
      }
      case 'automoved': {
        const entry = doc.log[spec.moveSeq - 1];
        if (entry?.kind !== 'move') return null;
        const absentName = names([spec.absent])[0]!;
        const run = doc.log.slice((spec.firstSeq ?? spec.moveSeq) - 1, spec.moveSeq).filter((e) => e.kind === 'move');
        const ctx = {
          ...base,
          absentName,
          autoText: `${absentName} ${nameSeats(entry.text ?? 'moved', doc)}`,
          autoTexts: run.map((e) => `${absentName} ${nameSeats(e.text ?? 'moved', doc)}`),
          waitingSince: formatTime(spec.since),
          reminders: spec.reminders,
          youWereAbsent: spec.absent === spec.seat,
        };
        return this.mail('automoved', ctx, game, seatRec, key, `${label}: the server played for ${absentName}`);
      }
      case 'abandoned':
        if (doc.status !== 'abandoned') return null;
        return this.mail('abandoned', base, game, seatRec, key, `${label} was abandoned`);
      case 'answer': {
        const yourTurn = doc.status === 'active' && toAct.includes(spec.seat);
        const ctx: MailContext = yourTurn
          ? this.withTurn(game, spec.seat, base)
          : { ...base, ...this.seen(game, spec.seat) };
        Object.assign(ctx, {
          done: spec.done,
          refusal: spec.refusal,
          refusedLine: spec.refusedLine,
          ignored: spec.ignored,
          output: spec.output,
          yourTurn,
          waitingFor: names(toAct),
        });
        const subject = /^re:/i.test(spec.subject) ? spec.subject : `Re: ${spec.subject || label}`;
        const answer = await this.mail('answer', ctx, game, seatRec, key, subject);
        if (spec.replyTo) {
          answer.inReplyTo = spec.replyTo;
          answer.references = [this.threadRoot(doc.id, seatRec.email), spec.replyTo];
        }
        return answer;
      }
      case 'talk': {
        const said = doc.log[spec.talkSeq - 1];
        if (said?.kind !== 'notice' || typeof said.data?.talk !== 'string') return null;
        const speaker = (said.data.by as string | undefined) ?? names([said.seat ?? 0])[0]!;
        const talk = said.data.talk;
        const ctx = {
          ...base,
          speaker,
          talk,
          talkLines: talk.split('\n'),
          reply: this.replyContext(game, spec.seat, false),
        };
        return this.mail(
          'talk',
          ctx,
          game,
          seatRec,
          key,
          `${label}: ${speaker} says ${talk.split('\n')[0]!.slice(0, 50)}`,
        );
      }
      case 'orderEnded': {
        const ended = seatRec.orders?.ended.find((e) => e.id === spec.orderId);
        if (!ended) return null;
        const yourTurn = doc.status === 'active' && toAct.includes(spec.seat);
        const ctx = {
          ...base,
          ...this.seen(game, spec.seat),
          orderText: ended.text,
          why: ended.why,
          yourTurn,
          waitingFor: names(toAct),
          ordersUrl: `${base.links.play}/orders`,
        };
        return this.mail('orderEnded', ctx, game, seatRec, key, `${label}: your standing order ended (${ended.why})`);
      }
      case 'over': {
        const outcome = doc.outcome;
        if (!outcome) return null;
        const results = doc.seats
          .map((s, i) => ({
            seat: i,
            name: s.name,
            score: outcome.scores[i],
            rank: outcome.ranks[i] ?? 0,
            you: i === spec.seat,
          }))
          .sort((a, b) => a.rank - b.rank || a.seat - b.seat);
        const ctx = { ...base, results, reason: outcome.reason, ...this.seen(game, spec.seat) };
        const winner = results
          .filter((r) => r.rank === 1)
          .map((r) => r.name)
          .join(' and ');
        return this.mail('over', ctx, game, seatRec, key, `${label}: game over, ${winner} won`);
      }
    }
  }

  /**
   * The game, or null if it is gone (its mail is then skipped). Any other
   * failure to open it is thrown, so the queue tries the mail again later.
   *
   * A copy of the loaded game's fields: the service changes the loaded game in place when a move
   * comes in, and a mail is composed across awaits (its pictures, its rendering). The mail shows
   * one position throughout, and its Message-ID names that position: a move made meanwhile gave
   * a turn mail showing move 43 the Message-ID of move 44, and a reply to it ("2") was then
   * judged against move 44's list.
   */
  private async openIfThere(gameId: string): Promise<LoadedGame | null> {
    try {
      return { ...(await this.o.service.open(gameId)) };
    } catch (err) {
      if ((err as { status?: number }).status === 404) return null;
      throw err;
    }
  }

  /** The parts every mail has: sender, recipient, body, a Message-ID from its queue key, and its game's thread (if any). */
  private envelope(
    key: string,
    to: string,
    subject: string,
    rendered: { html: string; text: string },
    threadRoot: string | null,
  ): OutgoingMail {
    return {
      from: this.o.from,
      to,
      subject,
      text: rendered.text,
      html: rendered.html,
      messageId: messageIdFor(key, this.o.domain),
      ...(threadRoot ? { inReplyTo: threadRoot, references: [threadRoot] } : {}),
      headers: { 'Auto-Submitted': 'auto-generated' },
    };
  }

  /** True if `seat` made or took back a move after entry `seq` (its turn mail is stale). */
  private movedSince(doc: GameDoc, seat: Seat, seq: number): boolean {
    for (let i = doc.log.length - 1; i >= 0 && doc.log[i]!.seq > seq; i--) {
      const e = doc.log[i]!;
      if ((e.kind === 'move' || e.kind === 'undo') && e.seat === seat) return true;
    }
    return false;
  }

  private players(doc: GameDoc): PlayerRef[] {
    return doc.seats.map((s, seat) => ({ seat, name: s.name }));
  }

  private baseContext(game: LoadedGame, seat: Seat, rec: SeatRecord): MailContext {
    const links = this.o.service.links;
    const key = links.seatKeyOf(game.doc, seat);
    return {
      kind: 'turn',
      game: { id: game.doc.id, title: game.doc.title, seq: game.stateSeq, name: `#${game.doc.id.slice(0, 6)}` },
      players: this.players(game.doc),
      you: seat,
      recipientName: rec.name,
      links: {
        play: links.playUrl(key),
        history: links.historyUrl(key, 'txt'),
        prefs: prefsUrl(links.baseUrl, key),
        unsubscribe: unsubscribeUrl(links.baseUrl, key),
        games: links.gamesUrl(rec.email),
      },
    };
  }

  /** The seat's view and the picture of it (none if the game draws none, or drawing fails). */
  private seen(game: LoadedGame, seat: Seat): { view: View; svg: string | undefined } {
    const view = this.o.service.viewFor(game, seat);
    if (!game.rules.svg || game.state === null) return { view, svg: undefined };
    try {
      const svg = mailPicture(game.rules, view);
      return { view, svg: svg && nameSeatsInMarkup(svg, game.doc) };
    } catch {
      return { view, svg: undefined };
    }
  }

  /** Adds the view, the board and the quick links for a seat that must act. */
  private withTurn(game: LoadedGame, seat: Seat, base: MailContext): MailContext {
    const links = this.o.service.links;
    const key = links.seatKeyOf(game.doc, seat);
    const { moves, total } = this.o.service.firstMoves(game, seat, MAX_QUICK_LINKS);
    return {
      ...base,
      ...this.seen(game, seat),
      quickMoves: quickLabels(moves).map((m) => ({ label: m.label, url: links.quickMoveUrl(key, m.n, game.stateSeq) })),
      moreMoves: Math.max(0, total - MAX_QUICK_LINKS),
      orderLinks: orderLinks(game, seat, links.playUrl(key)),
      reply: this.replyContext(game, seat, true),
    };
  }

  /**
   * What the text needs to play by replying: the seat's moves by number (the number a reply
   * types) and the game's commands; undefined when replies are off or the seat has no reply token.
   */
  private replyContext(
    game: LoadedGame,
    seat: Seat,
    withMoves: boolean,
  ): { moves: { n: number; text: string }[]; more: number; examples: string[] } | undefined {
    if (!this.o.replyDomain || !this.o.service.links.replyTokenOf(game.doc, seat)) return undefined;
    const { moves, total } = withMoves
      ? this.o.service.firstMoves(game, seat, MAX_REPLY_MOVES)
      : { moves: [], total: 0 };
    return {
      // Numbered as listed (the rules' ranking): a reply's number is found the same way (inbound/desk.ts).
      moves: quickLabels(moves).map((m, i) => ({ n: i + 1, text: m.label })),
      more: Math.max(0, total - MAX_REPLY_MOVES),
      examples: game.rules.commandExamples ?? [],
    };
  }

  /** The seat's Reply-To (play+<token>@MAIL_DOMAIN), or undefined when replies are off. */
  private replyAddressOf(game: LoadedGame, seat: Seat): string | undefined {
    if (!this.o.replyDomain) return undefined;
    const token = this.o.service.links.replyTokenOf(game.doc, seat);
    return token ? replyAddress(game.doc.id, token, this.o.replyDomain) : undefined;
  }

  private async mail(
    kind: MailKind,
    ctx: MailContext,
    game: LoadedGame,
    rec: SeatRecord,
    key: string,
    subject: string,
  ): Promise<OutgoingMail> {
    ctx.kind = kind;
    const rendered = await this.o.renderer.render(ctx, game.doc.rules, { pngCache: this.o.pngCache });
    const envelope = this.envelope(
      key,
      formatAddress(rec.name, rec.email),
      subject,
      rendered,
      this.threadRoot(game.doc.id, rec.email),
    );
    const replyTo = ctx.you === null ? undefined : this.replyAddressOf(game, ctx.you);
    return {
      ...envelope,
      // The position this mail shows, so that a reply to it is judged there (seqOfMessageId).
      messageId: envelope.messageId.replace(/@/, `.s${game.stateSeq}@`),
      ...(replyTo ? { replyTo } : {}),
      headers: {
        'List-Id': `${gameLabel(game.doc).replace(/[<>"]/g, '')} <${game.doc.id}.games.${this.o.domain}>`,
        ...(ctx.links.unsubscribe
          ? { 'List-Unsubscribe': `<${ctx.links.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
          : {}),
        'Auto-Submitted': 'auto-generated',
        // Exchange and Outlook: no out-of-office answers to game mail (they would reach the reply desk).
        'X-Auto-Response-Suppress': 'OOF, AutoReply',
      },
      attachments: [
        ...(rendered.png
          ? [
              {
                filename: 'board.png',
                contentType: 'image/png',
                cid: 'board',
                contentBase64: rendered.png.toString('base64'),
              },
            ]
          : []),
        ...(rendered.closeUpPng
          ? [
              {
                filename: 'changed.png',
                contentType: 'image/png',
                cid: 'closeup',
                contentBase64: rendered.closeUpPng.toString('base64'),
              },
            ]
          : []),
      ],
    };
  }

  /** The name of the player whose seat a newcomer took over (the one retired just before). */
  private replaced(doc: GameDoc, slot: number, generation: number): string | undefined {
    return (doc.retiredSeats ?? []).filter((r) => r.slot === slot && r.generation < generation).pop()?.name;
  }

  /** To a player who took a seat before the start: their personal link, at once. */
  private async seated(spec: Extract<Spec, { type: 'seated' }>, key: string): Promise<OutgoingMail | null> {
    const game = await this.openIfThere(spec.gameId);
    if (!game) return null;
    const doc = game.doc;
    if (doc.status !== 'open') return null; // started since: the started or turn mail carries the link
    const seat = doc.seats.findIndex((s) => s.slot === spec.slot && s.generation === spec.generation && !s.vacant);
    const rec = doc.seats[seat];
    if (!rec?.email) return null;
    const ctx = {
      ...this.baseContext(game, seat, rec),
      seatCount: doc.seatCount,
      joined: doc.seats.length,
      others: doc.seats.filter((_, i) => i !== seat).map((s) => s.name),
    };
    return this.mail('seated', ctx, game, rec, key, `${gameLabel(doc)}: your seat and your link`);
  }

  /** To a player removed from their seat: it was given up, by whom; their old link no longer plays. */
  private async removed(spec: Extract<Spec, { type: 'removed' }>, key: string): Promise<OutgoingMail | null> {
    const game = await this.openIfThere(spec.gameId);
    if (!game) return null;
    const doc = game.doc;
    const r = (doc.retiredSeats ?? []).find((x) => x.slot === spec.slot && x.generation === spec.generation);
    if (!r?.email) return null;
    const links = this.o.service.links;
    const ctx: MailContext = {
      kind: 'removed',
      game: { id: doc.id, title: doc.title, seq: 0, name: `#${doc.id.slice(0, 6)}` },
      players: [],
      you: null,
      recipientName: r.name,
      links: { home: links.homeUrl(), games: links.gamesUrl(r.email) },
      by: r.by,
      when: formatTime(r.at),
      running: doc.status === 'active' || doc.status === 'open',
    };
    const rendered = await this.o.renderer.render(ctx, doc.rules);
    return this.envelope(
      key,
      formatAddress(r.name, r.email),
      `${gameLabel(doc)}: your seat was given up by ${r.by}`,
      rendered,
      this.threadRoot(doc.id, r.email),
    );
  }

  private async invite(spec: Extract<Spec, { type: 'invite' }>, key: string): Promise<OutgoingMail | null> {
    const game = await this.openIfThere(spec.gameId);
    if (!game) return null;
    const doc = game.doc;
    // A newer invitation retired this one, or nobody can join any more.
    if (doc.inviteGeneration !== spec.inviteGeneration || doc.inviteKeyHash === null) return null;
    const links = this.o.service.links;
    const ctx: MailContext = {
      kind: 'invite',
      game: { id: doc.id, title: doc.title, seq: 0, name: `#${doc.id.slice(0, 6)}` },
      players: doc.seats.filter((s) => !s.vacant).map((s, seat) => ({ seat, name: s.name })),
      you: null,
      recipientName: spec.email.replace(/@.*/, ''),
      // The invite link is shared; the preferences link is this address's own (no more invitations).
      links: { invite: links.inviteUrl(links.inviteKeyOf(doc)!), prefs: links.invitationsUrl(spec.email) },
      inviter: doc.creator.name,
      replacing: spec.replacing,
    };
    const rendered = await this.o.renderer.render(ctx, doc.rules);
    return this.envelope(
      key,
      spec.email,
      `${doc.creator.name} invites you to ${doc.title}`,
      rendered,
      this.threadRoot(doc.id, spec.email),
    );
  }

  /** To the organiser: the invite link to pass on and the admin link to keep. */
  private async created(spec: Extract<Spec, { type: 'created' }>, key: string): Promise<OutgoingMail | null> {
    const game = await this.openIfThere(spec.gameId);
    if (!game) return null;
    const doc = game.doc;
    if (!doc.creator.email) return null;
    const links = this.o.service.links;
    const own = doc.seats.findIndex((s) => !s.vacant && s.email.toLowerCase() === doc.creator.email.toLowerCase());
    const p = doc.policy;
    const policyText = !(p.remindAfterHours > 0)
      ? 'off'
      : `after ${p.remindAfterHours} h, then every ${p.repeatHours} h, at most ${p.maxReminders}; then ${p.onTimeout === 'autoMove' ? 'the server plays for the absent seat where the rules allow it' : 'everyone is told'}`;
    const ctx: MailContext = {
      kind: 'created',
      game: { id: doc.id, title: doc.title, seq: 0, name: `#${doc.id.slice(0, 6)}` },
      players: [],
      you: null,
      recipientName: doc.creator.name,
      links: {
        ...(doc.inviteKeyHash ? { invite: links.inviteUrl(links.inviteKeyOf(doc)!) } : {}),
        ...(doc.confirmKeySealed ? { confirm: links.confirmUrl(links.confirmKeyOf(doc)!) } : {}),
        admin: links.adminUrl(links.adminKeyOf(doc)),
        ...(own >= 0
          ? {
              play: links.playUrl(links.seatKeyOf(doc, own)),
              prefs: prefsUrl(links.baseUrl, links.seatKeyOf(doc, own)),
            }
          : {}),
        games: links.gamesUrl(doc.creator.email),
      },
      seatCount: doc.seatCount,
      policyText,
      imported: doc.log[0]?.data?.imported !== undefined,
    };
    const rendered = await this.o.renderer.render(ctx, doc.rules);
    return this.envelope(
      key,
      formatAddress(doc.creator.name, doc.creator.email),
      `Your game of ${doc.title} is set up`,
      rendered,
      this.threadRoot(doc.id, doc.creator.email),
    );
  }

  /** An address's list of games, asked for on /games: nothing goes to an address without games. */
  private async myGames(email: string, key: string): Promise<OutgoingMail | null> {
    const games = await gamesOf(this.o.service, email, Date.now());
    if (games.length === 0) return null;
    const links = this.o.service.links;
    const ctx: MailContext = {
      kind: 'mygames',
      game: { id: '', title: 'Your games', seq: 0 },
      players: [],
      you: null,
      recipientName: email.replace(/@.*/, ''),
      links: { games: links.gamesUrl(email) },
      games,
    };
    const rendered = await this.o.renderer.render(ctx, null);
    const waiting = games.filter((g) => g.yourTurn).length;
    const subject = `Your ${games.length === 1 ? 'game' : `${games.length} games`} on ${new URL(links.baseUrl).host}${waiting ? ` (${waiting} waiting for you)` : ''}`;
    return this.envelope(key, email, subject, rendered, null);
  }

  /**
   * To the organiser: the game no longer replays here as it was played (the
   * code changed under it, or its files were damaged). It stays readable; the
   * reason is given in words, with the links to look at it.
   */
  private async attention(spec: Extract<Spec, { type: 'attention' }>, key: string): Promise<OutgoingMail | null> {
    const game = await this.openIfThere(spec.gameId);
    if (!game) return null;
    const doc = game.doc;
    // Mended since (a newer version of the code replays it again): nothing to say.
    if (!doc.creator.email || !game.attention) return null;
    const links = this.o.service.links;
    const spectatorKey = links.spectatorKeyOf(doc);
    const ctx: MailContext = {
      kind: 'attention',
      game: { id: doc.id, title: doc.title, seq: doc.log.length, name: `#${doc.id.slice(0, 6)}` },
      players: [],
      you: null,
      recipientName: doc.creator.name,
      links: {
        admin: links.adminUrl(links.adminKeyOf(doc)),
        history: links.historyUrl(spectatorKey, 'txt', 'spectator'),
        download: links.historyUrl(spectatorKey, 'json', 'spectator'),
      },
      reason: spec.reason,
    };
    const rendered = await this.o.renderer.render(ctx, doc.rules);
    return this.envelope(
      key,
      formatAddress(doc.creator.name, doc.creator.email),
      `Your game of ${doc.title} needs attention`,
      rendered,
      this.threadRoot(doc.id, doc.creator.email),
    );
  }

  private async digest(email: string, key: string): Promise<OutgoingMail | null> {
    const entries = await this.o.digest.read(email);
    const games: { title: string; url: string; prefs: string; status: string; since: string }[] = [];
    const still: Record<string, number> = {};
    let name = email.replace(/@.*/, '');
    for (const [gameId, seat] of Object.entries(entries)) {
      const game = await this.openIfThere(gameId);
      if (!game) continue;
      const rec = game.doc.seats[seat];
      if (!rec || rec.vacant || rec.email.toLowerCase() !== email.toLowerCase() || mailPref(rec) !== 'digest') continue;
      if (game.doc.status !== 'active' || !game.state || !game.rules.toAct(game.state).includes(seat)) continue;
      still[gameId] = seat;
      name = rec.name;
      const links = this.o.service.links;
      const seatKey = links.seatKeyOf(game.doc, seat);
      games.push({
        title: gameLabel(game.doc),
        url: links.playUrl(seatKey),
        prefs: prefsUrl(links.baseUrl, seatKey),
        status: this.o.service.viewFor(game, seat).status,
        since: formatTime(game.doc.wait?.since ?? game.doc.updatedAt),
      });
    }
    // Only the games read above that no longer wait are forgotten: one another process noted
    // meanwhile stays for the next digest.
    await this.o.digest.remove(
      email,
      Object.keys(entries).filter((id) => !(id in still)),
    );
    if (games.length === 0) return null;
    const ctx: MailContext = {
      kind: 'digest',
      game: { id: '', title: 'Your games', seq: 0 },
      players: [],
      you: null,
      recipientName: name,
      links: { games: this.o.service.links.gamesUrl(email) },
      games,
    };
    const rendered = await this.o.renderer.render(ctx, null);
    const subject =
      games.length === 1 ? `${games[0]!.title} is waiting for you` : `${games.length} games are waiting for you`;
    return this.envelope(key, formatAddress(name, email), subject, rendered, null); // across games: in no game's thread
  }
}

/** Labels for quick links: the rules' label words (imperative, distinct: game-reading.ts). */
export function quickLabels(moves: { n: number; label: string }[]): { n: number; label: string }[] {
  return moves.map((m) => ({ n: m.n, label: m.label }));
}

export function prefsUrl(baseUrl: string, seatKey: string): string {
  return `${baseUrl}/mail/prefs/${seatKey}`;
}

/** The page that lists a player's games, and mails that list on request. */
export function gamesUrl(baseUrl: string): string {
  return `${baseUrl}/games`;
}

export function unsubscribeUrl(baseUrl: string, seatKey: string): string {
  return `${baseUrl}/mail/unsubscribe/${seatKey}`;
}

function formatAddress(name: string, email: string): string {
  const safe = name.replace(/["\\\r\n<>]/g, '');
  return `"${safe}" <${email}>`;
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** What `make` returns, or undefined when it throws (a picture's part never stops a mail). */
function safely<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

/** The picture a mail carries of a view: the game's drawing for a mail's 360-640 px column (rules/picture.ts). */
export function mailPicture(rules: AnyRules, view: View): string | undefined {
  return rules.svg?.(view, 'mail');
}
