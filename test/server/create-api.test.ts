// POST /api/games refuses fields it does not know (a clear 400, nothing made) and honours the
// reminder policy given at the top level or as `policy`; reminder settings take fractional hours,
// on the API and on the admin page's form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.stop();
});

const base = { rules: 'high-card', seats: 2, name: 'Ada', email: 'ada@example.test' };

describe('POST /api/games', () => {
  it('refuses unknown fields in words, and makes nothing', async () => {
    const before = (await srv.service.list()).length;
    for (const body of [
      { ...base, remindAfterHour: 2 },
      { ...base, policy: { remindAfterHours: 2, nag: true } },
    ]) {
      const r = await srv.api('POST', '/api/games', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/^Unknown field/);
      expect(r.body.error).toMatch(/"remindAfterHour"|"nag"/);
    }
    expect((await srv.service.list()).length).toBe(before);
  });

  it('honours the policy fields, at the top level or as policy, with fractional hours', async () => {
    const top = await srv.api('POST', '/api/games', {
      ...base,
      remindAfterHours: 1.5,
      repeatHours: 0.25,
      onTimeout: 'autoMove',
    });
    expect(top.status).toBe(201);
    const a = await srv.api('GET', `/api/admin/${top.body.adminKey}`);
    expect(a.body.policy).toEqual({ remindAfterHours: 1.5, repeatHours: 0.25, maxReminders: 3, onTimeout: 'autoMove' });
    const nested = await srv.api('POST', '/api/games', { ...base, policy: { maxReminders: 1 } });
    expect(nested.status).toBe(201);
    const b = await srv.api('GET', `/api/admin/${nested.body.adminKey}`);
    expect(b.body.policy).toEqual({ remindAfterHours: 24, repeatHours: 24, maxReminders: 1, onTimeout: 'notify' });
    const bad = await srv.api('POST', '/api/games', { ...base, repeatHours: 0.01 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('The hours between reminders must be at least 0.1');
  });

  it("takes fractional hours on the admin page's form", async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    const page = await fetch(`${srv.url}/admin/${g.adminKey}`).then((r) => r.text());
    expect(page).toMatch(/name="remindAfterHours" min="0" step="any"/);
    const res = await fetch(`${srv.url}/admin/${g.adminKey}/policy`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'remindAfterHours=0.5&repeatHours=0.75&maxReminders=2&onTimeout=notify',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const a = await srv.api('GET', `/api/admin/${g.adminKey}`);
    expect(a.body.policy).toMatchObject({ remindAfterHours: 0.5, repeatHours: 0.75, maxReminders: 2 });
  });
});
