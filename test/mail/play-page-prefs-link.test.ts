// Issue 3: preferences "from their page": the personal page links the seat's mail settings.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { highCard } from '../support/high-card.ts';
import { mailPlugin } from '../../server/mail/plugin.ts';

let srv: TestServer;

beforeEach(async () => {
  srv = await startTestServer({ registry: [highCard], plugins: [mailPlugin({ env: {}, cron: false })] });
});
afterEach(async () => {
  await srv.service.settled();
  await srv.stop();
});

describe('the personal page', () => {
  it('has a "Mail settings" link to that seat\'s mail preferences, which answers 200', async () => {
    const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob'] });
    for (const s of g.seats) {
      const html = await fetch(`${srv.url}/play/${s.key}`).then((r) => r.text());
      const m = /<a href="([^"]+)">Mail settings<\/a>/.exec(html);
      expect(m, html).not.toBeNull();
      expect(m![1]).toBe(`/mail/prefs/${s.key}`);
      const prefs = await fetch(srv.url + m![1]);
      expect(prefs.status).toBe(200);
      expect(await prefs.text()).toMatch(/every turn/i);
    }
  });
});
