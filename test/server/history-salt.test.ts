// history.json withholds other seats' actions while a game runs; each action entry carries a
// random salt (withheld with the action) so a low-entropy action cannot be found by hashing
// every candidate. The chain still verifies, old unsalted entries keep the old formula.
import { describe, expect, it } from 'vitest';
import { canonicalJson, entryHash, sha256 } from '../../server/store/chain.ts';
import type { LogEntry } from '../../server/store/types.ts';
import { highCard } from '../support/high-card.ts';
import { startTestServer } from '../support/server.ts';
import { verifyDoc } from '../support/verify.ts';

describe('salted action hashes in history.json', () => {
  it('withholds action and salt, resists guessing, verifies; publishes both at the end', async () => {
    const srv = await startTestServer();
    try {
      const g = await srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
      const s0 = await srv.state(g.seats[0]!.key);
      const stake = s0.moves.find((m) => (m.action as { type: string }).type === 'stake')!.action as {
        type: 'stake';
        card: number;
      };
      expect((await srv.move(g.seats[0]!.key, s0.game.seq, stake)).status).toBe(200);

      const other = (await srv.api('GET', `/api/play/${g.seats[1]!.key}/history`)).body as {
        log: LogEntry[];
        seed?: string;
      };
      expect(other.seed).toBeUndefined();
      const withheld = other.log.find((e) => e.kind === 'move' && e.seat === g.seats[0]!.seat)!;
      expect(withheld).toBeDefined();
      expect('action' in withheld).toBe(false);
      expect('salt' in withheld).toBe(false);
      expect(withheld.actionHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(other)).not.toContain(`"card":${stake.card}`);
      // hashing every candidate card finds nothing (the old, unsalted formula would find it)
      const candidates = Array.from({ length: 200 }, (_, c) => sha256(canonicalJson({ type: 'stake', card: c })));
      expect(candidates).not.toContain(withheld.actionHash);
      expect(sha256(canonicalJson(stake))).not.toBe(withheld.actionHash);
      const running = await verifyDoc(other, [highCard]);
      expect(running.code, running.out).toBe(0);
      expect(running.out).toMatch(/^ok /);

      // the mover's own copy has its action and salt, and the salt explains the hash
      const own = (await srv.api('GET', `/api/play/${g.seats[0]!.key}/history`)).body as { log: LogEntry[] };
      const mine = own.log.find((e) => e.seq === withheld.seq)!;
      expect(mine.action).toEqual(stake);
      expect(Buffer.from(mine.salt!, 'base64url').length).toBeGreaterThanOrEqual(16);
      expect(mine.salt).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(sha256(mine.salt! + canonicalJson(stake))).toBe(withheld.actionHash);

      await srv.playToEnd(g);
      const done = (await srv.api('GET', `/api/play/${g.seats[1]!.key}/history`)).body as {
        log: LogEntry[];
        seed?: string;
      };
      expect(typeof done.seed).toBe('string');
      const moves = done.log.filter((e) => e.kind === 'move');
      expect(moves.length).toBeGreaterThan(3);
      const salts = new Set<string>();
      for (const e of moves) {
        expect(e.action).toBeDefined();
        expect(Buffer.from(e.salt!, 'base64url').length).toBeGreaterThanOrEqual(16);
        salts.add(e.salt!);
      }
      expect(salts.size).toBe(moves.length);
      const finished = await verifyDoc(done, [highCard]);
      expect(finished.code, finished.out).toBe(0);
      const game = await srv.service.open(g.gameId);
      expect(finished.out).toBe(`ok ${done.log.length} ${sha256(canonicalJson(game.state))}\n`);

      // a tampered salt breaks the chain
      const bad = structuredClone(done);
      const m = bad.log.find((e) => e.kind === 'move')!;
      m.salt = (m.salt![0] === 'A' ? 'B' : 'A') + m.salt!.slice(1);
      expect((await verifyDoc(bad, [highCard])).out).toBe(`broken at ${m.seq}: hash does not match the entry\n`);

      // an old history (entries sealed before salts) still verifies with the old formula
      const old = structuredClone(done);
      let prev = '';
      for (const e of old.log) {
        delete e.salt;
        e.prev = prev;
        e.hash = entryHash(e);
        prev = e.hash;
      }
      const oldOk = await verifyDoc(old, [highCard]);
      expect(oldOk.code, oldOk.out).toBe(0);
    } finally {
      await srv.stop();
    }
  });
});
