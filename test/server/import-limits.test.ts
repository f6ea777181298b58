// Issue 13, item 2: one client cannot stall everyone. The importer refuses
// cheaply first (a size cap that fits real exports, a nesting cap, a quota per
// client), reads the export in a worker thread within a time limit, and other
// requests are answered meanwhile. Step pages no longer play the whole game
// from the seed on every request.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { replayState } from '../../server/game-log.ts';
import { highCard } from '../support/high-card.ts';
import { startTestServer } from '../support/server.ts';

const text = readFileSync(new URL('../fixtures/18xx.games/1830/1830_game_end_bank.json', import.meta.url), 'utf8');
const full = JSON.parse(text) as { players: unknown[] };
const emails = full.players.map((_, i) => `p${i + 1}@example.test`);

async function post(url: string, body: string) {
  const res = await fetch(`${url}/api/import/18xx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error?: string; gameId?: string } };
}

describe('the importer under abuse', () => {
  it('refuses oversized and deeply nested bodies and a client over its quota, cheaply and in words', async () => {
    const srv = await startTestServer({ registry: games, importLimits: { perClientPerHour: 3 } });
    try {
      // The longest real export (about 120 kB) is taken...
      expect((await post(srv.url, JSON.stringify({ export: full, emails }))).status).toBe(201);
      // ...a body several times larger is not.
      const big = await post(srv.url, JSON.stringify({ export: { pad: 'x'.repeat(500_000) }, emails }));
      expect(big.status).toBe(413);
      expect(big.body.error).toMatch(/too large/);
      const deep = await post(srv.url, `{"emails":[],"export":{"a":${'['.repeat(200)}${']'.repeat(200)}}}`);
      expect(deep.status).toBe(400);
      expect(deep.body.error).toMatch(/levels deep/);
      const again = await post(srv.url, JSON.stringify({ export: full, emails }));
      expect(again.status).toBe(429);
      expect(again.body.error).toMatch(/this hour/);
    } finally {
      await srv.stop();
    }
  });

  it('reads the export off the event loop: other pages are answered while an import runs; a slow read is stopped', async () => {
    const srv = await startTestServer({ registry: games });
    try {
      // Pages keep being answered while the import is under way: asked one after
      // another until it answers, with no fixed sleep that a faster machine outruns.
      let done = false;
      const importing = post(srv.url, JSON.stringify({ export: full, emails })).finally(() => {
        done = true;
      });
      let pagesWhileImporting = 0;
      while (!done) {
        const home = await fetch(`${srv.url}/`);
        expect(home.status).toBe(200);
        await home.text();
        if (!done) pagesWhileImporting++;
      }
      expect((await importing).status).toBe(201);
      expect(pagesWhileImporting).toBeGreaterThan(0);
    } finally {
      await srv.stop();
    }
    // That the read does not hold the loop is decided here: the 1 ms time limit is a timer
    // on the server's event loop, and it can only fire before the read ends if the read
    // runs elsewhere (read on the loop, the import would come back 201).
    const slow = await startTestServer({ registry: games, importLimits: { timeLimitMs: 1 } });
    try {
      const r = await post(slow.url, JSON.stringify({ export: full, emails }));
      expect(r.status).toBe(422);
      expect(r.body.error).toMatch(/took longer/);
      expect(await slow.service.list()).toEqual([]);
    } finally {
      await slow.stop();
    }
  });
});

describe('step pages', () => {
  // How far a step page replays (at most SNAPSHOT_EVERY entries from a kept snapshot) is
  // decided in test/server/snapshots.test.ts on a long real game; here: the states are right,
  // across a take-back.
  it('show the same states as a replay, across a take-back', async () => {
    const srv = await startTestServer({ registry: [highCard] });
    try {
      const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
      const { final } = await srv.playToEnd(g, { maxMoves: 7 });
      const undoer = g.seats.find((s) => s.seat === final.view.toAct[0])!;
      // A take-back in the middle, so some later states drop a move.
      const before = await srv.state(undoer.key);
      await srv.move(undoer.key, before.game.seq, before.moves[0]!.action);
      await srv.api('POST', `/api/play/${undoer.key}/undo`, { seq: before.game.seq + 1 });
      await srv.playToEnd(g, { maxMoves: 3 });
      const game = await srv.service.open(g.gameId);
      const last = game.doc.log.length;
      for (let seq = 1; seq <= last; seq++) {
        const res = await fetch(`${srv.url}/watch/${g.spectatorKey}/step/${seq}`);
        expect(res.status).toBe(200);
      }
      for (let seq = last; seq >= 1; seq--)
        expect(await srv.service.stateAt(game, seq)).toEqual(replayState(game.doc, highCard, seq));
    } finally {
      await srv.stop();
    }
  });
});
