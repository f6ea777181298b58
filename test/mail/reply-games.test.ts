// Every game played by replies alone: each seat answers the mail that asks it
// to act (a turn mail, or the answer to its own last reply while its turn goes
// on) with a move's number from the list in that mail, over real SMTP to the
// inbound listener, quoting the mail as a mail client would. Paperclip Railways
// is played to the end; the longer games for a dozen moves (every move costs
// several durable writes and pictures, and the suite has a time budget), with
// one command typed in the game's own words each (Airlines Europe's is the
// simultaneous opening choice).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { TestServer } from '../support/server.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import { games } from '../../rules/index.ts';
import type { Mailer } from '../../server/mail/index.ts';
import { seedRandom, randomInt } from '../../rules/random.ts';
import type { TestSmtp } from './smtp.ts';
import { addressOf, reply, type ClientStyle } from '../support/mail-client.ts';

let smtp: TestSmtp;
let srv: TestServer;
let mailer: Mailer;
let m: MailTestServer;

beforeEach(async () => {
  m = await startMailServer({
    registry: games,
    replies: true,
    queue: { baseDelayMs: 20, maxDelayMs: 100, concurrency: 4 },
  });
  ({ smtp, srv, mailer } = m);
});
afterEach(() => m.stop());

const STYLES: ClientStyle[] = ['gmail', 'outlook', 'apple', 'thunderbird', 'phone'];
const asksToAct = (m: ParsedMail) =>
  /^Your turn/.test(m.subject ?? '') || (/^Re: /.test(m.subject ?? '') && /It is your turn\./.test(m.text ?? ''));

/**
 * Plays by replies until the game ends or `maxReplies` were sent; `typed` (if given) is sent once,
 * as the first command of the first reply, in the game's own words. Returns the replies sent.
 */
async function playByReplies(gameId: string, maxReplies: number, seed: string, typed?: string): Promise<number> {
  const random = seedRandom(seed);
  const handled = new Set<string>();
  let replies = 0;
  while (replies < maxReplies) {
    if ((await srv.service.open(gameId)).doc.status !== 'active') break;
    const mail = await smtp.waitForMail((m) => !handled.has(m.messageId!) && asksToAct(m), 60_000);
    handled.add(mail.messageId!);
    const text = mail.text ?? '';
    // The text part alone is enough to play: the reply address and the numbered moves.
    expect(addressOf(mail.replyTo)).toMatch(/^play\+/);
    const listed = [...text.matchAll(/^ {2}(\d+)\. /gm)].length;
    expect(listed, text).toBeGreaterThan(0);
    const pick = 1 + randomInt(random, listed);
    const body = replies === 0 && typed ? typed : String(pick);
    await reply(mailer.inboundSmtpPort!, mail, body, { style: STYLES[replies % STYLES.length]! });
    replies++;
  }
  return replies;
}

describe('every game by replies', () => {
  it('Paperclip Railways, to the end', async () => {
    const g = await srv.createGame({ rules: 'paperclip-railways', players: ['Ada', 'Bob'] });
    const replies = await playByReplies(g.gameId, 400, 'paperclip');
    const game = await srv.service.open(g.gameId);
    expect(game.doc.status, `after ${replies} replies`).toBe('finished');
    await mailer.queue.idle();
    expect(
      smtp.received
        .filter((m) => /game over/.test(m.subject ?? ''))
        .map((m) => addressOf(m.to))
        .sort(),
    ).toEqual(['ada@example.test', 'bob@example.test']);
  }, 300_000);

  const SOME: [string, string, string[]][] = [
    ['airlines-europe', 'open red blue', ['Ada', 'Bob']],
    ['stephensons-rocket', 'pass', ['Ada', 'Bob']],
    ['airlines', 'route', ['Ada', 'Bob']],
    ['1830', 'pass', ['Ada', 'Bob', 'Cy']],
  ];
  for (const [rules, typed, players] of SOME) {
    it(`${rules}: a dozen moves, one typed in the game's words`, async () => {
      const g = await srv.createGame({ rules, players });
      const replies = await playByReplies(g.gameId, 12, rules, typed);
      expect(replies).toBe(12);
      const game = await srv.service.open(g.gameId);
      const moves = game.doc.log.filter((e) => e.kind === 'move');
      expect(moves.length).toBeGreaterThanOrEqual(8);
      // The typed command was read by the game's parser: played, or refused in the rules' words.
      const first = smtp.received.find((m) => /^Re: /.test(m.subject ?? ''))!;
      expect(first.text).toMatch(/Done:|Not done:/);
      expect(first.text).not.toContain('could not be read');
    }, 180_000);
  }
});
