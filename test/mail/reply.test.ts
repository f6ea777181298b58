// Playing by replying: every move of a game sent as a reply to the last mail,
// over real SMTP to the server's inbound listener, in a thread as real clients
// keep it (quoted previous mail, "On ... wrote:", signatures). Also the refusals:
// forged and unknown senders, retired addresses, a reply against a stale
// position; and table talk, undo, help, history, board; the webhook way in.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { TestServer } from '../support/server.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import { highCard } from '../support/high-card.ts';
import type { Mailer } from '../../server/mail/index.ts';
import type { TestSmtp } from './smtp.ts';
import { addressOf, buildReply, reply, sendRaw, type ClientStyle } from '../support/mail-client.ts';
import { startInboundSmtp } from '../../server/mail/inbound/smtp.ts';

const SECRET = 'a-webhook-secret-of-some-length';
let smtp: TestSmtp;
let srv: TestServer;
let mailer: Mailer;
let m: MailTestServer;

beforeEach(async () => {
  m = await startMailServer({ replies: true, env: { INBOUND_SECRET: SECRET } });
  ({ smtp, srv, mailer } = m);
});
afterEach(() => m.stop());

const to = (m: ParsedMail) => addressOf(m.to);
const port = () => mailer.inboundSmtpPort!;
const STYLES: ClientStyle[] = ['gmail', 'outlook', 'apple', 'thunderbird', 'phone', 'inline'];

/** The newest mail to `email` matching, waiting for it; `after`: only mails received after that many. */
async function next(email: string, match: (m: ParsedMail) => boolean, after = 0): Promise<ParsedMail> {
  return smtp.waitForMail((m) => smtp.received.indexOf(m) >= after && to(m) === email && match(m));
}

const isAnswer = (m: ParsedMail) => /^Re: /.test(m.subject ?? '');

describe('playing by replying', () => {
  it('plays a whole High Card game by replies alone, each client quoting the mail before', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const handled = new Set<string>();
    let replies = 0;
    for (let turn = 0; turn < 200; turn++) {
      const over = smtp.received.filter((m) => /game over/.test(m.subject ?? ''));
      if (over.length === 2) break;
      const mail = await smtp.waitForMail(
        (m) =>
          !handled.has(m.messageId!) &&
          (/game over/.test(m.subject ?? '') ||
            /^Your turn/.test(m.subject ?? '') ||
            (isAnswer(m) && /It is your turn\./.test(m.text ?? ''))),
      );
      handled.add(mail.messageId!);
      if (/game over/.test(mail.subject ?? '')) continue;
      // Every mail that asks for a move carries the reply address and the numbered moves.
      expect(addressOf(mail.replyTo)).toMatch(/^play\+[a-z2-7]+\.[a-z2-7]+@play\.example\.test$/);
      expect(mail.text).toMatch(/Your moves now \(type the number or the command\):\n {2}1\. /);
      const answer = await reply(port(), mail, turn % 3 === 0 ? '1' : turn % 3 === 1 ? '#1' : 'move 1', {
        style: STYLES[turn % STYLES.length]!,
      });
      expect(answer).toMatch(/^250/);
      replies++;
    }
    const final = await srv.service.open(g.gameId);
    expect(final.doc.status).toBe('finished');
    expect(replies).toBeGreaterThan(6);
    // Every answer stays in its reply's thread.
    const answers = smtp.received.filter(isAnswer);
    expect(answers.length).toBeGreaterThanOrEqual(replies - 1);
    for (const a of answers) expect(a.references).toContain(a.inReplyTo);
  });

  it('runs several commands in order and stops at the first refusal, in the rules words', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const first = await next(ada.email, (m) => /^Your turn/.test(m.subject ?? ''));
    const before = smtp.received.length;
    await reply(port(), first, 'stake 99\nsay hello', { style: 'outlook' });
    const answer = await next(ada.email, isAnswer, before);
    expect(answer.inReplyTo).toBeTruthy();
    expect(answer.text).toContain('Not done:');
    expect(answer.text).toContain('(your line: stake 99)');
    // The refusal comes with the moves still open, the commands and a fresh picture.
    expect(answer.text).toMatch(/It is your turn\./);
    expect(answer.text).toMatch(/ {2}1\. /);
    expect(answer.text).toContain('In every game: say <words>');
    expect(answer.attachments.filter((a) => a.contentType === 'image/png').length).toBeGreaterThan(0);
    // Nothing after the refusal ran: no table talk went to Bob.
    await mailer.queue.idle();
    expect(smtp.received.some((m) => /says/.test(m.subject ?? ''))).toBe(false);
  });

  it('refuses replies from another sender, to unknown addresses and to retired ones', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const first = await next(ada.email, (m) => /^Your turn/.test(m.subject ?? ''));
    const address = addressOf(first.replyTo);
    // A forged sender: refused at the SMTP level, nothing played.
    await expect(reply(port(), first, '1', { from: 'mallory@example.test' })).rejects.toThrow(/550/);
    // An address that is not one of ours.
    const unknown = address.replace(/\.([a-z2-7])/, (_m, c: string) => `.${c === 'a' ? 'b' : 'a'}`);
    await expect(reply(port(), first, '1', { to: unknown })).rejects.toThrow(/550/);
    expect((await srv.service.open(g.gameId)).doc.log.filter((e) => e.kind === 'move')).toHaveLength(0);
    // The admin allows Ada's other address: it plays.
    const seat = (await srv.service.open(g.gameId)).doc.seats.findIndex((s) => s.name === 'Ada');
    const allow = await srv.api('POST', `/mail/reply-from/${g.adminKey}`, {
      seat,
      addresses: ['Ada.Work@Example.test'],
    });
    expect(allow.status).toBe(200);
    expect((await srv.api('POST', `/mail/reply-from/${ada.key}`, { seat, addresses: [] })).status).toBe(404);
    expect(await reply(port(), first, '1', { from: 'ada.work@example.test' })).toMatch(/^250/);
    expect((await srv.service.open(g.gameId)).doc.log.filter((e) => e.kind === 'move')).toHaveLength(1);
    // The seat's page key tells its address; a renewed address retires the old one for good.
    expect((await srv.api('GET', `/mail/reply-address/${ada.key}`)).body).toEqual({ address });
    const renewed = await srv.api('POST', `/mail/reply-address/${ada.key}`);
    expect(renewed.body.address).not.toBe(address);
    await expect(reply(port(), first, 'say hi')).rejects.toThrow(/550/);
    // A reopened seat's address dies with it.
    const bob = g.seats.find((s) => s.name === 'Bob')!;
    const bobMail = await next(bob.email, (m) => Boolean(addressOf(m.replyTo)));
    const bobSeat = (await srv.service.open(g.gameId)).doc.seats.findIndex((s) => s.name === 'Bob');
    await srv.service.reopenSeat(g.gameId, bobSeat);
    await expect(reply(port(), bobMail, 'say still here')).rejects.toThrow(/550/);
  });

  it('refuses a reply made against a position a move has since changed, with the new position', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    // Through the stakes to the play phase: each seat stakes by reply.
    const staked = smtp.received.length;
    for (const s of g.seats) {
      const m = await next(s.email, (x) => /^Your turn/.test(x.subject ?? ''));
      await reply(port(), m, '1');
    }
    await srv.service.settled();
    await mailer.queue.idle();
    let game = await srv.service.open(g.gameId);
    // The stakes are chosen at once: the second reply answered a mail of the position before the
    // first stake, and was taken all the same.
    const stakes = game.doc.log.filter((e) => e.kind === 'move');
    expect(stakes.map((e) => e.seat).sort()).toEqual([0, 1]);
    const seat = game.rules.toAct(game.state)[0]!;
    const player = g.seats.find((s) => s.name === game.doc.seats[seat]!.name)!;
    const asked = smtp.received
      .slice(staked)
      .filter((m) => to(m) === player.email && /It is your turn\./.test(m.text ?? ''));
    const turnMail = asked[asked.length - 1]!;
    expect(turnMail.text).toContain(`move ${game.stateSeq}`);
    // The player moves on the web meanwhile...
    const state = await srv.state(player.key);
    expect((await srv.move(player.key, state.game.seq, state.moves[0]!.action)).status).toBeLessThan(300);
    const before = smtp.received.length;
    game = await srv.service.open(g.gameId);
    const moves = game.doc.log.filter((e) => e.kind === 'move').length;
    // ...then replies to the old mail: refused, nothing played.
    await reply(port(), turnMail, '1');
    const answer = await next(player.email, isAnswer, before);
    expect(answer.text).toContain('A move came in after the mail you replied to');
    expect((await srv.service.open(g.gameId)).doc.log.filter((e) => e.kind === 'move')).toHaveLength(moves);
  });

  it('sends table talk to every seat, and answers help, history, board and undo', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const first = await next(ada.email, (m) => /^Your turn/.test(m.subject ?? ''));
    let before = smtp.received.length;
    // No command: the whole reply is table talk.
    await reply(port(), first, 'Good luck everyone!', { style: 'phone' });
    const heard = await Promise.all(
      g.seats.filter((s) => s !== ada).map((s) => next(s.email, (m) => /Ada says/.test(m.subject ?? ''), before)),
    );
    for (const m of heard) {
      expect(m.text).toContain('Good luck everyone!');
      // In the game's thread, and without anybody's hand or stake.
      expect(m.inReplyTo).toMatch(/^<game\./);
      expect(m.text).not.toMatch(/hand|stake/i);
    }
    const page = await srv.state(ada.key);
    expect(page.sinceLastTurn.map((l) => l.text)).toContain('Ada says: Good luck everyone!');
    const talkAnswer = await next(ada.email, isAnswer, before);
    expect(talkAnswer.text).toContain('You said to the table: Good luck everyone!');

    before = smtp.received.length;
    await reply(port(), talkAnswer, 'help\nhistory\nboard', { style: 'thunderbird' });
    const answer = await next(ada.email, isAnswer, before);
    expect(answer.text).toContain('say <words>');
    expect(answer.text).toMatch(/History \(the last \d+ entries\):/);
    expect(answer.text).toContain('Here is the board as it stands.');
    expect(answer.attachments.some((a) => a.contentType === 'image/png') || !highCard.svg).toBe(true);

    // A stake is hidden and cannot be taken back once everyone chose; before that, undo works.
    before = smtp.received.length;
    await reply(port(), answer, '1\nundo', { style: 'apple' });
    const undone = await next(ada.email, isAnswer, before);
    expect(undone.text).toContain('You took back your last move.');
    expect(undone.text).toMatch(/It is your turn\./);
  });

  it('never lets table talk carry the mail a client pasted under the reply unmarked: no hidden holdings, no link', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const first = await next(ada.email, (m) => /^Your turn/.test(m.subject ?? ''));
    // Ada's mail lists her moves, which name the cards of her hidden hand, and carries her page link.
    const hers = [...(first.text ?? '').matchAll(/^ {2}\d+\. (.+)$/gm)].map((x) => x[1]!);
    expect(hers.length).toBeGreaterThan(0);
    expect(first.text).toContain(ada.key);
    const before = smtp.received.length;
    await reply(port(), first, 'Good luck, Bob.\nMay the best card win.', { style: 'inline' });
    const heard = await next('bob@example.test', (m) => /Ada says/.test(m.subject ?? ''), before);
    for (const part of [heard.text ?? '', String(heard.html ?? '')]) {
      expect(part).toContain('May the best card win.');
      expect(part).not.toContain(ada.key);
      for (const label of hers) expect(part).not.toContain(label);
    }
    const talk = (await srv.service.open(g.gameId)).doc.log.filter((e) => e.data?.talk).map((e) => e.data!.talk);
    expect(talk).toEqual(['Good luck, Bob.\nMay the best card win.']);
    // Commands above such a paste are read, and nothing of the paste.
    await mailer.queue.idle();
    const answer = await next(ada.email, isAnswer, before);
    expect(await reply(port(), answer, 'history', { style: 'inline' })).toMatch(/^250/);
    const history = await next(ada.email, (m) => isAnswer(m) && /History \(/.test(m.text ?? ''), before);
    expect(history.text).not.toContain('Not read as a command');
  });

  it('reads replies in HTML only, with attachments, in ISO-8859-1; refuses oversized ones; drops auto-replies', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const first = await next(ada.email, (m) => /^Your turn/.test(m.subject ?? ''));
    const said = async () =>
      (await srv.service.open(g.gameId)).doc.log
        .filter((e) => typeof e.data?.talk === 'string')
        .map((e) => e.data!.talk);
    await reply(port(), first, 'say from my HTML mailer', { htmlOnly: true });
    await reply(port(), first, 'say with a photo', {
      attachments: [{ filename: 'table.jpg', content: Buffer.alloc(20_000, 7), contentType: 'image/jpeg' }],
    });
    await reply(port(), first, 'say Grüße aus Köln', { charset: 'iso-8859-1' });
    expect(await said()).toEqual(['from my HTML mailer', 'with a photo', 'Grüße aus Köln']);
    // Larger than INBOUND_MAX_BYTES (1 MiB by default): refused, not read.
    await expect(
      reply(port(), first, 'say big', {
        attachments: [
          { filename: 'big.bin', content: Buffer.alloc(1_200_000, 1), contentType: 'application/octet-stream' },
        ],
      }),
    ).rejects.toThrow(/552/);
    // An out-of-office answer to our mail: taken (so it is not retried) and dropped.
    expect(
      await reply(port(), first, 'I am away until Monday.', { headers: { 'Auto-Submitted': 'auto-replied' } }),
    ).toMatch(/^250/);
    // One that marks nothing but its subject, as some do.
    const away = await buildReply(first, 'I am on holiday.');
    const awayRaw = Buffer.from(away.toString('utf8').replace(/^Subject: .*$/m, 'Subject: Automatic reply: Your turn'));
    expect(await sendRaw(port(), awayRaw, { from: ada.email, to: addressOf(first.replyTo) })).toMatch(/^250/);
    expect(await said()).toHaveLength(3);
    // Game mail asks Exchange not to answer it automatically at all.
    expect(first.headers.get('x-auto-response-suppress')).toBe('OOF, AutoReply');
  });

  it('limits replies a sender may send an hour, connections a client may open a minute, and webhook bodies', async () => {
    const limited = await startMailServer({
      replies: true,
      env: { INBOUND_SECRET: SECRET, INBOUND_PER_SENDER_HOUR: '2', INBOUND_MAX_BYTES: '100000' },
    });
    const listener = await startInboundSmtp(limited.mailer.desk!, {
      port: 0,
      host: '127.0.0.1',
      connectionsPerMinute: 3,
    });
    try {
      const g = await limited.srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
      const ada = g.seats.find((s) => s.name === 'Ada')!;
      const first = await limited.smtp.waitForMail((m) => to(m) === ada.email && /^Your turn/.test(m.subject ?? ''));
      const envelope = { from: ada.email, to: addressOf(first.replyTo) };
      const send = async (words: string) => sendRaw(listener.port, await buildReply(first, words), envelope);
      // Two replies an hour from Ada's address; the third is "try later" (451), not a refusal.
      expect(await send('say one')).toMatch(/^250/);
      expect(await send('say two')).toMatch(/^250/);
      await expect(send('say three')).rejects.toThrow(/451.*Too many replies/);
      // Three connections a minute from this client; the fourth is told to come back (421).
      await expect(send('say four')).rejects.toThrow(/421/);
      // The webhook: the same sender's quota (503, Retry-After), and a body over INBOUND_MAX_BYTES (413).
      const post = (body: Buffer) =>
        fetch(`${limited.srv.url}/mail/inbound`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'message/rfc822' },
          body,
        });
      const later = await post(await buildReply(first, 'say five'));
      expect(later.status).toBe(503);
      expect(later.headers.get('retry-after')).toBeTruthy();
      expect((await post(Buffer.alloc(150_000, 65))).status).toBe(413);
      const talk = (await limited.srv.service.open(g.gameId)).doc.log.filter((e) => e.data?.talk);
      expect(talk.map((e) => e.data!.talk)).toEqual(['one', 'two']);
    } finally {
      await listener.close();
      await limited.stop();
    }
  });

  it('shows the reply address on the personal page, whose form says words to the table without script', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const turn = await next(ada.email, (m) => /^Your turn/.test(m.subject ?? ''));
    const page = await fetch(`${srv.url}/play/${ada.key}`).then((r) => r.text());
    expect(page).toContain(addressOf(turn.replyTo));
    expect(page).toMatch(new RegExp(`<form method="post" action="/play/${ada.key}/say"`));
    const say = (words: string) =>
      fetch(`${srv.url}/play/${ada.key}/say`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ words }).toString(),
        redirect: 'manual',
      });
    const before = smtp.received.length;
    const said = await say('Hello from the page');
    expect(said.status).toBe(303);
    expect(said.headers.get('location')).toBe(`/play/${ada.key}#talk`);
    const heard = await next('bob@example.test', (m) => /Ada says/.test(m.subject ?? ''), before);
    expect(heard.text).toContain('Hello from the page');
    expect(await fetch(`${srv.url}/play/${ada.key}`).then((r) => r.text())).toContain('Ada says: Hello from the page');
    // Nothing to say: the page again, with the reason, and nothing logged.
    const empty = await say('   ');
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('There is nothing to say.');
    const talk = (await srv.service.open(g.gameId)).doc.log.filter((e) => e.data?.talk);
    expect(talk.map((e) => e.data!.talk)).toEqual(['Hello from the page']);
  });

  it('shows no reply address where replies are off, and the table talk form all the same', async () => {
    const plain = await startMailServer();
    try {
      const g = await plain.srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
      const ada = g.seats.find((s) => s.name === 'Ada')!;
      const page = await fetch(`${plain.srv.url}/play/${ada.key}`).then((r) => r.text());
      expect(page).not.toContain('play+');
      expect(page).toContain(`action="/play/${ada.key}/say"`);
    } finally {
      await plain.stop();
    }
  });

  it('takes replies through the webhook with the shared secret', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const first = await next(ada.email, (m) => /^Your turn/.test(m.subject ?? ''));
    const raw = await buildReply(first, 'say via the webhook');
    const post = (secret: string, body: Buffer | string) =>
      fetch(`${srv.url}/mail/inbound`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'message/rfc822' },
        body,
      });
    expect((await post('wrong-secret-wrong-secret', raw)).status).toBe(401);
    const ok = await post(SECRET, raw);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'answered' });
    // The same mail again (a webhook retried): answered once, played once.
    expect(await (await post(SECRET, raw)).json()).toEqual({ status: 'dropped' });
    const game = await srv.service.open(g.gameId);
    expect(game.doc.log.filter((e) => e.data?.talk === 'via the webhook')).toHaveLength(1);
    // Delivered twice in the same moment (a retry while the first is still being played): played once.
    const twice = await buildReply(first, 'say twice at once');
    const statuses = await Promise.all(
      [post(SECRET, twice), post(SECRET, twice)].map(async (r) => (await (await r).json()) as { status: string }),
    );
    expect(statuses.map((x) => x.status).sort()).toEqual(['answered', 'dropped']);
    const again = await srv.service.open(g.gameId);
    expect(again.doc.log.filter((e) => e.data?.talk === 'twice at once')).toHaveLength(1);
    // A forged sender through the webhook: refused for good.
    const forged = await buildReply(first, 'say hi', { from: 'mallory@example.test' });
    expect((await post(SECRET, forged)).status).toBe(422);
  });
});
