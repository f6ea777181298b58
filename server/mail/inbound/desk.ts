// The reply desk: one received mail in, one verdict out. Both ways in (the SMTP
// listener, smtp.ts, and the webhook, http.ts) hand it the raw message.
//
//   size -> parse (mailparser) -> the seat its play+<token> address names -> the sender
//   (the seat's address, or one the admin allowed) -> rate -> the DKIM/SPF/DMARC policy
//   (mailauth) -> the commands -> the answer, queued in the reply's thread.
//
// Verdicts: `answered` (the answer is durably queued: accept the mail), `dropped`
// (an auto-reply, or a duplicate of a mail already answered: accept it and do
// nothing), `refused` (permanent: unknown or retired address, a sender who may not
// play for the seat, a failed authentication, too large), `later` (temporary: the
// sender's rate, or the server could not finish; the sending server tries again).
//
// A reply is judged at the position of the mail it answers: the seq in that mail's
// Message-ID (compose.ts seqOfMessageId), as the web judges a form by its seq. A
// move came in between: refused, with the position as it is now (except where the
// rules take simultaneous choices, which the service allows). A reply that names
// no mail of ours is judged at the current position.
import type { AddressObject, ParsedMail } from 'mailparser';
import type { Seat } from '../../../rules/types.ts';
import { RuleError } from '../../../rules/types.ts';
import { ServiceError } from '../../errors.ts';
import { lineOf, nameSeats } from '../../game-log.ts';
import type { GameService, LoadedGame } from '../../service.ts';
import { Quota } from '../../quota.ts';
import type { Spec } from '../compose.ts';
import { seqOfMessageId } from '../compose.ts';
import { mailId } from '../message.ts';
import type { MailQueueApi } from '../queue.ts';
import { readReplyAddress } from '../reply-address.ts';
import { moveNumber, readReply } from './commands.ts';
import { replyTextOfHtml } from './html-reply.ts';

export type Verdict =
  | { status: 'answered'; gameId: string; seat: Seat; key: string }
  | { status: 'dropped'; reason: string }
  | { status: 'refused'; code: 550 | 552 | 554; reason: string }
  | { status: 'later'; reason: string };

/** What the way in knows of the delivery besides the message. */
export interface Delivery {
  /** Envelope recipients (RCPT TO); the webhook may not know them (then the headers are read). */
  recipients?: string[];
  /** Envelope sender (MAIL FROM), the client's address and its HELO name: for SPF and DMARC. */
  mailFrom?: string;
  ip?: string;
  helo?: string;
}

export interface ReplyDeskOptions {
  service: GameService;
  queue: MailQueueApi;
  /** MAIL_DOMAIN: the domain of the reply addresses. */
  domain: string;
  /** INBOUND_AUTH. */
  auth?: 'off' | 'dkim' | 'dmarc';
  /** Largest message taken (INBOUND_MAX_BYTES). */
  maxBytes?: number;
  /** Replies one sender may send an hour (INBOUND_PER_SENDER_HOUR). */
  perSenderPerHour?: number;
  /** DNS for mailauth (tests answer from a table); default: the system's. */
  resolver?: (name: string, type: string) => Promise<unknown>;
  now?: () => number;
  log?: (event: Record<string, unknown>) => void;
}

/** Lines of history an answer to "history" carries (the newest). */
const HISTORY_LINES = 40;

export class ReplyDesk {
  private readonly quota: Quota;
  readonly maxBytes: number;
  /** Replies being played now, by answer key. */
  private readonly receiving = new Map<string, Promise<Verdict>>();

  constructor(private readonly o: ReplyDeskOptions) {
    this.quota = new Quota(o.perSenderPerHour ?? 60, 3600_000, o.now ?? Date.now);
    this.maxBytes = o.maxBytes ?? 1_048_576;
  }

  /** Whether an envelope recipient is a live reply address (the SMTP listener asks at RCPT TO). */
  async knowsRecipient(address: string): Promise<boolean> {
    const named = readReplyAddress(address, this.o.domain);
    if (!named) return false;
    return (await this.o.service.seatByReplyToken(named.gameId, named.token)) !== null;
  }

  async receive(raw: Buffer, delivery: Delivery = {}): Promise<Verdict> {
    if (raw.length > this.maxBytes)
      return { status: 'refused', code: 552, reason: `The message is larger than ${this.maxBytes} bytes.` };
    let mail: ParsedMail;
    try {
      // No HTML turned into text here, nor text into HTML: an HTML-only reply's own part is
      // converted below (html-reply.ts), so a long one cannot hold up the event loop.
      // Loaded at the first reply: a server that takes none starts without the MIME parser.
      const { simpleParser } = await import('mailparser');
      mail = await simpleParser(raw, {
        skipImageLinks: true,
        skipTextLinks: true,
        skipHtmlToText: true,
        skipTextToHtml: true,
      });
    } catch {
      return { status: 'refused', code: 554, reason: 'The message could not be read.' };
    }
    const named = this.recipientOf(mail, delivery);
    if (!named) return { status: 'refused', code: 550, reason: 'No such address here.' };
    const found = await this.o.service.seatByReplyToken(named.gameId, named.token);
    if (!found) return { status: 'refused', code: 550, reason: 'No such address here (it may have been retired).' };
    const { game, seat } = found;
    const rec = game.doc.seats[seat]!;
    const from = firstAddress(mail.from);
    const allowed = [rec.email.toLowerCase(), ...(rec.replyFrom ?? [])];
    if (!from || !allowed.includes(from)) {
      this.o.log?.({ msg: 'reply refused: sender may not play for this seat', gameId: game.doc.id, seat });
      return { status: 'refused', code: 550, reason: 'This address takes replies only from the player of its seat.' };
    }
    if (isAutomatic(mail)) return { status: 'dropped', reason: 'an automatic reply' };
    if (!this.quota.take(from)) return { status: 'later', reason: 'Too many replies from this sender; try later.' };
    if ((this.o.auth ?? 'off') !== 'off') {
      const why = await this.authProblem(raw, from, delivery);
      if (why) {
        this.o.log?.({ msg: 'reply refused: not authenticated', gameId: game.doc.id, seat, why });
        return { status: 'refused', code: 550, reason: `The sender could not be authenticated (${why}).` };
      }
    }
    const messageId = mail.messageId ?? null;
    const key = `answer:${game.doc.id}:${mailId(messageId ?? `${from}:${raw.length}:${(this.o.now ?? Date.now)()}`)}`;
    // One delivery of a reply at a time, in this process and (on PostgreSQL) across processes: a
    // second delivery while the first is being played waits for it here, or is told to try later
    // by another process, and then finds it answered. Never played twice.
    for (let before = this.receiving.get(key); before; before = this.receiving.get(key)) await before.catch(() => {});
    const done = this.answerOnce(key, game, seat, mail, messageId !== null);
    this.receiving.set(key, done);
    try {
      return await done;
    } finally {
      this.receiving.delete(key);
    }
  }

  /** Plays a reply and queues its answer under `key`, unless it was answered before or another process holds it. */
  private async answerOnce(
    key: string,
    game: LoadedGame,
    seat: Seat,
    mail: ParsedMail,
    named: boolean,
  ): Promise<Verdict> {
    const release = await this.o.queue.claim(key);
    if (!release) return { status: 'later', reason: 'This reply is being taken now; try later.' };
    try {
      if (named && (await this.o.queue.knows(key))) return { status: 'dropped', reason: 'answered before' };
      const spec = await this.play(game, seat, mail);
      await this.o.queue.enqueueSpec(key, spec as unknown as { type: string });
      return { status: 'answered', gameId: game.doc.id, seat, key };
    } finally {
      await release();
    }
  }

  /** The reply address the mail was sent to: the envelope's, else the headers'. */
  private recipientOf(mail: ParsedMail, delivery: Delivery): { gameId: string; token: string } | null {
    const candidates = [...(delivery.recipients ?? [])];
    if (candidates.length === 0) {
      for (const h of ['delivered-to', 'x-original-to', 'envelope-to']) {
        const v = mail.headers.get(h);
        if (typeof v === 'string') candidates.push(v);
        else if (v && typeof v === 'object' && 'value' in v) candidates.push(...addresses(v as AddressObject));
      }
      candidates.push(...addresses(mail.to), ...addresses(mail.cc));
    }
    for (const c of candidates) {
      const named = readReplyAddress(c.replace(/^.*<|>.*$/g, ''), this.o.domain);
      if (named) return named;
    }
    return null;
  }

  /** Null when the message passes the policy, else why not (in a few words). */
  private async authProblem(raw: Buffer, from: string, d: Delivery): Promise<string | null> {
    // mailauth (with the BIMI and VMC parts it brings) takes about a second to load: only a
    // server whose policy checks senders loads it, at the first reply it checks (and for DKIM
    // alone, only its DKIM verifier).
    const resolver = this.o.resolver ? { resolver: this.o.resolver } : {};
    const fromDomain = from.split('@')[1] ?? '';
    if (this.o.auth === 'dmarc') {
      const { authenticate } = await import('mailauth');
      const res = await authenticate(raw, {
        ip: d.ip,
        helo: d.helo,
        sender: d.mailFrom,
        mta: this.o.domain,
        disableArc: true,
        disableBimi: true,
        ...resolver,
      } as Parameters<typeof authenticate>[1]);
      const dmarc = res.dmarc as { status?: { result?: string } } | false;
      const result = dmarc ? dmarc.status?.result : undefined;
      return result === 'pass' ? null : `DMARC ${result ?? 'none'}`;
    }
    // DKIM alone: the signatures and their keys, not SPF and DMARC (a DNS question or more each).
    const { dkimVerify } = await import('mailauth/lib/dkim/verify.js');
    const res = await dkimVerify(raw, resolver as Parameters<typeof dkimVerify>[1]);
    const results = (res.results ?? []) as { status?: { result?: string }; signingDomain?: string }[];
    const aligned = results.some((r) => {
      const d = (r.signingDomain ?? '').toLowerCase();
      return r.status?.result === 'pass' && (fromDomain === d || fromDomain.endsWith(`.${d}`));
    });
    return aligned ? null : "no passing DKIM signature of the sender's domain";
  }

  /** Runs the reply's commands in order, stopping at the first refusal; returns the answer to queue. */
  private async play(game: LoadedGame, seat: Seat, mail: ParsedMail): Promise<Spec> {
    const s = this.o.service;
    const gameId = game.doc.id;
    const rec = game.doc.seats[seat]!;
    const text =
      typeof mail.text === 'string' && mail.text.trim() !== ''
        ? mail.text
        : typeof mail.html === 'string'
          ? await replyTextOfHtml(mail.html)
          : '';
    const parses = (line: string): boolean => {
      if (!game.rules.parse || game.state === null) return false;
      try {
        game.rules.parse(line, game.state, seat);
        return true;
      } catch {
        return false;
      }
    };
    // Our own mail, where a client pasted it under the reply unmarked (see commands.ts): its first
    // line (the layout's title line) and links to this server are never read, nor what follows.
    const titles = [game.doc.title, game.rules.title];
    const site = `${s.links.baseUrl}/`;
    const ours = (line: string) =>
      line.includes(site) || titles.some((title) => line === title || line.startsWith(`${title} · `));
    const reading = readReply(text, game.rules, parses, ours);
    const repliedTo = [mail.inReplyTo ?? '', ...[...asList(mail.references)].reverse()];
    const shown = repliedTo.map(seqOfMessageId).find((n) => n !== null) ?? null;
    let seq = shown ?? game.stateSeq;
    const done: string[] = [];
    const output: string[] = [];
    let refusal: string | null = null;
    let refusedLine: string | null = null;
    if (reading.talk !== null) {
      await s.say(gameId, seat, reading.talk);
      done.push(`You said to the table: ${reading.talk.split('\n')[0]!.slice(0, 200)}`);
    } else if (reading.commands.length === 0) {
      output.push(helpText(game));
    }
    for (const line of reading.commands) {
      const verb = line.split(/\s+/)[0]!.toLowerCase();
      try {
        if (verb === 'say') {
          const words = line.slice(3).trim();
          await s.say(gameId, seat, words);
          done.push(`You said to the table: ${words.slice(0, 200)}`);
        } else if (verb === 'help') {
          output.push(helpText(game));
        } else if (verb === 'board') {
          done.push('Here is the board as it stands.');
        } else if (verb === 'history') {
          const lines = s.recentLines(game, Infinity, HISTORY_LINES);
          output.push(
            `History (the last ${lines.length} entries):\n${lines.map((l) => `  ${l.seq}. ${l.text}`).join('\n')}`,
          );
        } else if (verb === 'undo') {
          const now = await s.open(gameId);
          if (seq !== now.stateSeq) throw new ServiceError(409, staleText(now, seq));
          const r = await s.undo(gameId, seat, seq);
          seq = r.seq;
          done.push('You took back your last move.');
        } else {
          const now = await s.open(gameId);
          if (!s.canPlayAt(now, seat, seq)) {
            if (seq !== now.stateSeq && now.doc.status === 'active') throw new ServiceError(409, staleText(now, seq));
            if (now.doc.status === 'active' && now.state && !now.rules.toAct(now.state).includes(seat))
              throw new ServiceError(409, 'It is not your turn.');
          }
          const action = await actionOf(s, now, seat, seq, line);
          const r = await s.move(gameId, seat, { seq, action });
          seq = r.seq;
          done.push(await movedLine(s, gameId, r.seq, r.text, rec.name));
        }
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        refusal = err.message;
        refusedLine = line.slice(0, 120);
        break;
      }
    }
    const after = await s.open(gameId);
    const current = after.doc.seats[seat] ?? rec;
    return {
      type: 'answer',
      gameId,
      seat,
      slot: current.slot,
      generation: current.generation,
      replyTo: mail.messageId ?? null,
      subject: (mail.subject ?? '').replace(/[\r\n]+/g, ' ').slice(0, 200),
      done,
      refusal,
      refusedLine,
      ignored: reading.ignored,
      output,
    };
  }
}

/** The action a command line stands for: the n-th move of the list the replied-to mail showed, or the game's own words. */
async function actionOf(s: GameService, game: LoadedGame, seat: Seat, seq: number, line: string): Promise<unknown> {
  const n = moveNumber(line);
  if (n !== null) {
    // The n-th move as the mail listed them (the rules' ranking), in the position that mail showed.
    const state = seq === game.stateSeq ? game.state : await s.stateAt(game, seq);
    const then = state === game.state ? game : { ...game, state };
    const { moves, total } = state === null ? { moves: [], total: 0 } : s.firstMoves(then, seat, n);
    const m = n >= 1 ? moves[n - 1] : undefined;
    if (m === undefined) throw new ServiceError(400, `There is no move ${n} in the list (1 to ${total}).`);
    return m.action;
  }
  if (!game.rules.parse) throw new ServiceError(400, 'This game takes no typed commands; type the number of a move.');
  try {
    return game.rules.parse(line, game.state, seat);
  } catch (err) {
    if (err instanceof RuleError) throw new ServiceError(400, err.message);
    throw new ServiceError(400, 'That command could not be read.');
  }
}

/**
 * The answer's words for a move just played: the line the game's history shows for it, with the
 * player's name ("Ada buys a 10% share of PRR from the IPO for $67"), not "You " before it. A
 * history line is written for the third person (rules/types.ts describe: the server puts the
 * player's name first), and the games differ in tense: 1830 says "buys", "passes", "pars ... and
 * buys"; the others "extended ...; took a share". Turning such a line into the second person
 * would mean finding every verb whose subject is the player, in every clause ("; becomes
 * president of NYC", "and withholds it") but not the others' ("Ipswich scores nothing"), and the
 * pronouns too ("BO goes to them"): a grammar per game, and wrong again with the next line a
 * game adds. The history's own line is right in every game by construction, reads as the other
 * players read it, and names other seats (`{seat:N}`) as the history does.
 */
async function movedLine(s: GameService, gameId: string, seq: number, text: string, name: string): Promise<string> {
  const game = await s.open(gameId);
  const entry = game.doc.log[seq - 1];
  if (entry?.seq === seq && entry.kind === 'move') return lineOf(game.doc, entry).text;
  // Not where it belongs (cannot happen while the log is append-only): the same words, made here.
  return nameSeats(`${name} ${text}`, game.doc);
}

function staleText(game: LoadedGame, seq: number): string {
  return (
    `A move came in after the mail you replied to (it showed move ${seq}; the game is at move ${game.stateSeq}), ` +
    'so nothing was played. Here is the position now: reply to this mail with your command.'
  );
}

function helpText(game: LoadedGame): string {
  const examples = game.rules.commandExamples ?? [];
  return [
    'Write one command per line at the top of your reply; they run in order and stop at the first one refused.',
    '  <number>          the move with that number in the list below',
    ...examples.map((e) => `  ${e}`),
    '  say <words>       talk to the table (every player gets it)',
    '  undo              take back your last move, while nobody has acted since',
    '  history           the game so far',
    '  board             a fresh picture',
    '  help              this list',
  ].join('\n');
}

function addresses(a: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list.flatMap((x) => x.value.map((v) => v.address ?? '')).filter((x) => x !== '');
}

function firstAddress(a: AddressObject | undefined): string | null {
  return addresses(a)[0]?.toLowerCase() ?? null;
}

function asList(v: string | string[] | undefined): string[] {
  return Array.isArray(v) ? v : v ? [v] : [];
}

/** Out-of-office and other machine replies (RFC 3834 Auto-Submitted, Precedence, X-Autoreply): never played. */
function isAutomatic(mail: ParsedMail): boolean {
  const auto = String(mail.headers.get('auto-submitted') ?? 'no').toLowerCase();
  if (auto !== 'no' && auto !== '') return true;
  const precedence = String(mail.headers.get('precedence') ?? '').toLowerCase();
  if (['bulk', 'junk', 'list', 'auto_reply'].includes(precedence)) return true;
  if (mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond')) return true;
  // Responders that mark nothing: their subjects (else an absence notice would be table talk,
  // mailed to every seat, whose own responders would answer it...).
  return /^\s*(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?office|abwesen|absence|autosvar|r[ée]ponse automatique|respuesta autom)/i.test(
    mail.subject ?? '',
  );
}
