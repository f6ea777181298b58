// The build's compile step (`tsc -p tsconfig.build.json`, what `npm run build` runs
// before bundling the pages' scripts, which the suite's global set-up already
// did; here with --noCheck, in a quarter of the time: with isolatedModules the output
// is the same byte for byte, and `npm run typecheck` checks the types of these files), then the built server run with plain node as `npm start` runs it: the
// games' JSON data and the templates must be found without tsx or the source
// tree's .ts files, and the configured BASE_URL must reach the links.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { root, runMain } from '../support/main-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pbem-build-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the build', () => {
  it('builds to dist/ and serves a game with plain node', async () => {
    await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck'],
      {
        cwd: root,
      },
    );
    const server = runMain(
      { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', BASE_URL: 'https://games.example.test/' },
      'build',
    );
    const url = await server.listening;
    try {
      // 1830 reads its board and market from JSON files next to the built code.
      const created = await fetch(`${url}/api/games`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rules: '1830', seats: 3, name: 'Ada', email: 'ada@example.test' }),
      });
      expect(created.status).toBe(201);
      const game = (await created.json()) as { adminUrl: string; playUrl: string };
      expect(game.adminUrl).toMatch(/^https:\/\/games\.example\.test\/admin\//);
      // The page comes from the handlebars templates the build carries.
      const page = await fetch(game.playUrl.replace('https://games.example.test', url));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('1830');
      // Worker threads start from the built JavaScript (no TypeScript ships): an 18xx.games
      // export is read on the import worker, and the turn mail's picture drawn on a picture worker.
      const exp = JSON.parse(
        readFileSync(join(root, 'test/fixtures/18xx.games/1830/1830_game_end_bank.json'), 'utf8'),
      ) as { players: unknown[]; actions: unknown[] };
      const imported = await fetch(`${url}/api/import/18xx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          export: { ...exp, actions: exp.actions.slice(0, 120) },
          emails: exp.players.map((_, i) => `p${i + 1}@example.test`),
        }),
      });
      expect(imported.status, await imported.clone().text()).toBe(201);
      const outbox = join(dataDir, 'outbox');
      let withPicture = false;
      for (let i = 0; i < 300 && !withPicture; i++) {
        await new Promise((r) => setTimeout(r, 100));
        withPicture =
          existsSync(outbox) &&
          readdirSync(outbox)
            .filter((f) => f.endsWith('.eml'))
            .some((f) => readFileSync(join(outbox, f), 'utf8').includes('board.png'));
      }
      expect(withPicture).toBe(true);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect((await server.exited).code).toBe(0);
  }, 240_000);
});
