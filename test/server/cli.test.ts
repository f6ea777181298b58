// `npm run --silent cli -- verify <history.json>` on a downloaded history.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../server/cli.ts';
import { run as verify } from '../../server/cli/verify.ts';
import { canonicalJson, sha256 } from '../../server/store/chain.ts';
import { highCard } from '../support/high-card.ts';
import { startTestServer } from '../support/server.ts';
import { capture } from '../support/verify.ts';

const dir = mkdtempSync(join(tmpdir(), 'pbem-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cli verify', () => {
  it('prints ok with the final state hash for a finished game, broken at <seq> for a tampered one', async () => {
    const srv = await startTestServer();
    try {
      const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
      await srv.playToEnd(g);
      const history = (await srv.api('GET', `/api/play/${g.seats[0]!.key}/history`)).body;
      const file = join(dir, 'history.json');
      writeFileSync(file, JSON.stringify(history));
      const game = await srv.service.open(g.gameId);
      const expected = sha256(canonicalJson(game.state));
      const ok = await capture(() => verify([file], [highCard]));
      expect(ok).toEqual({ code: 0, out: `ok ${history.log.length} ${expected}\n` });

      history.log[6].at = '2030-01-01T00:00:00.000Z';
      writeFileSync(file, JSON.stringify(history));
      const broken = await capture(() => verify([file], [highCard]));
      expect(broken.code).toBe(1);
      expect(broken.out).toBe('broken at 7: hash does not match the entry\n');

      // The dispatcher finds the command by name.
      const viaMain = await capture(() => main(['verify', join(dir, 'missing.json')]));
      expect(viaMain.code).toBe(1);
      expect(viaMain.out).toMatch(/^broken at 0: cannot read/);
      expect((await capture(() => main(['no-such-command']))).code).toBe(2);
    } finally {
      await srv.stop();
    }
  });
});
