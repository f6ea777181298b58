// The turn mail shows a close-up of what changed on the board since the player's last turn (cid:closeup,
// above the whole board), drawn from the player's own view then and now; the first turn mail has none.
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
  it("shows what changed since the player's last turn, and nothing on a first turn", async () => {
    const game = await srv.createGame({ rules: 'stephensons-rocket', players: ['Ada', 'Bob', 'Cy'] });
    const first = await turnMails();
    expect(first.length).toBeGreaterThan(0);
    for (const m of first) expect(m.eml).not.toContain('cid:closeup');
    await srv.playToEnd(game, { maxMoves: 4 });
    const later = (await turnMails()).filter((m) => !first.some((f) => f.id === m.id));
    const withCloseUp = later.filter((m) => m.eml.includes('cid:closeup'));
    expect(withCloseUp.length).toBeGreaterThan(0);
    for (const m of withCloseUp) {
      expect(m.eml).toMatch(/Content-ID: <closeup>/i);
      expect(m.eml).toMatch(/filename=.?changed\.png/);
      // The whole board still comes, after the close-up.
      expect(m.eml).toMatch(/Content-ID: <board>/i);
    }
  });
});
