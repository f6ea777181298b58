// 1830 played whole by replies alone, from its creation to game over. Four
// players take their seats (through the API, as the join links do), the game
// starts and sends its first turn mail, and from then on every move comes in as a
// reply to the mail that asks its player to act (a turn mail, or the answer to
// that player's last reply while the turn stays with them), sent over real SMTP
// to the inbound listener and quoting that mail as one of five common clients
// does. Nothing is sent as JSON and nothing goes through the web.
//
// What the players play: a real game, 18xx.games's game 29133 (four players, 351
// of our moves, ended by a player's bankruptcy; test/fixtures/18xx.games/1830/),
// read through the importer. A random 1830 runs to a thousand moves and more, and
// would end when the dice say; this one ends where the real one did, and its final
// values (cash and shares, per player) must be the ones 18xx.games reported. For
// each move the player finds it in the mail's numbered list and replies with its
// number; a move the mail does not list (a tile lay or a route of the player's
// own choosing, a bid above the listed ones, a train bought from another
// corporation) is typed as the command a player types (`lay D12 7 0`,
// `run 2-0: ...`, `buy train 3-1 120`), which the rules' own parser reads. The
// commands every game has ride along: the second reply starts with `help`,
// `history` and `board`, and the next ones take their move back with `undo` and
// make it again, until one is taken back.
//
// Speed: the mails carry no pictures here: the rules draw no board, and give
// no holdings, which in a mail feed only the close-up picture of a turn mail (the
// picture, close-up and hidden-information suites test those; here only the text
// part is read). A reply then costs no drawing instead of tens of milliseconds
// (the close-up card) or a few hundred (the board). This file is its own so that
// it runs beside the other games played by replies (reply-games.test.ts).
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { import18xx } from '../../rules/1830/import/index.ts';
import { routesToText } from '../../rules/1830/track/index.ts';
import type { Action1830 } from '../../rules/1830/actions.ts';
import type { AnyRules } from '../../rules/types.ts';
import { seqOfMessageId } from '../../server/mail/compose.ts';
import { addressOf, reply, smtpSender } from '../support/mail-client.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import { checkOver, emailsOf, nextAskingMail, STYLES, standingMoves } from '../support/reply-player.ts';

const rules1830 = games.find((r) => r.id === '1830')!;
/** 1830 without its pictures (see above). */
const textOnly: AnyRules = { ...rules1830, svg: undefined, holdings: undefined };

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/18xx.games/1830/29133.json', import.meta.url), 'utf8'),
) as { result: Record<string, number> };

/** A move as a player types it (the commands the turn mail's command list shows). */
function typed(a: Action1830): string {
  switch (a.type) {
    case 'pass':
      return 'pass';
    case 'bid':
      return `bid ${a.company} ${a.price}`;
    case 'par':
      return `par ${a.corp} ${a.price}`;
    case 'buy':
      return `buy ${a.corp} ${a.from}`;
    case 'sell':
      return `sell ${a.corp} ${a.percent / 10}`;
    case 'exchange':
      return `exchange ${a.from}`;
    case 'layTile':
      return `lay ${a.hex} ${a.tile} ${a.rotation}${a.via ? ` ${a.via}` : ''}`;
    case 'placeToken':
      return `token ${a.hex} ${a.city}${a.via ? ' DH' : ''}`;
    case 'runRoutes':
      return `${a.routes.length ? `run ${routesToText(a.routes)}` : 'run none'}${a.dividend ? ` ${a.dividend}` : ''}`;
    case 'dividend':
      return a.kind;
    case 'buyTrain':
      return `buy train ${a.train} ${a.price}${a.exchange ? ` trade ${a.exchange}` : ''}`;
    case 'discardTrain':
      return `discard ${a.train}`;
    case 'buyCompany':
      return `buy ${a.company} ${a.price}`;
    case 'sellCompany':
      return `sell ${a.company} ${a.price} to ${a.to + 1}`;
    case 'bankrupt':
      return 'bankrupt';
  }
}

let m: MailTestServer;
beforeEach(async () => {
  m = await startMailServer({
    registry: [textOnly],
    replies: true,
    // Four players send hundreds of replies in a minute.
    env: { INBOUND_PER_SENDER_HOUR: '100000' },
    queue: { baseDelayMs: 20, maxDelayMs: 100, concurrency: 6 },
  });
});
afterEach(() => m.stop());

describe('1830 by replies', () => {
  it('a whole game, from the first turn mail to game over: the moves of a real game, by number or typed', async () => {
    const real = import18xx(fixture);
    expect(real.report.stoppedAt).toBeNull();
    const plan = real.actions.map(({ seat, action }) => ({ seat, command: typed(action) }));
    const players = ['Ada', 'Bob', 'Cy', 'Dee'];
    const g = await m.srv.createGame({ rules: '1830', players, options: real.options });
    const gameId = g.gameId;
    /** Each seat's address, by seat. */
    const bySeat = g.seats.map((s) => s.email);
    const emails = emailsOf(players);
    // The players' mail provider: one connection to the server, message after message.
    const via = smtpSender(m.mailer.inboundSmtpPort!);
    let replies = 0;
    let numbers = 0;
    let commands = 0;
    let seen = 0;
    try {
      while ((await m.srv.service.open(gameId)).doc.status === 'active') {
        if (replies >= plan.length + 20) throw new Error(`not over after ${replies} replies`);
        const asked = await nextAskingMail(m, emails, seen);
        if (!asked) continue; // the game may have ended, or its mail is on its way: look again
        const mail = asked.mail;
        seen = asked.seen;
        const game = await m.srv.service.open(gameId);
        // A mail of a position the game has left (a newer one asks for the move now).
        if (seqOfMessageId(mail.messageId ?? '') !== game.stateSeq) continue;
        const text = mail.text ?? '';
        if (replies === 0) expect(mail.subject).toMatch(/^Your turn/);
        // The text part alone is enough to play: the reply address, the numbered moves, the commands.
        expect(addressOf(mail.replyTo)).toMatch(/^play\+/);
        const seat = bySeat.indexOf(addressOf(mail.to));
        const next = plan[standingMoves(game.doc.log)]!;
        expect(next.seat, `move ${standingMoves(game.doc.log) + 1}`).toBe(seat);
        // The move's number in the mail's list, if the mail lists it.
        const action = JSON.stringify(game.rules.parse!(next.command, game.state, seat));
        const listed = m.srv.service.firstMoves(game, seat, 30).moves;
        const n = listed.findIndex((x) => JSON.stringify(x.action) === action) + 1;
        let body: string;
        if (n > 0) {
          expect(text).toContain(`  ${n}. ${listed[n - 1]!.label}`);
          body = String(n);
          numbers++;
        } else {
          body = next.command;
          commands++;
        }
        if (replies === 1) body = `help\nhistory\nboard\n${body}`;
        // Until an undo was taken (a move that revealed hidden information cannot be: that refusal
        // ends the commands, and the move stands).
        if (replies >= 2 && !game.doc.log.some((e) => e.kind === 'undo')) body = `${body}\nundo\n${body}`;
        await reply(m.mailer.inboundSmtpPort!, mail, body, { style: STYLES[replies % STYLES.length]!, via });
        replies++;
      }
    } finally {
      via.close();
    }
    const game = await checkOver(m, gameId, emails, replies);
    if (process.env.REPLY_PROGRESS) console.log(JSON.stringify({ replies, numbers, commands }));
    // The whole real game was played, every move of it by a reply, and it ended as it did there.
    expect(standingMoves(game.doc.log)).toBe(plan.length);
    expect(replies).toBe(plan.length);
    expect(numbers).toBeGreaterThan(100);
    expect(commands).toBeGreaterThan(20);
    const outcome = game.rules.outcome(game.state)!;
    expect(outcome.reason).toMatch(/bankrupt/);
    expect(outcome.scores).toEqual(real.seats.map((s) => fixture.result[s.id]));
  }, 300_000);
});
