// Issue 13, item 7: every body is read strictly. Numbers are numbers (or a
// form's digits), never [] / "" / true / [[[]]] taken as 0; JSON nested
// deeper than any real request is refused; every refusal is a 400 in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestGame, type TestServer } from '../support/server.ts';

let srv: TestServer;
let g: TestGame;
beforeAll(async () => {
  srv = await startTestServer();
  g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
});
afterAll(async () => {
  await srv?.stop();
});

const NOT_NUMBERS: unknown[] = [[], '', true, [[[]]], {}, null, '1e3', '0x1', ' ', [0]];
const deep = (n: number, inner: string) => '['.repeat(n) + inner + ']'.repeat(n);

async function raw(path: string, body: string): Promise<{ status: number; body: any }> {
  const res = await fetch(srv.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: await res.json() };
}

describe('strict request bodies', () => {
  it('refuses a seat that is not a number, and reopens nothing', async () => {
    const before = (await srv.api('GET', `/api/admin/${g.adminKey}`)).body.lastSeq;
    for (const seat of NOT_NUMBERS) {
      const r = await srv.api('POST', `/api/admin/${g.adminKey}/reopen`, { seat });
      expect(r.status, JSON.stringify(seat)).toBe(400);
      expect(r.body.error).toMatch(/seat/i);
    }
    expect((await srv.api('GET', `/api/admin/${g.adminKey}`)).body.lastSeq).toBe(before);
  });

  it('refuses a seq, n or policy field that is not a number, with the field named', async () => {
    const key = g.seats[0]!.key;
    for (const v of NOT_NUMBERS) {
      const m = await srv.api('POST', `/api/play/${key}/move`, { seq: v, n: 0 });
      expect(m.status, JSON.stringify(v)).toBe(400);
      expect(m.body.error).toMatch(/seq/);
      const n = await srv.api('POST', `/api/play/${key}/move`, { seq: 0, n: v });
      if (v !== null) expect(n.status, JSON.stringify(v)).toBe(400);
      const p = await srv.api('POST', `/api/admin/${g.adminKey}/policy`, {
        remindAfterHours: v,
        repeatHours: 24,
        maxReminders: 3,
        onTimeout: 'notify',
      });
      expect(p.status, JSON.stringify(v)).toBe(400);
      expect(p.body.error).toMatch(/hours/);
      const c = await srv.api('POST', '/api/games', {
        rules: 'high-card',
        seats: v,
        name: 'Z',
        email: 'z@example.test',
      });
      expect(c.status, JSON.stringify(v)).toBe(400);
      expect(c.body.error).toMatch(/seats/);
    }
  });

  it('refuses deeply nested JSON with a 400, in a number field and in an action', async () => {
    const key = g.seats[0]!.key;
    const seq = (await srv.state(key)).game.seq;
    for (const body of [
      `{"seq":${deep(5000, '')}}`,
      `{"seq":${seq},"action":${deep(5000, '1')}}`,
      `{"seq":${seq},"action":{"a":${deep(40, '{}')}}}`,
    ]) {
      const r = await raw(`/api/play/${key}/move`, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/deep|seq/);
    }
    const reopen = await raw(`/api/admin/${g.adminKey}/reopen`, `{"seat":${deep(3000, '')}}`);
    expect(reopen.status).toBe(400);
    // A form's action field is JSON text: the same cap.
    const form = await srv.postMoveForm(key, { seq: String(seq), action: deep(100, '1') });
    expect(form.status).toBe(400);
    expect(form.text).toContain('levels deep');
  });

  it('still takes numbers as forms send them', async () => {
    const key = g.seats[0]!.key;
    const seq = (await srv.state(key)).game.seq;
    const r = await srv.postMoveForm(key, { seq: ` ${seq} `, n: '0' });
    expect(r.status).toBe(303);
  });
});
