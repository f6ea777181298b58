// A whole game played only by following links found in received mail: the
// invitation, then each turn mail's quick links (GET the confirm page, submit
// its form by POST) or its personal-page link (submit a move button), until
// the game-over mail arrives. Mail goes through a real SMTP server on
// loopback and is parsed by mailparser. Also: preferences and RFC 8058
// one-click unsubscribe through the links in the mail.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import type { TestServer } from '../support/server.ts';
import type { Mailer } from '../../server/mail/index.ts';
import type { TestSmtp } from './smtp.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';

let smtp: TestSmtp;
let srv: TestServer;
let mailer: Mailer;
let m: MailTestServer;

beforeEach(async () => {
  m = await startMailServer();
  ({ smtp, srv, mailer } = m);
});
afterEach(() => m.stop());

const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';

function decode(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&#x60;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The attributes of one tag, in any order. */
function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of tag.matchAll(/([a-zA-Z-]+)\s*=\s*"([^"]*)"/g)) out[a[1]!.toLowerCase()] = decode(a[2]!);
  return out;
}

/** The fields of the first form in `html` whose action matches: hidden inputs and named buttons. */
function formFields(
  html: string,
  action: RegExp,
): { action: string; fields: Record<string, string>; buttons: { name: string; value: string; text: string }[] } | null {
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const f = attrs(m[1]!);
    if (!f.action || !action.test(f.action)) continue;
    const fields: Record<string, string> = {};
    for (const i of m[2]!.matchAll(/<input\b([^>]*)>/g)) {
      const a = attrs(i[1]!);
      if (a.type === 'hidden' && a.name) fields[a.name] = a.value ?? '';
    }
    const buttons = [...m[2]!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)]
      .map((b) => ({ a: attrs(b[1]!), text: b[2]! }))
      .filter((b) => b.a.name)
      .map((b) => ({ name: b.a.name!, value: b.a.value ?? '', text: b.text }));
    return { action: f.action, fields, buttons };
  }
  return null;
}

async function get(url: string): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}

async function post(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string }> {
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

const abs = (path: string) => new URL(path, srv.url).href;

describe('playing by mail', () => {
  it('plays a whole High Card game only through links in the mail, until the game-over mail', async () => {
    // Ada creates the game by the API and invites Bob by address.
    const created = await srv.api('POST', '/api/games', {
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
      invite: ['bob@example.test'],
    });
    expect(created.status).toBeLessThan(300);

    // Bob: the invitation mail, the join page, the join form.
    const invite = await smtp.waitForMail((m) => to(m) === 'bob@example.test' && /invites you/.test(m.subject ?? ''));
    const joinUrl = /(http:\/\/\S+\/join\/[A-Za-z0-9_-]+)/.exec(invite.text ?? '')![1]!;
    const joinPage = await get(joinUrl);
    expect(joinPage.status).toBe(200);
    const joinForm = formFields(joinPage.html, /\/join\//)!;
    const joined = await post(abs(joinForm.action), { ...joinForm.fields, name: 'Bob', email: 'bob@example.test' });
    expect(joined.status).toBe(303);

    // Now the game runs on turn mails alone.
    const handled = new Set<string>();
    let viaQuick = 0;
    let viaPage = 0;
    for (let turn = 0; turn < 200; turn++) {
      const over = smtp.received.filter((m) => /game over/.test(m.subject ?? ''));
      if (over.length === 2) break;
      const mail = await smtp.waitForMail(
        (m) =>
          (/^Your turn/.test(m.subject ?? '') && !handled.has(m.messageId!)) ||
          (/game over/.test(m.subject ?? '') && !handled.has(m.messageId!)),
      );
      handled.add(mail.messageId!);
      if (/game over/.test(mail.subject ?? '')) continue;
      const text = mail.text ?? '';
      const quick = [...text.matchAll(/(http:\/\/\S+\/m\/\d+\?seq=\d+)/g)].map((m) => m[1]!);
      const page = /Your page: (http:\/\/\S+)/.exec(text)![1]!;
      expect(quick.length).toBeGreaterThan(0);
      let landed: string;
      if (turn % 2 === 0) {
        // The quick link: a confirm page that spells the move out; GET changes nothing.
        const confirm = await get(quick[quick.length - 1]!);
        if (confirm.status === 409) continue; // the game moved on since this mail: wait for the next one
        expect(confirm.status).toBe(200);
        const f = formFields(confirm.html, /\/move$/)!;
        const r = await post(abs(f.action), f.fields);
        expect(r.status).toBe(303);
        landed = abs(r.location!);
        viaQuick++;
      } else {
        landed = page;
      }
      // The personal page (from the mail, or where the confirm form led us): while
      // it offers move buttons it is still this player's turn (several moves in a
      // row bring no new mail), so press the first one.
      for (let again = 0; again < 50; again++) {
        const p = await get(landed);
        expect(p.status).toBe(200);
        const f = formFields(p.html, /\/move$/);
        const b = f?.buttons[0];
        if (!f || !b) break;
        const r = await post(abs(f.action), { ...f.fields, [b.name]: b.value });
        expect(r.status).toBe(303);
        landed = abs(r.location!);
        viaPage++;
      }
    }
    const overMails = await smtp.waitFor(0).then(() => smtp.received.filter((m) => /game over/.test(m.subject ?? '')));
    expect(overMails.map(to).sort()).toEqual(['ada@example.test', 'bob@example.test']);
    expect(viaQuick).toBeGreaterThan(3);
    expect(viaPage).toBeGreaterThan(3);
    const g = await srv.service.open(created.body.gameId);
    expect(g.doc.status).toBe('finished');
    for (const [i, s] of g.doc.seats.entries())
      expect(overMails[0]!.text).toContain(`${s.name} ${g.doc.outcome!.scores[i]}`);
    // The history link in the game-over mail works.
    const history = /(http:\/\/\S+\/history\.txt)/.exec(overMails[0]!.text ?? '')![1]!;
    expect((await get(history)).status).toBe(200);
    // Nothing was delivered twice.
    expect(new Set(smtp.messageIds).size).toBe(smtp.messageIds.length);
  });

  it('sets preferences from the mail link and unsubscribes with one click (RFC 8058)', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    await srv.service.settled();
    await mailer.queue.idle();
    const first = await smtp.waitForMail((m) => to(m) === 'ada@example.test' && /^Your turn/.test(m.subject ?? ''));
    const prefsUrl = /Mail preferences: (http:\/\/\S+)/.exec(first.text ?? '')![1]!;
    const page = await get(prefsUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain('value="every" checked');
    const saved = await post(prefsUrl, { mail: 'reminders' });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain('value="reminders" checked');
    expect((await post(prefsUrl, { mail: 'sometimes' })).status).toBe(400);
    // A digest time must come from the lists.
    expect((await post(prefsUrl, { mail: 'digest', digestHour: '7', digestZone: 'Mars/Olympus_Mons' })).status).toBe(
      400,
    );
    expect((await post(prefsUrl, { mail: 'digest', digestHour: '24', digestZone: 'UTC' })).status).toBe(400);
    // Switching to the digest while the game waits for her puts this game in her next digest,
    // at the hour she chose on her own clock.
    const chosen = await post(prefsUrl, { mail: 'digest', digestHour: '7', digestZone: 'America/New_York' });
    expect(chosen.status).toBe(200);
    expect(chosen.html).toContain('at 07:00 America/New_York');
    expect(chosen.html).toContain('<option value="7" selected>07:00</option>');
    expect(chosen.html).toContain('<option selected>America/New_York</option>');
    const digest = mailer.queue.list().find((r) => r.spec?.type === 'digest' && r.spec.email === 'ada@example.test')!;
    expect(digest).toBeDefined();
    expect(digest.nextAttemptAt - Date.now()).toBeLessThanOrEqual(24 * 3600_000); // the hour itself: test/mail/digest.test.ts
    expect((await get(prefsUrl)).html).toContain('<option selected>America/New_York</option>'); // kept for her address
    expect((await post(prefsUrl, { mail: 'reminders' })).status).toBe(200);

    // One-click: the mail client POSTs List-Unsubscribe=One-Click to the List-Unsubscribe URL.
    const bobMail = await smtp.waitForMail((m) => to(m) === 'bob@example.test' && /^Your turn/.test(m.subject ?? ''));
    const line = bobMail.headerLines.find((h) => h.key === 'list-unsubscribe')!.line;
    const unsubscribeUrl = /<(http:[^>]+)>/.exec(line)![1]!;
    expect((await get(unsubscribeUrl)).status).toBe(200); // GET only shows a button
    const bob = g.seats.find((s) => s.name === 'Bob')!;
    let doc = (await srv.service.open(g.gameId)).doc;
    expect(doc.seats[bob.seat]!.prefs.mail ?? 'every').toBe('every');
    const r = await post(unsubscribeUrl, { 'List-Unsubscribe': 'One-Click' });
    expect(r.status).toBe(200);
    doc = (await srv.service.open(g.gameId)).doc;
    expect(doc.seats[bob.seat]!.prefs.mail).toBe('nothing');
    // Mail settings are private: nothing of them in the game's log or its history.
    expect(doc.log.filter((e) => e.kind === 'prefs')).toHaveLength(0);
    const history = await get(abs(`/play/${bob.key}/history.txt`));
    expect(history.html).not.toMatch(/mail settings/);
    expect((await get(abs('/mail/prefs/not-a-real-key-at-all'))).status).toBe(404);

    // With mail off, Bob gets nothing more, not even when it is his turn.
    const before = smtp.received.filter((m) => to(m) === 'bob@example.test').length;
    await srv.playToEnd(g);
    await srv.service.settled();
    await mailer.queue.idle();
    expect(smtp.received.filter((m) => to(m) === 'bob@example.test')).toHaveLength(before);
    // Ada chose reminders only: no turn mails after that, but the game-over mail.
    const adaAfter = smtp.received.filter((m) => to(m) === 'ada@example.test' && m.date! >= first.date!);
    expect(adaAfter.filter((m) => /^Your turn/.test(m.subject ?? ''))).toHaveLength(1);
    expect(adaAfter.filter((m) => /game over/.test(m.subject ?? ''))).toHaveLength(1);
  });
});
