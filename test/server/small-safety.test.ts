// Issue 13, item 8: personal pages are not cached, temp files left by a kill
// are removed at start, and names that only look alike (invisible characters,
// look-alike letters, right-to-left overrides) are refused.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mailPlugin } from '../../server/mail/plugin.ts';
import { startTestServer } from '../support/server.ts';

describe('small things a public server must get right', () => {
  it('personal pages say Cache-Control: no-store', async () => {
    const srv = await startTestServer({ plugins: [mailPlugin({ env: {}, cron: false })] });
    try {
      const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
      const key = g.seats[0]!.key;
      for (const path of [
        `/play/${key}`,
        `/play/${key}/history.json`,
        `/play/${key}/step/1`,
        `/api/play/${key}`,
        `/admin/${g.adminKey}`,
        `/watch/${g.spectatorKey}`,
        `/mail/prefs/${key}`,
        `/mail/unsubscribe/${key}`,
      ]) {
        const res = await fetch(srv.url + path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('cache-control'), path).toBe('no-store');
      }
    } finally {
      await srv.stop();
    }
  });

  it('removes temp files an earlier kill left in the data folder, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pbem-tidy-'));
    const left = [
      '.index.json.0a1b2c3d4e5f.tmp',
      'mail/queue/.m1.json.00ff00ff00ff.tmp',
      'mail/sent/.m2.json.123456789abc.tmp',
      'outbox/.x.eml.abcdefabcdef.tmp',
      'index.json.tmp-999999999-3',
      // games/ is tidied by the store itself, in the background after it opens.
      'games/abcd1234.json.tmp-999999999-7',
    ];
    const kept = ['mail/queue/m3.json', 'outbox/x.eml', 'notes.tmp', 'games/notes.txt'];
    for (const f of [...left, ...kept]) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), f === 'mail/queue/m3.json' ? '{"records":[]}' : 'x');
    }
    const srv = await startTestServer({ dataDir: dir });
    try {
      const all = (d: string): string[] =>
        readdirSync(join(dir, d), { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? all(join(d, e.name)) : [join(d, e.name)],
        );
      let files = all('.');
      for (let i = 0; i < 200 && files.includes(join('.', left.at(-1)!)); i++) {
        await new Promise((r) => setTimeout(r, 10));
        files = all('.');
      }
      for (const f of left) expect(files).not.toContain(join('.', f));
      for (const f of kept) expect(files).toContain(join('.', f));
    } finally {
      await srv.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('normalises names and refuses invisible characters and look-alikes of a seated player', async () => {
    const srv = await startTestServer();
    try {
      const g = await srv.createGame({ rules: 'high-card', players: ['Ada'], seats: 4, start: false });
      let n = 0;
      const join = (name: string) =>
        srv.api('POST', `/api/join/${g.inviteKey}`, { name, email: `p${++n}@example.test` });
      for (const name of [
        'Bob\u200B',
        'B\u200Dob',
        'Bo\u202Eb',
        '\u2066Bob\u2069',
        'Bob\u0007',
        'Bo\u00ADb',
        '\u3164',
      ]) {
        const r = await join(name);
        expect(r.status, JSON.stringify(name)).toBe(400);
        expect(r.body.error).toMatch(/invisible|control|name/);
      }
      // Cyrillic А, fullwidth letters, Greek Α: all look like Ada.
      for (const name of ['\u0410da', '\uFF21\uFF44\uFF41', '\u0391da', 'ADA']) {
        const r = await join(name);
        expect(r.status, JSON.stringify(name)).toBe(409);
        expect(r.body.error).toMatch(/Ada/);
      }
      const ok = await join('Ｂｏｂ');
      expect(ok.status).toBe(201);
      expect((await srv.api('GET', `/api/play/${ok.body.seatKey}`)).body.name).toBe('Bob');
      const creator = await srv.api('POST', '/api/games', {
        rules: 'high-card',
        seats: 2,
        name: 'Eve\u202E',
        email: 'eve@example.test',
      });
      expect(creator.status).toBe(400);
    } finally {
      await srv.stop();
    }
  });
});
