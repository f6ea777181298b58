// The server over real HTTP: a whole High Card game through personal links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { highCard } from '../support/high-card.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { verifyHistory } from '../../server/verify.ts';
import { entryHash } from '../../server/store/chain.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.stop();
});

async function form(
  path: string,
  fields: Record<string, string | number>,
): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(srv.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)] as [string, string])).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

async function page(path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(srv.url + path);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const keyOf = (location: string | null) => location!.split('/').pop()!;

describe('HTTP: a whole game through personal links', () => {
  it('create, join by the invite form, start, play, stale and illegal moves, undo, reopen, history and verify', async () => {
    // Create through the form, as a person would.
    const created = await form('/new', {
      rules: 'high-card',
      seats: 3,
      name: 'Ada',
      email: 'ada@example.test',
      join: 'on',
      listed: 'on',
      remindAfterHours: 24,
      repeatHours: 24,
      maxReminders: 3,
      onTimeout: 'notify',
    });
    expect(created.status).toBe(303);
    const adminKey = keyOf(created.location!.split('?')[0]!);
    const admin = await page(`/admin/${adminKey}`);
    expect(admin.status).toBe(200);
    const inviteKey = /\/join\/([A-Za-z0-9_-]+)/.exec(admin.text)![1]!;
    const adaKey = /\/play\/([A-Za-z0-9_-]+)/.exec(admin.text)![1]!;

    // The home page lists the open game with its free seats.
    expect((await page('/')).text).toContain('Take a seat');

    // Join through the invite form; a bad email keeps the name in the form.
    const bad = await form(`/join/${inviteKey}`, { name: 'Bob', email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('valid email');
    expect(bad.text).toContain('value="Bob"');
    const bob = await form(`/join/${inviteKey}`, { name: 'Bob', email: 'bob@example.test' });
    expect(bob.status).toBe(303);
    const bobKey = keyOf(bob.location);
    // Two of three: the admin starts it.
    expect((await form(`/admin/${adminKey}/start`, {})).status).toBe(303);
    expect((await page(`/join/${inviteKey}`)).status).toBe(404); // the table is closed

    const keys = [adaKey, bobKey];
    const seatOfKey = new Map<string, number>();
    for (const k of keys) seatOfKey.set(k, (await srv.state(k)).you);
    const keyOfSeat = (seat: number) => keys.find((k) => seatOfKey.get(k) === seat)!;

    // Stakes are chosen at once: both against the same seq.
    const s0 = await srv.state(keyOfSeat(0));
    const s1 = await srv.state(keyOfSeat(1));
    expect(s0.game.seq).toBe(s1.game.seq);
    const stake0 = await form(`/play/${keyOfSeat(0)}/move`, {
      seq: s0.game.seq,
      action: JSON.stringify(s0.moves[0]!.action),
    });
    expect(stake0.status).toBe(303);
    // A second click on the same button is refused: the game moved on.
    const again = await form(`/play/${keyOfSeat(0)}/move`, {
      seq: s0.game.seq,
      action: JSON.stringify(s0.moves[0]!.action),
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain('moved on');
    // Seat 1 still chooses against the old seq (simultaneous choice).
    expect((await srv.move(keyOfSeat(1), s1.game.seq, s1.moves[1]!.action)).status).toBe(200);

    // An illegal move: the rule's own message. Actions as JSON are for programs (the API docs), not a form on the page.
    const turn = (await srv.state(keyOfSeat(0))).view.toAct[0]!;
    const st = await srv.state(keyOfSeat(turn));
    const illegal = await form(`/play/${keyOfSeat(turn)}/move`, {
      seq: st.game.seq,
      action: '{"type":"play","card":99}',
    });
    expect(illegal.status).toBe(400);
    expect(illegal.text).toContain('You do not hold the 99.');
    expect(illegal.text).not.toContain('name="action" rows');
    expect(illegal.text).toContain('href="/api/v1/openapi.json"');
    expect(illegal.text.match(/class="command-box"/g)).toHaveLength(1);
    const cmd = await form(`/play/${keyOfSeat(turn)}/move`, { seq: st.game.seq, command: 'fly to the moon' });
    expect(cmd.status).toBe(400);
    expect(cmd.text).toContain('Write &quot;stake 5&quot;');
    expect(cmd.text).toContain('value="fly to the moon"');

    // A typed command plays.
    const card = (st.view.hand as number[])[0]!;
    expect((await form(`/play/${keyOfSeat(turn)}/move`, { seq: st.game.seq, command: `play ${card}` })).status).toBe(
      303,
    );

    // Undo: the mover may take it back; the other seat may not.
    const other = 1 - turn;
    const afterPlay = await srv.state(keyOfSeat(turn));
    expect(afterPlay.canUndo).toBe(true);
    expect((await srv.state(keyOfSeat(other))).canUndo).toBe(false);
    expect((await srv.api('POST', `/api/play/${keyOfSeat(other)}/undo`, { seq: afterPlay.game.seq })).status).toBe(409);
    expect((await form(`/play/${keyOfSeat(turn)}/undo`, { seq: afterPlay.game.seq })).status).toBe(303);
    const undone = await srv.state(keyOfSeat(turn));
    expect(undone.view.hand).toContain(card);
    // Play again, then the other seat acts: no take-back any more.
    expect((await srv.move(keyOfSeat(turn), undone.game.seq, { type: 'play', card })).status).toBe(200);
    const o = await srv.state(keyOfSeat(other));
    expect((await srv.move(keyOfSeat(other), o.game.seq, o.moves[0]!.action)).status).toBe(200);
    const late = await srv.state(keyOfSeat(turn));
    expect(late.canUndo).toBe(false);
    expect((await srv.api('POST', `/api/play/${keyOfSeat(turn)}/undo`, { seq: late.game.seq })).body.error).toMatch(
      /Somebody else|no move/,
    );
    // A draw cannot be taken back.
    const now = await srv.state(keyOfSeat(late.view.toAct[0]!));
    const draw = now.moves.find((m) => (m.action as { type: string }).type === 'draw');
    if (draw) {
      expect((await srv.move(keyOfSeat(now.you), now.game.seq, draw.action)).status).toBe(200);
      const d = await srv.state(keyOfSeat(now.you));
      expect(d.canUndo).toBe(false);
      const r = await srv.api('POST', `/api/play/${keyOfSeat(now.you)}/undo`, { seq: d.game.seq });
      expect(r.status).toBe(409);
      expect(r.body.error).toContain('hidden information');
    }

    // Reopen Bob's seat: his link dies, Cy takes over through a fresh invite.
    const bobSeat = seatOfKey.get(bobKey)!;
    expect((await form(`/admin/${adminKey}/reopen`, { seat: bobSeat, email: '', confirm: 'yes' })).status).toBe(303);
    expect((await page(`/play/${bobKey}`)).status).toBe(410);
    const adminAfter = await page(`/admin/${adminKey}`);
    const newInvite = /\/join\/([A-Za-z0-9_-]+)/.exec(adminAfter.text)![1]!;
    expect(newInvite).not.toBe(inviteKey);
    const cy = await form(`/join/${newInvite}`, { name: 'Cy', email: 'cy@example.test' });
    expect(cy.status).toBe(303);
    const cyKey = keyOf(cy.location);
    expect((await srv.state(cyKey)).you).toBe(bobSeat);
    keys[1] = cyKey;
    seatOfKey.set(cyKey, bobSeat);

    // Play to the end through the API.
    for (let guard = 0; guard < 100; guard++) {
      const any = await srv.state(adaKey);
      if (any.game.status !== 'active') break;
      const k = keyOfSeat(any.view.toAct[0]!);
      const me = await srv.state(k);
      expect((await srv.move(k, me.game.seq, me.moves[0]!.action)).status).toBe(200);
    }
    const final = await srv.state(adaKey);
    expect(final.game.status).toBe('finished');
    const finalPage = await page(`/play/${adaKey}`);
    expect(finalPage.text).toContain('Result');

    // Download and verify.
    const json = await page(`/play/${adaKey}/history.json`);
    expect(json.headers.get('content-disposition')).toContain('attachment');
    const history = JSON.parse(json.text);
    expect(history.seed).toMatch(/^[0-9a-f]{64}$/);
    const result = verifyHistory(history, [highCard]);
    expect(result).toMatchObject({ ok: true, replayed: true });
    // The seat order is the seed's.
    const start = history.log.find((e: { kind: string }) => e.kind === 'start');
    const swapped = structuredClone(history);
    const st0 = swapped.log.find((e: { kind: string }) => e.kind === 'start');
    st0.data.order = [...st0.data.order].reverse();
    for (let i = start.seq - 1; i < swapped.log.length; i++) {
      if (i > 0) swapped.log[i].prev = swapped.log[i - 1].hash;
      swapped.log[i].hash = entryHash(swapped.log[i]);
    }
    expect(verifyHistory(swapped, [highCard])).toEqual({
      ok: false,
      seq: start.seq,
      why: 'the seat order is not the one the seed draws',
    });
    // Tampering is found.
    const moveAt = history.log.findIndex((e: { kind: string }) => e.kind === 'move');
    history.log[moveAt].action = { type: 'draw' };
    expect(verifyHistory(history, [highCard])).toMatchObject({ ok: false, seq: moveAt + 1 });
    const txt = await page(`/play/${adaKey}/history.txt`);
    expect(txt.text).toMatch(/^1\. .*created a game of High Card/m);
    expect(txt.text).toContain('took back');
    // Step through: any entry, the first and the last.
    expect((await page(`/play/${adaKey}/step/1`)).status).toBe(200);
    expect((await page(`/play/${adaKey}/step/${history.log.length}`)).text).toContain('Game over');
    expect((await page(`/play/${adaKey}/step/${history.log.length + 1}`)).status).toBe(404);
    expect(
      (await page(`/watch/${(await srv.api('GET', `/api/admin/${adminKey}`)).body.watchUrl.split('/').pop()}`)).status,
    ).toBe(200);
  });

  it('two concurrent submissions against one seq make exactly one move', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ann', 'Ben'] });
    const [a, b] = g.seats;
    for (const s of [a!, b!]) {
      const st = await srv.state(s.key);
      await srv.move(s.key, st.game.seq, st.moves[0]!.action);
    }
    const turnSeat = (await srv.state(a!.key)).view.toAct[0]!;
    const k = g.seats[turnSeat]!.key;
    const st = await srv.state(k);
    const results = await Promise.all([0, 1, 0, 1].map((i) => srv.move(k, st.game.seq, st.moves[i]!.action)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    const history = (await srv.api('GET', `/api/play/${k}/history`)).body;
    expect(history.log.filter((e: { kind: string }) => e.kind === 'move')).toHaveLength(3);
  });

  it('never shows hidden information to another seat', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ida', 'Jo'] });
    const [i, j] = g.seats;
    const si = await srv.state(i!.key);
    const stake = (si.view.hand as number[])[2]!;
    expect((await srv.move(i!.key, si.game.seq, { type: 'stake', card: stake })).status).toBe(200);
    const sj = await srv.state(j!.key);
    expect(sj.view.stakes).toEqual([null, null]);
    expect(i!.seat).toBeGreaterThanOrEqual(0);
    expect(sj.view.hand).not.toContain(stake);
    expect(JSON.stringify(sj)).not.toMatch(new RegExp(`"card":${stake}\\b`));
    const hj = (await srv.api('GET', `/api/play/${j!.key}/history`)).body;
    expect(JSON.stringify(hj)).not.toMatch(new RegExp(`"card":${stake}\\b`));
    expect(verifyHistory(hj, [highCard])).toMatchObject({ ok: true, replayed: false });
    const pj = await page(`/play/${j!.key}`);
    const names = [i!, j!].sort((x, y) => x.seat - y.seat).map((x) => x.name);
    expect(pj.text).toContain(`Stakes</th><td>${names[0]}: —; ${names[1]}: —`);
    // Ida's hand is hers alone: Jo's page shows only sizes for others.
    const idaHand = (si.view.hand as number[]).filter((c) => c !== stake);
    expect(pj.text).not.toContain(`Hand</th><td>${idaHand.join(', ')}`);
    const watch = (await srv.api('GET', `/api/watch/${g.spectatorKey}`)).body;
    expect(watch.view.hand).toBeNull();
    expect(watch.view.stakes).toEqual([null, null]);
    // Her own page shows her stake.
    const own = names.map((n) => `${n}: ${n === i!.name ? stake : '—'}`).join('; ');
    expect((await page(`/play/${i!.key}`)).text).toContain(`Stakes</th><td>${own}`);
  });

  it('quick-move links only confirm; a stale one says the game moved on', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Kim', 'Lou'] });
    const k = g.seats[0]!;
    const st = await srv.state(k.key);
    const confirm = await page(`/play/${k.key}/m/1?seq=${st.game.seq}`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(st.moves[1]!.text);
    expect(confirm.text).toContain('Confirm this move');
    expect((await srv.state(k.key)).game.lastSeq).toBe(st.game.lastSeq); // GET changed nothing
    // a link to a move not on offer, a mangled number or no position: refused in words, nothing played
    for (const bad of [
      `m/${st.moves.length}?seq=${st.game.seq}`,
      `m/-1?seq=${st.game.seq}`,
      `m/one?seq=${st.game.seq}`,
      'm/0',
      `m/0?seq=x`,
    ]) {
      const r = await page(`/play/${k.key}/${bad}`);
      expect(r.status).toBe(409);
      expect(r.text).toMatch(/no longer on offer|no position number/);
    }
    expect((await srv.state(k.key)).game.lastSeq).toBe(st.game.lastSeq);
    const action = /name="action" value="([^"]+)"/.exec(confirm.text)![1]!.replace(/&quot;/g, '"');
    expect((await form(`/play/${k.key}/move`, { seq: st.game.seq, action })).status).toBe(303);
    const stale = await page(`/play/${k.key}/m/0?seq=${st.game.seq}`);
    expect(stale.status).toBe(409);
    expect(stale.text).toMatch(/moved on|not your turn/i);
  });

  it('a quick link sent for a simultaneous choice still works after another seat chose', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Mo', 'Ned', 'Oz'] });
    const [a, b] = g.seats;
    const sa = await srv.state(a!.key);
    const sb = await srv.state(b!.key);
    expect((await srv.move(a!.key, sa.game.seq, sa.moves[0]!.action)).status).toBe(200);
    const link = await page(`/play/${b!.key}/m/2?seq=${sb.game.seq}`);
    expect(link.status).toBe(200);
    const action = /name="action" value="([^"]+)"/.exec(link.text)![1]!.replace(/&quot;/g, '"');
    expect((await form(`/play/${b!.key}/move`, { seq: sb.game.seq, action })).status).toBe(303);
    expect((await srv.state(b!.key)).view.stakes).toContain((sb.moves[2]!.action as { card: number }).card);
    // But the seat that already chose cannot use its old link again.
    expect((await page(`/play/${a!.key}/m/1?seq=${sa.game.seq}`)).status).toBe(409);
  });

  it('answers bad input with 4xx and plain words, escapes user text, sends helmet headers', async () => {
    const bad = await fetch(`${srv.url}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"rules":',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'The request body is not valid JSON.' });
    const big = await fetch(`${srv.url}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(100_000) }),
    });
    expect(big.status).toBe(413);
    const missing = await srv.api('POST', '/api/games', { rules: 'high-card', seats: 2 });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/name/i);
    expect(
      (await srv.api('POST', '/api/games', { rules: 'chess', seats: 2, name: 'A', email: 'a@example.test' })).body
        .error,
    ).toContain('no game called');
    expect(
      (await srv.api('POST', '/api/games', { rules: 'high-card', seats: 9, name: 'A', email: 'a@example.test' })).body
        .error,
    ).toContain('2 to 4 players');
    const unknown = await page(`/play/${'A'.repeat(24)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toMatch(/at .*\.ts:\d+/);
    expect((await srv.api('GET', '/api/play/short')).status).toBe(404);
    const moveBad = await srv.api('POST', `/api/play/${'B'.repeat(24)}/move`, { seq: 'x' });
    expect(moveBad.status).toBe(404);

    const g = await srv.createGame({ rules: 'high-card', players: ['<script>alert(1)</script>', 'Zed'] });
    const p = await page(`/play/${g.seats[0]!.key}`);
    expect(p.text).not.toContain('<script>alert(1)</script>');
    expect(p.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(p.headers.get('content-security-policy')).toContain("script-src 'self' 'nonce-");
    expect(p.headers.get('x-content-type-options')).toBe('nosniff');
    const apiRes = await fetch(`${srv.url}/api/games`);
    expect(apiRes.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(apiRes.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(apiRes.headers.get('x-powered-by')).toBeNull();
    const emptyMove = await srv.api('POST', `/api/play/${g.seats[0]!.key}/move`, {});
    expect(emptyMove.status).toBe(400);
    expect(emptyMove.body.error).toMatch(/seq/);
  });

  it("plays move n of the listed moves for the API's n, listed before or not, and refuses an n not on offer", async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ann', 'Bo'] });
    for (let round = 0; round < 2; round++) {
      // Listed first (the page, a turn mail), then played by number: the move the list showed.
      let st = await srv.state(g.seats[0]!.key);
      const seat = st.moves.length > 0 ? 0 : 1;
      st = await srv.state(g.seats[seat]!.key);
      const n = st.moves.length - 1;
      const want = st.moves[n]!;
      const tooFar = await srv.api('POST', `/api/play/${g.seats[seat]!.key}/move`, {
        seq: st.game.seq,
        n: st.moves.length,
      });
      expect(tooFar.status).toBe(409);
      expect(tooFar.body.error).toMatch(/no longer on offer/);
      const played = await srv.api('POST', `/api/play/${g.seats[seat]!.key}/move`, { seq: st.game.seq, n });
      expect(played.status).toBe(200);
      expect(played.body.text).toBe(want.text);
      // The other seat, by number without asking for the list first.
      const other = 1 - seat;
      const res = await srv.api('POST', `/api/play/${g.seats[other]!.key}/move`, { seq: played.body.seq, n: 0 });
      expect(res.status).toBe(200);
      const history = (await srv.api('GET', `/api/play/${g.seats[other]!.key}/history`)).body;
      expect(JSON.stringify(history)).toContain(res.body.text);
    }
  });

  it('logs one JSON line per request and game event, never a link key', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
    const logged = await startTestServer({ logger });
    try {
      const g = await logged.createGame({ rules: 'high-card', players: ['Ann', 'Bo'] });
      const st = await logged.state(g.seats[0]!.key);
      await logged.move(g.seats[0]!.key, st.game.seq, st.moves[0]!.action);
      await fetch(`${logged.url}/play/${g.seats[0]!.key}`);
      await fetch(`${logged.url}/admin/${g.adminKey}?x=1`);
      const keys = [g.adminKey, g.inviteKey, g.spectatorKey, ...g.seats.map((s) => s.key)];
      expect(lines.length).toBeGreaterThan(8);
      for (const line of lines) {
        JSON.parse(line);
        for (const k of keys) expect(line).not.toContain(k);
      }
      expect(lines.some((l) => l.includes('"path":"/play/:key"'))).toBe(true);
      expect(lines.some((l) => l.includes('"event":"moved"'))).toBe(true);
    } finally {
      await logged.stop();
    }
  });

  it('lists public games on the home page, never unlisted ones; admin sets the policy and abandons', async () => {
    const pub = await srv.createGame({ rules: 'high-card', players: ['Pam'], seats: 3, start: false });
    const hidden = await srv.createGame({
      rules: 'high-card',
      players: ['Quinn'],
      seats: 3,
      start: false,
      listed: false,
    });
    const home = await page('/');
    expect(home.text).toContain(`/join/${pub.inviteKey}`);
    expect(home.text).not.toContain(hidden.inviteKey);
    expect(home.text).not.toContain('Quinn');
    const list = (await srv.api('GET', '/api/games')).body;
    expect(JSON.stringify(list)).not.toContain(hidden.gameId);
    expect(list.open.some((e: { id: string; freeSeats: number }) => e.id === pub.gameId && e.freeSeats === 2)).toBe(
      true,
    );

    const bad = await form(`/admin/${hidden.adminKey}/policy`, {
      remindAfterHours: -3,
      repeatHours: 24,
      maxReminders: 3,
      onTimeout: 'notify',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('cannot be negative');
    expect(
      (
        await form(`/admin/${hidden.adminKey}/policy`, {
          remindAfterHours: 48,
          repeatHours: 12,
          maxReminders: 2,
          onTimeout: 'autoMove',
        })
      ).status,
    ).toBe(303);
    expect((await srv.api('GET', `/api/admin/${hidden.adminKey}`)).body.policy).toEqual({
      remindAfterHours: 48,
      repeatHours: 12,
      maxReminders: 2,
      onTimeout: 'autoMove',
    });
    expect((await form(`/admin/${hidden.adminKey}/abandon`, {})).status).toBe(400);
    expect((await form(`/admin/${hidden.adminKey}/abandon`, { confirm: 'yes' })).status).toBe(303);
    expect((await srv.api('GET', `/api/admin/${hidden.adminKey}`)).body.status).toBe('abandoned');
    expect((await page(`/join/${hidden.inviteKey}`)).status).toBe(404);
  });

  it('limits the rate of POSTs', async () => {
    const limited = await startTestServer({ postLimit: { windowMs: 60_000, limit: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.api('POST', '/api/games', {})).status);
      expect(statuses.slice(0, 3)).toEqual([400, 400, 400]);
      expect(statuses[4]).toBe(429);
      expect((await limited.api('GET', '/api/games')).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
