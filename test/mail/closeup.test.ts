// The turn mail opens with a close-up drawn for a phone (cid:closeup, above the whole board, both
// linking to the seat's page): what changed on the board since the player's last turn, drawn from
// the player's own view then and now, and the player's own holdings; a first turn has only the
// holdings. (test/mail/picture.test.ts measures its words; hidden.test.ts checks what it shows.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import type { Mailer } from '../../server/mail/index.ts';
import { mailPlugin } from '../../server/mail/plugin.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
let mailer: Mailer;
beforeAll(async () => {
  srv = await startTestServer({
    registry: games,
    plugins: [mailPlugin({ env: {}, cron: false, onReady: (p) => (mailer = p.mailer) })],
  });
});
afterAll(async () => {
  await srv?.stop();
});

/** Every turn mail in the outbox: to whom, its html copy, and its raw message. */
async function turnMails() {
  await srv.service.settled();
  await mailer.queue.idle();
  const dir = join(srv.dataDir, 'outbox');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string; to: string; subject: string; at: string },
    )
    .filter((m) => /turn/i.test(m.subject))
    .map((m) => ({
      ...m,
      eml: readFileSync(join(dir, `${m.id}.eml`), 'utf8'),
    }));
}

describe('the close-up in the turn mail', () => {
  it("comes first, links to the seat's page, and is in every turn mail", async () => {
    const game = await srv.createGame({ rules: 'stephensons-rocket', players: ['Ada', 'Bob', 'Cy'] });
    const first = await turnMails();
    expect(first.length).toBeGreaterThan(0);
    await srv.playToEnd(game, { maxMoves: 4 });
    const later = (await turnMails()).filter((m) => !first.some((f) => f.id === m.id));
    expect(later.length).toBeGreaterThan(0);
    for (const m of [...first, ...later]) {
      expect(m.eml).toMatch(/Content-ID: <closeup>/i);
      expect(m.eml).toMatch(/filename=.?changed\.png/);
      // The whole board still comes, after the close-up; both open the seat's page.
      expect(m.eml).toMatch(/Content-ID: <board>/i);
      const html = decodedHtml(m.eml);
      const close = html.indexOf('cid:closeup');
      expect(close).toBeGreaterThan(0);
      expect(close).toBeLessThan(html.indexOf('cid:board'));
      expect(html).toMatch(/<a href="http:[^"]*\/play\/[^"]+"[^>]*><img src="cid:closeup"[^>]*width="340"/);
      expect(html).toMatch(/<a href="http:[^"]*\/play\/[^"]+"[^>]*><img src="cid:board"/);
    }
  });
});

/** The HTML part of a raw message, its quoted-printable undone. */
function decodedHtml(eml: string): string {
  const part = /Content-Type: text\/html[^\n]*\n(?:[^\n]+\n)*?\r?\n([\s\S]*?)\r?\n--/i.exec(eml)?.[1] ?? '';
  return part
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}
