// history.json writes players' names into describe texts that carry {seat:N}, as the pages do,
// and still verifies (the sealed text is kept for the hash).
import { describe, expect, it } from 'vitest';
import type { AnyRules } from '../../rules/types.ts';
import type { LogEntry } from '../../server/store/types.ts';
import { highCard } from '../support/high-card.ts';
import { startTestServer } from '../support/server.ts';
import { verifyDoc as verifyWith } from '../support/verify.ts';

// High Card whose history lines name the next seat, as real games do with {seat:N}
const named: AnyRules = {
  ...highCard,
  describe: (a, s, seat) => `${highCard.describe(a, s, seat)}, watched by {seat:${(seat + 1) % 3}}`,
};

const verifyDoc = async (doc: unknown) => (await verifyWith(doc, [named])).out;

describe('names in history.json', () => {
  it("writes each {seat:N} as the player name in entries' text, keeps the chain verifiable", async () => {
    const srv = await startTestServer({ registry: [named] });
    try {
      const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
      const s0 = await srv.state(g.seats[0]!.key);
      expect((await srv.move(g.seats[0]!.key, s0.game.seq, s0.moves[0]!.action)).status).toBe(200);
      const names = g.seats
        .slice()
        .sort((a, b) => a.seat - b.seat)
        .map((s) => s.name);
      const watcher = names[(g.seats[0]!.seat + 1) % 3]!;

      const running = (await srv.api('GET', `/api/play/${g.seats[1]!.key}/history`)).body as { log: LogEntry[] };
      const text = JSON.stringify(running.log.map((e) => e.text));
      expect(text).not.toContain('{seat:');
      const move = running.log.find((e) => e.kind === 'move')!;
      expect(move.text).toMatch(new RegExp(`, watched by ${watcher}$`));
      expect(move.sealedText).toMatch(/, watched by \{seat:\d\}$/);
      // the page shows the same words
      const page = await fetch(`${srv.url}/play/${g.seats[1]!.key}`).then((r) => r.text());
      expect(page).toContain(`watched by ${watcher}`);
      expect(await verifyDoc(running)).toMatch(/^ok /);

      // text changed to other names does not verify
      const forged = structuredClone(running);
      forged.log.find((e) => e.kind === 'move')!.text = move.text!.replace(watcher, 'Mallory');
      expect(await verifyDoc(forged)).toMatch(/^broken at \d+: the text is not the sealed text/);

      await srv.playToEnd(g);
      const done = (await srv.api('GET', `/api/watch/${g.spectatorKey}/history`)).body as { log: LogEntry[] };
      expect(JSON.stringify(done.log.map((e) => e.text))).not.toContain('{seat:');
      expect(await verifyDoc(done)).toMatch(/^ok \d+ [0-9a-f]{64}\n$/);
    } finally {
      await srv.stop();
    }
  });
});
