// Mail sent for game events, received by a real SMTP server on loopback and
// parsed by mailparser: invitations, the turn mail (board PNG, private view,
// history, quick links), threading, one-click unsubscribe headers,
// preferences, take-backs and the game-over mail.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { AnyRules } from '../../rules/types.ts';
import { makeService, type TestService } from '../support/service.ts';
import { highCard, type HighCardState } from '../support/high-card.ts';
import { startTestMailer, type TestMailer } from '../support/mailer.ts';

let t: TestService;
let mail: TestMailer;

beforeEach(async () => {
  t = await makeService([highCard]);
  mail = await startTestMailer(t);
});
afterEach(async () => {
  await mail.close();
  await t.cleanup();
});

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';
const header = (m: ParsedMail, name: string) =>
  m.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]*:\s*/, '') ?? '';

async function threeSeatGame() {
  const created = await t.service.create({
    rules: 'high-card',
    seats: 3,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
    invite: ['bob@example.test', 'cy@example.test'],
  });
  await mail.settle();
  await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
  await t.service.join(created.gameId, { name: 'Cy', email: 'cy@example.test' });
  await mail.settle();
  const game = await t.service.open(created.gameId);
  return { ...created, game };
}

describe('mail for game events', () => {
  it('invites, then one turn mail per seat with its own hand, the board PNG, quick links and thread headers', async () => {
    const { gameId, game, inviteKey, adminKey } = await threeSeatGame();
    const invites = mail.smtp.received.filter((m) => /invites you/.test(m.subject ?? ''));
    expect(invites.map(to).sort()).toEqual(['bob@example.test', 'cy@example.test']);
    expect(invites[0]!.text).toContain(t.service.links.inviteUrl(inviteKey));
    // The invite link is shared: no "do not forward" in an invitation.
    for (const m of invites) expect(m.text).not.toContain('do not forward');

    const turns = mail.smtp.received.filter((m) => /^Your turn in High Card/.test(m.subject ?? ''));
    expect(turns).toHaveLength(3);
    const state = game.state as HighCardState;
    for (const m of turns) {
      const seat = game.doc.seats.findIndex((s) => s.email === to(m));
      const hand = [...state.hands[seat]!].sort((a, b) => a - b);
      expect(m.subject).toMatch(/\(move \d+\)$/);
      expect(m.text).toContain('The game has started.');
      expect(m.text).toContain(`Hand: ${hand.join(', ')}`);
      // One quick link per move, each to the confirm page at the current seq.
      const key = t.service.links.seatKeyOf(game.doc, seat);
      for (let n = 0; n < hand.length; n++)
        expect(m.text).toContain(t.service.links.quickMoveUrl(key, n, game.stateSeq));
      expect(m.text).toContain(`Stake card ${hand[0]}:`);
      expect(m.text).toContain(t.service.links.playUrl(key));
      // The board as an inline PNG.
      const png = m.attachments.find((a) => a.cid === 'board');
      expect(png?.contentType).toBe('image/png');
      expect(png!.content.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(png!.related).toBe(true); // referenced from the HTML (mailparser inlines it as a data: URI)
      expect(m.html).toContain('alt="The board as you may see it"');
      // Threading: every mail of this game to this address refers to one root.
      expect(m.inReplyTo).toMatch(new RegExp(`^<game\\.${gameId}\\.`));
      expect(header(m, 'references')).toContain(m.inReplyTo!);
      // RFC 8058 one-click unsubscribe and the preferences link.
      expect(header(m, 'list-unsubscribe')).toContain(`<${t.service.links.baseUrl}/mail/unsubscribe/${key}>`);
      expect(header(m, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(m.text).toContain(`/mail/prefs/${key}`);
      // Hidden information: no other seat's hand, in any form.
      for (let other = 0; other < 3; other++) {
        if (other === seat) continue;
        const theirs = [...state.hands[other]!].sort((a, b) => a - b);
        expect(m.text).not.toContain(theirs.join(', '));
        expect(m.html).not.toContain(JSON.stringify(theirs));
        for (const card of theirs) expect(m.text).not.toMatch(new RegExp(`card ${card}\\b`));
      }
    }
    const setUp = mail.smtp.received.filter((m) => /is set up$/.test(m.subject ?? ''));
    expect(setUp.map(to)).toEqual(['ada@example.test']);
    expect(setUp[0]!.text).toContain(t.service.links.adminUrl(adminKey));
    expect(setUp[0]!.text).toContain(t.service.links.inviteUrl(inviteKey));
    // The organiser plays too: the set-up mail carries that seat's preferences link, and long links wrap on a phone.
    expect(setUp[0]!.text).toMatch(/Mail preferences: \S+\/mail\/prefs\//);
    expect(setUp[0]!.html).toContain('overflow-wrap:anywhere');
    expect(setUp[0]!.html).toContain('@media (max-width:480px)'); // narrower margins on a phone: a wider picture
    const ada = turns.find((m) => to(m) === 'ada@example.test')!;
    const adaInvite = mail.smtp.received.filter((m) => to(m) === 'ada@example.test');
    expect(new Set(adaInvite.map((m) => m.inReplyTo)).size).toBe(1);
    expect(ada.messageId).not.toBe(ada.inReplyTo);
  });

  it('respects preferences: nothing, reminders only, digest; sends undo notices and the game-over mail to all', async () => {
    const { gameId, game } = await threeSeatGame();
    const before = mail.smtp.received.length;
    const seatOf = (email: string) => game.doc.seats.findIndex((s) => s.email === email);
    const bob = seatOf('bob@example.test');
    const cy = seatOf('cy@example.test');
    const ada = seatOf('ada@example.test');
    await t.service.appendNote(gameId, {
      kind: 'prefs',
      seat: bob,
      text: 'Bob changed their mail settings',
      data: { prefs: { mail: 'nothing' } },
    });
    await t.service.appendNote(gameId, {
      kind: 'prefs',
      seat: cy,
      text: 'Cy changed their mail settings',
      data: { prefs: { mail: 'digest' } },
    });
    // Play the game out through the service; count what each address receives.
    for (let i = 0; i < 200; i++) {
      const g = await t.service.open(gameId);
      const toAct = highCard.toAct(g.state);
      if (toAct.length === 0) break;
      const seat = toAct[0]!;
      await t.service.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
      await mail.settle(); // each turn mail goes before the next move (a stale one would be skipped)
    }
    await mail.settle();
    const after = mail.smtp.received.slice(before);
    const got = (email: string) => after.filter((m) => to(m) === email);
    // Bob switched mail off: not even the game-over mail.
    expect(got('bob@example.test')).toHaveLength(0);
    // Cy chose the digest: no turn mails; the digest waits for its hour. Game over reaches Cy.
    expect(got('cy@example.test').filter((m) => /Your turn/.test(m.subject ?? ''))).toHaveLength(0);
    expect(got('cy@example.test').filter((m) => /game over/.test(m.subject ?? ''))).toHaveLength(1);
    expect(mail.mailer.queue.list().some((r) => r.spec?.type === 'digest')).toBe(true);
    // Ada gets her turns and the result with scores and the history link.
    expect(got('ada@example.test').filter((m) => /Your turn/.test(m.subject ?? '')).length).toBeGreaterThan(1);
    const over = got('ada@example.test').find((m) => /game over/.test(m.subject ?? ''))!;
    const final = await t.service.open(gameId);
    for (const [i, s] of final.doc.seats.entries())
      expect(over.text).toContain(`${s.name} ${final.doc.outcome!.scores[i]}`);
    expect(over.text).toContain('/history.txt');
    void ada;
  });

  it('tells the others when a move is taken back, and drops a turn mail that went stale', async () => {
    const created = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
    await mail.settle();
    let g = await t.service.open(created.gameId);
    // Both stake (simultaneous), then the first player plays a card and takes it back.
    for (const seat of [0, 1]) {
      g = await t.service.open(created.gameId);
      await t.service.move(created.gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
    }
    await mail.settle();
    g = await t.service.open(created.gameId);
    const mover = highCard.toAct(g.state)[0]!;
    const play = highCard.moves(g.state, mover).find((a) => a.type === 'play')!;
    const moved = await t.service.move(created.gameId, mover, { seq: g.stateSeq, action: play });
    await t.service.undo(created.gameId, mover, moved.seq);
    await mail.settle();
    const other = g.doc.seats[1 - mover]!.email;
    const undone = mail.smtp.received.filter((m) => to(m) === other && /took back a move/.test(m.subject ?? ''));
    expect(undone).toHaveLength(1);
    expect(undone[0]!.text).toContain(`took back a move: "played the ${play.card}"`);
    // The other seat's turn mail for the move taken back was skipped if it had not gone yet, or sent once; never twice.
    const ids = mail.smtp.messageIds;
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('after a crash that lost the event of a durable move, the restart still sends the turn mail, once', async () => {
    const created = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
    await mail.settle();
    // The process "dies" between the durable moves and their mail: no listener hears them.
    await mail.stop();
    for (const seat of [0, 1]) {
      const g = await t.service.open(created.gameId);
      await t.service.move(created.gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
    }
    const g = await t.service.open(created.gameId);
    const next = g.doc.seats[highCard.toAct(g.state)[0]!]!.email;
    const turnMails = () =>
      mail.smtp.received.filter(
        (m) => to(m) === next && /^Your turn/.test(m.subject ?? '') && m.subject!.includes(`(move ${g.stateSeq})`),
      );
    expect(turnMails()).toHaveLength(0);
    for (let restart = 0; restart < 2; restart++) {
      await mail.start({ fakeClock: true });
      await mail.settle();
      if (restart === 0) await mail.stop();
    }
    expect(turnMails()).toHaveLength(1);
  });

  it('after a crash that lost the events of a take-back and a reopened seat, the restart still tells the others, once each', async () => {
    const created = await t.service.create({
      rules: 'high-card',
      seats: 3,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
    await t.service.join(created.gameId, { name: 'Cy', email: 'cy@example.test' });
    await mail.settle();
    let g = await t.service.open(created.gameId);
    for (const seat of [0, 1, 2]) {
      g = await t.service.open(created.gameId);
      await t.service.move(created.gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state, seat)[0] });
    }
    await mail.settle();
    // The process "dies" after these durable writes and before their mail.
    await mail.stop();
    g = await t.service.open(created.gameId);
    const mover = highCard.toAct(g.state)[0]!;
    const moved = await t.service.move(created.gameId, mover, {
      seq: g.stateSeq,
      action: highCard.moves(g.state, mover).find((a) => a.type === 'play')!,
    });
    await t.service.undo(created.gameId, mover, moved.seq);
    const leaver = (mover + 1) % 3;
    await t.service.reopenSeat(created.gameId, leaver);
    const others = g.doc.seats.filter((_, i) => i !== mover && i !== leaver).map((s) => s.email);
    const notices = (subject: RegExp) =>
      mail.smtp.received.filter((m) => others.includes(to(m)) && subject.test(m.subject ?? ''));
    expect(notices(/took back a move/)).toHaveLength(0);
    for (let restart = 0; restart < 2; restart++) {
      await mail.start({ fakeClock: true });
      await mail.settle();
      if (restart === 0) await mail.stop();
    }
    expect(notices(/took back a move/)).toHaveLength(1);
    expect(notices(/seat was reopened/)).toHaveLength(1);
    // and nothing went twice, the turn mails of the replayed moves included
    expect(new Set(mail.smtp.messageIds).size).toBe(mail.smtp.messageIds.length);
  });

  it('the daily digest: one mail listing the games waiting for that address, instead of turn mails', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const created = await t.service.create({
        rules: 'high-card',
        seats: 3,
        name: 'Ada',
        email: 'ada@example.test',
        join: true,
      });
      const { seat } = await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
      await t.service.appendNote(created.gameId, {
        kind: 'prefs',
        seat,
        text: 'Bob changed their mail settings',
        data: { prefs: { mail: 'digest' } },
      });
      await t.service.start(created.gameId);
      ids.push(created.gameId);
    }
    await mail.settle();
    // Bob had the mail with his seat and link when he sat down (sent at once, whatever he chose
    // after); the turn mails of both games go into the digest instead.
    const toBob = mail.smtp.received.filter((m) => to(m) === 'bob@example.test');
    expect(toBob.filter((m) => !/: your seat and your link$/.test(m.subject ?? ''))).toHaveLength(0);
    const digests = mail.mailer.queue.list().filter((r) => r.spec?.type === 'digest');
    expect(digests).toHaveLength(1); // one per address per day, however many games
    expect(digests[0]!.nextAttemptAt).toBeGreaterThan(Date.now());
    mail.mailer.queue.retryNow(); // as if the digest hour had come
    const digest = await mail.smtp.waitForMail((m) => to(m) === 'bob@example.test');
    expect(digest.subject).toBe('2 games are waiting for you');
    for (const id of ids) {
      const g = await t.service.open(id);
      const bob = g.doc.seats.findIndex((s) => s.name === 'Bob');
      expect(digest.text).toContain(t.service.links.playUrl(t.service.links.seatKeyOf(g.doc, bob)));
    }
  });

  it('tells everyone when the organiser abandons the game', async () => {
    const created = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
    await t.service.abandon(created.gameId);
    await mail.settle();
    const gone = mail.smtp.received.filter((m) => /was abandoned$/.test(m.subject ?? ''));
    expect(gone.map(to).sort()).toEqual(['ada@example.test', 'bob@example.test']);
    // The turn mails queued before the abandon were not sent once the game was over, or went before it.
    expect(new Set(mail.smtp.messageIds).size).toBe(mail.smtp.messageIds.length);
  });

  it('a reopened seat: the others are told, the newcomer is invited by name and welcomed with a turn mail', async () => {
    const created = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
    await mail.settle();
    let g = await t.service.open(created.gameId);
    const bob = g.doc.seats.findIndex((s) => s.name === 'Bob');
    const reopened = await t.service.reopenSeat(created.gameId, bob, { email: 'carl@example.test' });
    await mail.settle();
    expect(
      mail.smtp.received.filter((m) => to(m) === 'ada@example.test' && /seat was reopened/.test(m.subject ?? '')),
    ).toHaveLength(1);
    const invite = mail.smtp.received.find((m) => to(m) === 'carl@example.test')!;
    expect(invite.text).toContain('taking over the seat of Bob');
    const joinUrl = /(http:\/\/\S+\/join\/[A-Za-z0-9_-]+)/.exec(invite.text ?? '')![1]!;
    expect(joinUrl).toBe(t.service.links.inviteUrl(reopened.inviteKey));
    await t.service.join(created.gameId, { name: 'Carl', email: 'carl@example.test' });
    await mail.settle();
    const welcome = mail.smtp.received.filter(
      (m) => to(m) === 'carl@example.test' && /^Welcome to/.test(m.subject ?? ''),
    );
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.text).toContain(`you took over seat ${bob + 1} from Bob`);
    expect(welcome[0]!.text).toContain('Make your move');
    // Bob is told that his seat was given up, and by whom.
    const gone = mail.smtp.received.filter(
      (m) => to(m) === 'bob@example.test' && /given up by Ada/.test(m.subject ?? ''),
    );
    expect(gone).toHaveLength(1);
    g = await t.service.open(created.gameId);
    expect(welcome[0]!.text).toContain(t.service.links.playUrl(t.service.links.seatKeyOf(g.doc, bob)));
  });
});

describe('a game that no longer replays', () => {
  /** The same High Card, changed without a version bump: every hand gets a fourth card at the deal. */
  const changedInPlace: AnyRules = {
    ...highCard,
    setup(seats, seed, options) {
      const s = highCard.setup(seats, seed, options) as HighCardState;
      for (const hand of s.hands) hand.push(s.deck.shift()!);
      return s;
    },
  };

  it('tells the organiser in words, once, with the history links; the players get no turn mail', async () => {
    const created = await t.service.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await t.service.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
    await mail.settle();
    await mail.stop();
    const before = mail.smtp.received.length;

    // The code changed under the game: a restart on the same folder with the changed rules.
    for (let restart = 0; restart < 2; restart++) {
      const changed = await t.reopen([changedInPlace]);
      await mail.start({ service: changed });
      expect((await changed.open(created.gameId)).attention).toMatch(/set-up/);
      await mail.settle();
      await mail.stop();
    }
    const after = mail.smtp.received.slice(before);
    expect(after.map((m) => `${to(m)} ${m.subject}`)).toEqual([
      'ada@example.test Your game of High Card needs attention',
    ]);
    const text = after[0]!.text ?? '';
    expect(text).toContain('no longer replays here');
    expect(text).toMatch(/What the server found: The game's set-up/);
    const game = await t.service.open(created.gameId);
    const spectatorKey = t.service.links.spectatorKeyOf(game.doc);
    expect(text).toContain(t.service.links.historyUrl(spectatorKey, 'txt', 'spectator'));
    expect(text).toContain(t.service.links.adminUrl(t.service.links.adminKeyOf(game.doc)));
  });
});
