// Every game played to its end by replies alone: each seat answers the mail that
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
// Speed: the five games run at once on one server, and their rules draw no
// pictures here (a turn mail's picture is tested by the picture and hidden-
// information suites; here only the text is read), so a reply costs a few
// milliseconds of drawing instead of a few hundred. 1830, whose random games run
// to a thousand moves, starts from a late position made honestly through a public
// entry point: the game is moved onto the server (service.importGame, what /import
// does with an 18xx.games export) with the actions of a seeded random playout up
// to forty moves before its end, and is played from there to the end by replies
// that pick, from each mail's list, the move that game played next (random
// picks would make its end come after forty replies or after five hundred).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { games } from '../../rules/index.ts';
import { seqOfMessageId } from '../../server/mail/compose.ts';
import type { AnyRules } from '../../rules/types.ts';
import { randomInt, seedRandom } from '../../rules/random.ts';
import { addressOf, reply, smtpSender, type ClientStyle } from '../support/mail-client.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import { randomPlayout } from '../support/playout.ts';

/** The games without their pictures (see above). */
const textOnly = games.map((r): AnyRules => ({ ...r, svg: undefined }));

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

const STYLES: ClientStyle[] = ['gmail', 'outlook', 'apple', 'thunderbird', 'phone', 'inline'];
const asksToAct = (x: ParsedMail) =>
  /^Your turn/.test(x.subject ?? '') || (/^Re: /.test(x.subject ?? '') && /It is your turn\./.test(x.text ?? ''));

interface Played {
  replies: number;
  typed: string;
}

/**
 * Plays one game by replies until it is over: answers every mail to `emails` that asks to act.
 * The first reply is `typed` (one of the game's commands, as a player copies it from the mail).
 */
async function playByReplies(
  gameId: string,
  emails: string[],
  seed: string,
  typed: string,
  max: number,
  plan?: { seat: number; action: unknown }[],
) {
  // Moves that stand: an undo takes one back.
  const standing = (log: { kind: string }[]) =>
    log.filter((e) => e.kind === 'move').length - log.filter((e) => e.kind === 'undo').length;
  const movesBefore = standing((await m.srv.service.open(gameId)).doc.log);
  let typedSent = false;
  let seen = 0;
  const ours = (x: ParsedMail) => emails.includes(addressOf(x.to));
  // The players' mail provider: one connection to the server, message after message.
  const via = smtpSender(m.mailer.inboundSmtpPort!);
  let replies = 0;
  try {
    while ((await m.srv.service.open(gameId)).doc.status === 'active') {
      if (replies >= max) throw new Error(`${gameId}: not over after ${max} replies`);
      let mail: ParsedMail;
      try {
        mail = await m.smtp.waitForMail((x) => ours(x) && asksToAct(x), 2_000, seen);
      } catch {
        continue; // the last reply ended the game, or its mail is still on its way: look again
      }
      seen = m.smtp.received.indexOf(mail, seen) + 1;
      const text = mail.text ?? '';
      // The text part alone is enough to play: the reply address, the numbered moves, the commands.
      expect(addressOf(mail.replyTo)).toMatch(/^play\+/);
      const listed = [...text.matchAll(/^ {2}(\d+)\. /gm)].length;
      expect(listed, text).toBeGreaterThan(0);
      // The pick depends on the position the mail shows (its seq, in its Message-ID) and the seat
      // only, not on how many mails came before: the same game however mail is timed.
      const position = `${seed}:${seqOfMessageId(mail.messageId ?? '') ?? replies}:${addressOf(mail.to)}`;
      let body = String(1 + randomInt(seedRandom(position), listed));
      if (plan) {
        // A player with a plan (the rest of a random game): the number its next move has in the list.
        const game = await m.srv.service.open(gameId);
        const seat = emails.indexOf(addressOf(mail.to));
        const next = plan[standing(game.doc.log) - movesBefore];
        const listedNow = next?.seat === seat ? m.srv.service.firstMoves(game, seat, 30).moves : [];
        const n = listedNow.findIndex((x) => JSON.stringify(x.action) === JSON.stringify(next!.action)) + 1;
        if (n > 0 && seqOfMessageId(mail.messageId ?? '') === game.stateSeq) {
          expect(text).toContain(`  ${n}. ${listedNow[n - 1]!.label}`);
          // The typed command once it means that very move (the rules' own parser says so).
          const means = (() => {
            try {
              return JSON.stringify(game.rules.parse?.(typed, game.state, seat));
            } catch {
              return undefined;
            }
          })();
          body = !typedSent && means === JSON.stringify(next!.action) ? typed : String(n);
        }
      } else if (replies === 0) body = typed;
      if (body === typed) {
        typedSent = true;
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
  expect(typedSent).toBe(true);
  return { replies, typed } satisfies Played;
}

/** Every seat got the game-over mail, and the first reply (typed in the game's words) was read by its parser. */
async function checkOver(gameId: string, emails: string[], played: Played) {
  const game = await m.srv.service.open(gameId);
  expect(game.doc.status, `after ${played.replies} replies`).toBe('finished');
  const over = await Promise.all(
    emails.map((e) => m.smtp.waitForMail((x) => addressOf(x.to) === e && /game over/.test(x.subject ?? ''), 30_000)),
  );
  expect(over).toHaveLength(emails.length);
  const first = m.smtp.received.find((x) => emails.includes(addressOf(x.to)) && /^Re: /.test(x.subject ?? ''))!;
  expect(first.text).toMatch(/Done:|Not done:/);
  expect(first.text).not.toContain('could not be read');
  // The commands of every game were answered: help (this game's own examples), history, board; undo.
  const answers = m.smtp.received.filter((x) => emails.includes(addressOf(x.to)) && /^Re: /.test(x.subject ?? ''));
  const asked = answers.find((x) => /History \(the last \d+ entries\):/.test(x.text ?? ''));
  expect(asked?.text).toContain('Here is the board as it stands.');
  expect(asked?.text).toContain('say <words>');
  expect(asked?.text).toContain(game.rules.commandExamples![0]!);
  expect(
    answers.some((x) => (x.text ?? '').includes('You took back your last move.')),
    game.rules.id,
  ).toBe(true);
  // No move was made for a player (by the reminder job): all came in by mail.
  const moves = game.doc.log.filter((e) => e.kind === 'move');
  expect(moves.length).toBeGreaterThan(0);
  expect(moves.some((e) => e.data?.auto)).toBe(false);
}

const emailsOf = (names: string[]) => names.map((n) => `${n.toLowerCase()}@example.test`);

describe('every game by replies, to its end', () => {
  it("Stephenson's Rocket, Airlines, Airlines Europe and Paperclip Railways whole, 1830 from a late position", async () => {
    const whole: [string, string[], string][] = [
      ['stephensons-rocket', ['Ada', 'Bob'], 'pass'],
      ['airlines', ['Cy', 'Dee'], 'route'],
      ['airlines-europe', ['Eve', 'Fay'], 'open red blue'],
      ['paperclip-railways', ['Gus', 'Hal'], 'draw'],
    ];
    const runs = whole.map(async ([rules, players, typed]) => {
      const g = await m.srv.createGame({ rules, players });
      const emails = emailsOf(players);
      const played = await playByReplies(g.gameId, emails, rules, typed, 600);
      await checkOver(g.gameId, emails, played);
      return [rules, played.replies] as const;
    });

    // 1830: a seeded random game, moved onto the server forty moves before its end, and played on
    // by players who follow the rest of that game (its moves are among the ones the mails list),
    // so it ends in forty replies or so whatever the timing of the mail.
    const r1830 = games.find((r) => r.id === '1830')!;
    const playout = randomPlayout(r1830, 3, 'replies-1830');
    const players = ['Ian', 'Jo', 'Kit'];
    const emails = emailsOf(players);
    const late = playout.actions.slice(0, playout.actions.length - 40);
    const imported = await m.srv.service.importGame({
      rules: '1830',
      creator: { name: 'Ian', email: emails[0]! },
      seats: players.map((name, i) => ({ name, email: emails[i]! })),
      actions: late,
      source: 'a seeded random game',
    });
    runs.push(
      (async () => {
        const plan = playout.actions.slice(late.length);
        const played = await playByReplies(imported.gameId, emails, '1830', 'pass', 200, plan);
        await checkOver(imported.gameId, emails, played);
        return ['1830', played.replies] as const;
      })(),
    );
    const replies = Object.fromEntries(await Promise.all(runs));
    if (process.env.REPLY_PROGRESS) console.log(JSON.stringify(replies));
    // Whole games are long: dozens of replies at least (1830 from its late position too).
    for (const n of Object.values(replies)) expect(n).toBeGreaterThan(15);
  }, 600_000);
});
