// The answer to a reply that played a move says what was done in words that read right: the
// line the game's history shows for that move, with the player's name, in every game. (It once
// put "You" before the history's third-person line: "You buys a 10% share of PRR", "You passes".)
// Each game's first moves are played by replies over real SMTP, picking the first listed move.
//
// Speed: the mails carry no pictures (the rules here draw no board and give no holdings): only
// the answers' text is read (see reply-games.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { games } from '../../rules/index.ts';
import type { AnyRules } from '../../rules/types.ts';
import { addressOf, reply } from '../support/mail-client.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import { asksToAct, emailsOf, STYLES } from '../support/reply-player.ts';

const textOnly = games.map((r): AnyRules => ({ ...r, svg: undefined, holdings: undefined }));
const PLAYERS = ['Ada', 'Bob', 'Cy'];
/** Moves played by reply in each game. */
const MOVES = 4;

let m: MailTestServer;
beforeEach(async () => {
  m = await startMailServer({ registry: textOnly, replies: true, queue: { baseDelayMs: 20, maxDelayMs: 100 } });
});
afterEach(() => m.stop());

/** The "Done:" items of an answer's text part. */
function doneItems(text: string): string[] {
  const block = /^Done:\n((?: {2}- .*\n?)+)/m.exec(text);
  return block
    ? block[1]!
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/^ {2}- /, ''))
    : [];
}

describe('the answer to a move played by reply', () => {
  it.each(games.map((g) => g.id))(
    '%s: says the move as its history line, in the third person with the name',
    async (id) => {
      const g = await m.srv.createGame({ rules: id, players: PLAYERS });
      const emails = emailsOf(PLAYERS);
      const ours = (x: ParsedMail) => emails.includes(addressOf(x.to));
      let seen = 0;
      for (let n = 0; n < MOVES; n++) {
        const mail = await m.smtp.waitForMail((x) => ours(x) && asksToAct(x), 20_000, seen);
        seen = m.smtp.received.indexOf(mail) + 1;
        const email = addressOf(mail.to);
        const name = PLAYERS[emails.indexOf(email)]!;
        const before = m.smtp.received.length;
        await reply(m.mailer.inboundSmtpPort!, mail, '1', { style: STYLES[n % STYLES.length]! });
        const answer = await m.smtp.waitForMail(
          (x) => addressOf(x.to) === email && /^Re: /.test(x.subject ?? ''),
          20_000,
          before,
        );
        const text = answer.text ?? '';
        const game = await m.srv.service.open(g.gameId);
        const moved = game.doc.log.filter((e) => e.kind === 'move' && e.data?.by === name).at(-1)!;
        const line = m.srv.service.historyLines(game).find((l) => l.seq === moved.seq)!;
        const done = doneItems(text);
        expect(done, text).toEqual([line.text]);
        expect(line.text.startsWith(`${name} `)).toBe(true);
        // No second person before a third-person verb ("You buys", "You passes"), no seat left unnamed.
        expect(text).not.toMatch(/\bYou [a-z]*[^s\W]s\b/);
        expect(text).not.toContain('{seat:');
        expect(answer.html ?? '').toContain(`<li>${escapeHtml(line.text)}</li>`);
      }
    },
  );
});

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')
    .replace(/`/g, '&#x60;')
    .replace(/=/g, '&#x3D;');
}
