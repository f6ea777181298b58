// Joining long-running games, through the pages and the mail a person gets:
// a seat taken before the start is mailed at once; reopening a seat asks first,
// tells the removed player by mail and answers their old link in words (410);
// the home page lists running games with a free seat; the invite page shows what
// the newcomer takes over; the newcomer gets a welcome mail with the game so far.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { TestServer } from '../support/server.ts';
import { highCard } from '../support/high-card.ts';
import { RuleError, type Rules } from '../../rules/types.ts';
import type { TestSmtp } from './smtp.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';

let smtp: TestSmtp;
let srv: TestServer;
let m: MailTestServer;

beforeEach(async () => {
  m = await startMailServer();
  ({ smtp, srv } = m);
});
afterEach(() => m.stop());

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

const settle = () => m.settle();

async function form(path: string, fields: Record<string, string | number>) {
  const res = await fetch(srv.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') ?? '' };
}

const page = async (path: string) => {
  const res = await fetch(srv.url + path);
  return { status: res.status, text: await res.text() };
};

describe('an invitation', () => {
  it('has a preferences link of its own, which stops invitations to that address', async () => {
    const created = await srv.api('POST', '/api/games', {
      rules: 'high-card',
      seats: 3,
      name: 'Ada',
      email: 'ada@example.test',
      invite: ['eve@example.test'],
    });
    expect(created.status).toBe(201);
    await settle();
    const invite = await smtp.waitForMail((m) => to(m) === 'eve@example.test');
    expect(invite.text).not.toContain('do not forward');
    const prefs = /Mail preferences: (\S+)/.exec(invite.text ?? '')![1]!;
    expect(prefs).toMatch(/\/mail\/invitations\//);
    const page = await fetch(prefs).then((r) => r.text());
    expect(page).toContain('Invitations to games on this server, sent to eve@example.test');
    const saved = await fetch(prefs, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'invitations=no',
    });
    expect(saved.status).toBe(200);
    // Another organiser invites Eve: nothing is sent.
    await srv.api('POST', '/api/games', {
      rules: 'high-card',
      seats: 2,
      name: 'Cy',
      email: 'cy@example.test',
      invite: ['eve@example.test'],
    });
    await settle();
    expect(smtp.received.filter((m) => to(m) === 'eve@example.test')).toHaveLength(1);
    // A forged link opens nothing.
    expect((await fetch(prefs.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(404);
  });
});

describe('joining long-running games', () => {
  it('mails a seat taken before the start its personal link at once', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada'], seats: 3, start: false });
    const joined = await form(`/join/${g.inviteKey}`, { name: 'Bob', email: 'bob@example.test' });
    expect(joined.status).toBe(303);
    const bobKey = joined.location.replace(/^.*\/play\//, '');
    await settle();
    const bobs = smtp.received.filter((m) => to(m) === 'bob@example.test');
    expect(bobs).toHaveLength(1);
    expect(bobs[0]!.subject).toMatch(/your seat and your link/);
    expect(bobs[0]!.text).toContain(srv.service.links.playUrl(bobKey));
    expect(bobs[0]!.text).toContain('2 of 3 players have joined (Ada)');
    // The organiser's own seat came in the set-up mail: no second mail for it.
    expect(smtp.received.filter((m) => to(m) === 'ada@example.test').map((m) => m.subject)).toEqual([
      'Your game of High Card is set up',
    ]);
  });

  it('reopens a seat only once confirmed, tells the removed player, and hands the seat to a newcomer', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
    // Everybody stakes, so the game is under way.
    for (const s of g.seats) {
      const st = await srv.state(s.key);
      expect((await srv.move(s.key, st.game.seq, st.moves[0]!.action)).status).toBe(200);
    }
    await settle();
    const bob = g.seats.find((s) => s.name === 'Bob')!;
    const bobView = (await srv.state(bob.key)).view as { hand?: number[] };

    // The first press asks; nothing changes yet.
    const ask = await form(`/admin/${g.adminKey}/reopen`, { seat: bob.seat, email: '' });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain(`Reopen seat ${bob.seat + 1}?`);
    expect(ask.text).toContain('Bob will lose the seat');
    expect((await page(`/play/${bob.key}`)).status).toBe(200);

    const done = await form(`/admin/${g.adminKey}/reopen`, { seat: bob.seat, email: '', confirm: 'yes' });
    expect(done.status).toBe(303);
    await settle();

    // Bob is told, by whom; his link answers in words.
    const removed = await smtp.waitForMail((m) => to(m) === 'bob@example.test' && /given up/.test(m.subject ?? ''));
    expect(removed.subject).toContain('your seat was given up by Ada');
    expect(removed.text).toContain('Ada, who organises the game, opened it for a new player');
    expect(removed.text).not.toContain(bob.key);
    const old = await page(`/play/${bob.key}`);
    expect(old.status).toBe(410);
    expect(old.text).toContain('Bob, your seat in High Card was given up: Ada, who organises the game');
    expect(old.text).not.toContain('No game is behind this link');
    expect((await srv.api('GET', `/api/play/${bob.key}`)).status).toBe(410);
    expect((await page(`/mail/prefs/${bob.key}`)).status).toBe(410);
    // A key nobody ever had is still just not found.
    expect((await page(`/play/${'x'.repeat(24)}`)).status).toBe(404);

    // The home page lists the game among running games looking for a player.
    const home = await page('/');
    const section = home.text.slice(home.text.indexOf('Running games looking for a player'));
    expect(section).toMatch(/<a href="\/join\/[A-Za-z0-9_-]+">Take over the seat<\/a>/);
    const joinPath = section.match(/href="(\/join\/[A-Za-z0-9_-]+)"/)![1]!;
    expect(section).not.toMatch(/<td>\d{4}-\d\d-\d\dT/);
    expect(home.text.slice(0, home.text.indexOf('Running games looking for a player'))).not.toContain(joinPath);

    // The API lists it apart likewise: among running games with a reopened seat, with the link.
    const listed = (await srv.api('GET', '/api/v1/games')).body as {
      open: { id: string }[];
      seatsFree: {
        id: string;
        players: string[];
        freeSeats: number;
        toAct: { seat: number; name: string | null }[];
        inviteUrl: string;
        joinApi: string;
      }[];
      running: { id: string }[];
      seatsFreeTotal: number;
    };
    expect(listed.open.map((e) => e.id)).not.toContain(g.gameId);
    expect(listed.running.map((e) => e.id)).toContain(g.gameId);
    expect(listed.seatsFreeTotal).toBe(1);
    const free = listed.seatsFree.find((e) => e.id === g.gameId)!;
    expect(free.freeSeats).toBe(1);
    expect([...free.players].sort()).toEqual(['Ada', 'Cy']);
    expect(new URL(free.inviteUrl).pathname).toBe(joinPath);
    expect((await srv.api('GET', free.joinApi)).status).toBe(200);
    expect((await srv.api('GET', '/api/games')).body).toEqual(listed);

    // The invite page shows what the newcomer takes over, without the seat's hidden hand.
    const invite = await page(joinPath);
    expect(invite.status).toBe(200);
    expect(invite.text).toContain(`Take over seat ${bob.seat + 1} in High Card`);
    expect(invite.text).toContain('Bob left seat');
    expect(invite.text).toContain('Whose turn:');
    expect(invite.text).toContain('Take over this seat');
    for (const card of bobView.hand ?? []) expect(invite.text).not.toMatch(new RegExp(`Hand: [^<]*\\b${card}\\b`));

    const took = await form(joinPath, { name: 'Dan', email: 'dan@example.test' });
    expect(took.status).toBe(303);
    const danKey = took.location.replace(/^.*\/play\//, '');
    await settle();
    const welcome = await smtp.waitForMail((m) => to(m) === 'dan@example.test');
    expect(welcome.subject).toContain(`you took over seat ${bob.seat + 1}`);
    expect(welcome.text).toContain(`you took over seat ${bob.seat + 1} from Bob`);
    expect(welcome.text).toContain('The game so far');
    expect(welcome.text).toContain('Ada took a seat');
    expect(welcome.text).toContain(srv.service.links.playUrl(danKey));
    const dan = await srv.state(danKey);
    expect(dan.you).toBe(bob.seat);
    if (dan.yourTurn) expect(welcome.text).toContain('Make your move');
    // Only one mail for Dan: the welcome stands in for the turn mail.
    expect(smtp.received.filter((m) => to(m) === 'dan@example.test')).toHaveLength(1);
    // Nobody is looking any more.
    expect((await page('/')).text).not.toContain(joinPath);
    expect(((await srv.api('GET', '/api/v1/games')).body as { seatsFree: unknown[] }).seatsFree).toEqual([]);
  });
});

/** Two seats take turns ticking a counter: no chance, so an import's actions are known beforehand. */
interface Ticks {
  n: number;
}
const ticks: Rules<Ticks, { type: 'tick' }> = {
  id: 'ticks',
  title: 'Ticks',
  version: 1,
  players: { min: 2, max: 2 },
  setup: () => ({ n: 0 }),
  toAct: (s) => (s.n >= 10 ? [] : [s.n % 2]),
  apply(s, seat, action) {
    if (seat !== s.n % 2 || (action as { type?: string })?.type !== 'tick') throw new RuleError('Not now.');
    s.n++;
  },
  moves: () => [{ type: 'tick' }],
  view: (s, seat) => ({ seat, toAct: s.n >= 10 ? [] : [s.n % 2], status: `${s.n} ticks` }),
  outcome: (s) => (s.n >= 10 ? { scores: [0, 0], ranks: [1, 1], reason: 'ten ticks' } : null),
  describe: () => 'ticked',
};

describe('an imported game', () => {
  it('tells the organiser the table is full, and sends the player to act a turn mail', async () => {
    await m.stop();
    m = await startMailServer({ registry: [highCard, ticks] });
    ({ smtp, srv } = m);
    // Ada and Bob have each ticked once elsewhere: Ada is to act again.
    const created = await srv.service.importGame({
      rules: 'ticks',
      creator: { name: 'Ada', email: 'ada@example.test' },
      seats: [
        { name: 'Ada', email: 'ada@example.test' },
        { name: 'Bob', email: 'bob@example.test' },
      ],
      actions: [
        { seat: 0, action: { type: 'tick' } },
        { seat: 1, action: { type: 'tick' } },
      ],
      source: 'a test',
    });
    await settle();
    const ada = smtp.received.filter((m) => to(m) === 'ada@example.test');
    const setUp = ada.filter((m) => /^Your game of Ticks/.test(m.subject ?? ''));
    expect(setUp).toHaveLength(1);
    expect(setUp[0]!.text).not.toContain('anyone who has it can take a free seat');
    expect(setUp[0]!.text).toContain('has moved here');
    expect(setUp[0]!.text).toContain('Every seat is taken');
    const turn = ada.find((m) => /^Your turn in Ticks/.test(m.subject ?? ''));
    expect(turn?.text).toContain('2 ticks');
    expect(turn?.text).toContain(srv.service.links.playUrl(created.seatKeys[0]!));
    expect(
      smtp.received.filter((m) => to(m) === 'bob@example.test' && /^Your turn/.test(m.subject ?? '')),
    ).toHaveLength(0);
  });
});
