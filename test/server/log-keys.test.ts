// Issue 13, item 6: no log line holds a link key. A game is played with mail
// on; then every keyed route is called with every key the server ever handed
// out (live and retired, from API answers and from the mails), and the whole
// log is searched for each key.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { mailPlugin } from '../../server/mail/plugin.ts';
import { keyedRoutes, sendKeyed } from '../support/routes.ts';
import { startTestServer } from '../support/server.ts';

describe('keys in the log', () => {
  it('no route writes a key to the log, whatever it is called with', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
    const srv = await startTestServer({ logger, plugins: [mailPlugin({ env: {}, cron: false })] });
    try {
      const keys = new Set<string>();
      const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
        const r = await srv.api(method, path, body);
        for (const m of JSON.stringify(r.body).matchAll(/"(?:\w*[kK]ey)":"([A-Za-z0-9_-]+)"/g)) keys.add(m[1]!);
        return r.body;
      };
      const c = await api('POST', '/api/games', {
        rules: 'high-card',
        seats: 3,
        name: 'Ada',
        email: 'ada@example.test',
        join: true,
        invite: ['bob@example.test'],
      });
      await api('POST', `/api/join/${c.inviteKey}`, { name: 'Bob', email: 'bob@example.test' });
      const re = await api('POST', `/api/admin/${c.adminKey}/reopen`, { seat: 1, email: 'cy@example.test' });
      await api('POST', `/api/join/${re.inviteKey}`, { name: 'Cy', email: 'cy@example.test' });
      await api('POST', `/api/join/${re.inviteKey}`, { name: 'Di', email: 'di@example.test' });
      const ada = await api('GET', `/api/play/${c.seatKey}`);
      await srv.service.settled();
      await srv.api('POST', `/api/play/${c.seatKey}/move`, { seq: ada.game.seq, n: 0 });
      await srv.service.settled();
      // Every key the mails carry, too.
      const outbox = join(srv.dataDir, 'outbox');
      for (const f of readdirSync(outbox).filter((x) => x.endsWith('.eml')))
        for (const m of readFileSync(join(outbox, f), 'utf8').matchAll(
          /\/(?:play|join|admin|watch|prefs|unsubscribe)\/([A-Za-z0-9_-]{16,64})/g,
        ))
          keys.add(m[1]!);
      expect(keys.size).toBeGreaterThanOrEqual(8);

      for (const key of keys) for (const r of keyedRoutes(key, ada.game.seq)) await sendKeyed(srv.url, r);
      // Odd requests too: bad bodies, unknown sub-paths, a query string with the key.
      for (const key of keys) {
        await fetch(`${srv.url}/play/${key}/nowhere?k=${key}`);
        await fetch(`${srv.url}/api/play/${key}/move`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"seq":',
        });
      }
      await srv.service.settled();

      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(keys.size * 10);
      expect([...keys].filter((k) => log.includes(k))).toEqual([]);
      expect(log).toContain('/mail/prefs/:key');
    } finally {
      await srv.stop();
    }
  });
});
