// Every game but 1830 played to its end by replies alone: each seat answers the mail that
// asks it to act (a turn mail, or the answer to its own last reply while its turn
// goes on) with what a player types, over real SMTP to the inbound listener,
// quoting that mail as one of five common mail clients does. The player reads
// only the mail's text part: it picks one of the numbered moves listed there at
// random (seeded by the position), and its first reply is one of the game's own commands as the
// mail's command list shows them. Nothing is sent as JSON. The commands every
// game has ride along at no extra reply: the second reply starts with `help`,
// `history` and `board` before its move, and the next ones take their move back
// with `undo` and make it again, until one is taken back.
//
// Speed: the four games run at once on one server, and their mails carry no
// pictures here: the rules draw no board, and give no holdings, which in a mail
// feed only the close-up picture of a turn mail (the picture, close-up and
// hidden-information suites test those; here only the text part is read). A
// reply then costs no drawing at all instead of tens of milliseconds of it (the
// close-up card) or a few hundred (the board). 1830, whose random games run
// to a thousand moves and more, is played whole in its own file (reply-1830.test.ts),
// which runs beside this one: the moves of a real game, from its first turn mail.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { seqOfMessageId } from '../../server/mail/compose.ts';
import type { AnyRules } from '../../rules/types.ts';
import { randomInt, seedRandom } from '../../rules/random.ts';
import { addressOf, reply, smtpSender } from '../support/mail-client.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import { checkOver, emailsOf, nextAskingMail, STYLES } from '../support/reply-player.ts';

/** The games without their pictures (see above). */
const textOnly = games.map((r): AnyRules => ({ ...r, svg: undefined, holdings: undefined }));

let m: MailTestServer;
beforeEach(async () => {
  m = await startMailServer({
    registry: textOnly,
    replies: true,
    // A player here sends hundreds of replies in a minute.
    env: { INBOUND_PER_SENDER_HOUR: '100000' },
    queue: { baseDelayMs: 20, maxDelayMs: 100, concurrency: 6 },
  });
});
afterEach(() => m.stop());

/**
 * Plays one game by replies until it is over: answers every mail to `emails` that asks to act.
 * The first reply is `typed` (one of the game's commands, as a player copies it from the mail).
 * Resolves with the number of replies sent.
 */
async function playByReplies(gameId: string, emails: string[], seed: string, typed: string, max: number) {
  let seen = 0;
  // The players' mail provider: one connection to the server, message after message.
  const via = smtpSender(m.mailer.inboundSmtpPort!);
  let replies = 0;
  try {
    while ((await m.srv.service.open(gameId)).doc.status === 'active') {
      if (replies >= max) throw new Error(`${gameId}: not over after ${max} replies`);
      const next = await nextAskingMail(m, emails, seen);
      if (!next) continue; // the game may have ended, or its mail is on its way: look again
      const mail = next.mail;
      seen = next.seen;
      const text = mail.text ?? '';
      // The text part alone is enough to play: the reply address, the numbered moves, the commands.
      expect(addressOf(mail.replyTo)).toMatch(/^play\+/);
      const listed = [...text.matchAll(/^ {2}(\d+)\. /gm)].length;
      expect(listed, text).toBeGreaterThan(0);
      // The pick depends on the position the mail shows (its seq, in its Message-ID) and the seat
      // only, not on how many mails came before: the same game however mail is timed.
      const position = `${seed}:${seqOfMessageId(mail.messageId ?? '') ?? replies}:${addressOf(mail.to)}`;
      let body = String(1 + randomInt(seedRandom(position), listed));
      if (replies === 0) {
        body = typed;
        expect(text).toContain(typed.split(' ')[0]);
      }
      if (replies === 1) body = `help\nhistory\nboard\n${body}`;
      // Until an undo was taken (a move that revealed hidden information cannot be: that refusal
      // ends the commands, and the move stands).
      if (replies >= 2 && !(await m.srv.service.open(gameId)).doc.log.some((e) => e.kind === 'undo'))
        body = `${body}\nundo\n${body}`;
      await reply(m.mailer.inboundSmtpPort!, mail, body, { style: STYLES[replies % STYLES.length]!, via });
      replies++;
    }
  } finally {
    via.close();
  }
  return replies;
}

describe('every game by replies, to its end', () => {
  it("Stephenson's Rocket, Airlines, Airlines Europe and Paperclip Railways whole", async () => {
    const whole: [string, string[], string][] = [
      ['stephensons-rocket', ['Ada', 'Bob'], 'pass'],
      ['airlines', ['Cy', 'Dee'], 'route'],
      ['airlines-europe', ['Eve', 'Fay'], 'open red blue'],
      ['paperclip-railways', ['Gus', 'Hal'], 'draw'],
    ];
    const runs = whole.map(async ([rules, players, typed]) => {
      const g = await m.srv.createGame({ rules, players });
      const emails = emailsOf(players);
      const replies = await playByReplies(g.gameId, emails, rules, typed, 600);
      await checkOver(m, g.gameId, emails, replies);
      return [rules, replies] as const;
    });
    const replies = Object.fromEntries(await Promise.all(runs));
    if (process.env.REPLY_PROGRESS) console.log(JSON.stringify(replies));
    // Whole games are long: dozens of replies at least.
    for (const n of Object.values(replies)) expect(n).toBeGreaterThan(15);
  }, 600_000);
});
