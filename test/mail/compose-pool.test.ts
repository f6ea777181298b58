// Mails composed on worker threads (MAIL_COMPOSE_THREADS, server/mail/compose-pool.ts): the turn
// mail a worker composes from the game files is the one the event loop composes (same text, same
// Message-ID, the position the move made), and a worker that dies while composing neither loses
// nor doubles a mail.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinks } from '../../server/links.ts';
import { GameService } from '../../server/service.ts';
import { LowdbGameStore } from '../../server/store/lowdb-store.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';
import { fakeClock, makeService, TEST_SECRET, type TestService } from '../support/service.ts';
import { startTestMailer, type TestMailer } from '../support/mailer.ts';

const airlines = games.find((g) => g.id === 'airlines')!;

let t: TestService;
let m: TestMailer;

beforeEach(async () => {
  t = await makeService(games);
  m = await startTestMailer(t, { env: { MAIL_COMPOSE_THREADS: '1' } });
});
afterEach(async () => {
  await m.close();
  await t.cleanup();
});

async function newGame(): Promise<string> {
  const { gameId } = await t.service.create({
    rules: 'airlines',
    seats: 3,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
  });
  await t.service.join(gameId, { name: 'Bea', email: 'bea@example.test' });
  await t.service.join(gameId, { name: 'Cy', email: 'cy@example.test' });
  if ((await t.service.open(gameId)).doc.status === 'open') await t.service.start(gameId);
  return gameId;
}

/** Plays the first legal moves of the seat to act until another seat is asked (its turn mail is due). */
async function playTurn(gameId: string): Promise<void> {
  const first = await t.service.open(gameId);
  const mover = airlines.toAct(first.state)[0]!;
  for (;;) {
    const g = await t.service.open(gameId);
    const seat = airlines.toAct(g.state)[0]!;
    if (seat !== mover) return;
    await t.service.move(gameId, seat, { seq: g.stateSeq, action: structuredClone(airlines.moves(g.state, seat)[0]) });
  }
}

describe('compose workers', () => {
  it('compose a turn mail as the event loop does, at the position the move made', async () => {
    expect(m.mailer.composePool).not.toBeNull();
    const gameId = await newGame();
    await m.settle();
    for (let i = 0; i < 3; i++) await playTurn(gameId);
    await m.settle();
    const game = await t.service.open(gameId);
    const turns = m.smtp.received.filter((x) => /Your turn/.test(x.subject ?? ''));
    const last = turns[turns.length - 1]!;
    expect(last.subject).toContain(`(move ${game.stateSeq})`);
    // The same mail composed on the event loop: the same words and the same Message-ID.
    const seat = airlines.toAct(game.state)[0]!;
    const rec = game.doc.seats[seat]!;
    const key = `turn:${gameId}:${game.stateSeq}:${seat}:${rec.slot}.${rec.generation}`;
    const here = await m.mailer.composer.compose(
      { type: 'turn', gameId, seat, slot: rec.slot, generation: rec.generation, stateSeq: game.stateSeq },
      key,
    );
    expect(last.messageId).toBe(here!.messageId);
    expect(last.text?.trim()).toBe(here!.text.trim());
    expect(last.attachments.map((a) => a.cid).sort()).toEqual(['board', 'closeup']);
  });

  it('lose no mail and double none when a worker dies while composing', async () => {
    const gameId = await newGame();
    await m.settle();
    const before = m.smtp.messageIds.length;
    const pool = m.mailer.composePool!;
    const composing = async () => {
      while (pool.composing === 0) await new Promise((r) => setTimeout(r, 1));
    };
    // The worker is ended while it composes the move's mail; a fresh one composes it again.
    const next = playTurn(gameId);
    await composing();
    await pool.restartWorkers();
    await next;
    await m.settle();
    // Ended twice while composing one mail: compose fails, and the queue tries it again later.
    const again = playTurn(gameId);
    await composing();
    await pool.restartWorkers();
    await composing();
    await pool.restartWorkers();
    await again;
    await m.settle();
    const ids = m.smtp.messageIds.slice(before);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids).size).toBe(ids.length);
    expect(m.mailer.queue.stats()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('read the game files while the journal is compacted into them', async () => {
    // A journal compacted every few lines: the worker reads entries from the log file and the
    // rest from what the main thread captured, while compactions append to that file.
    const dir = mkdtempSync(join(tmpdir(), 'pbem-compose-'));
    const store = new LowdbGameStore({ dataDir: dir, compactAfter: 2 });
    const service = new GameService({ store, registry: games, links: createLinks(TEST_SECRET, 'http://example.test') });
    await service.init();
    const other: TestService = { ...t, service, store, dataDir: dir, clock: fakeClock() };
    const mm = await startTestMailer(other, { env: { MAIL_COMPOSE_THREADS: '1' } });
    const saved = t;
    t = other;
    try {
      const gameId = await newGame();
      for (let i = 0; i < 6; i++) {
        await playTurn(gameId);
        await mm.settle();
      }
      const game = await service.open(gameId);
      const turns = mm.smtp.received.filter((x) => /Your turn/.test(x.subject ?? ''));
      expect(turns.length).toBeGreaterThanOrEqual(6);
      expect(turns[turns.length - 1]!.subject).toContain(`(move ${game.stateSeq})`);
      expect(new Set(mm.smtp.messageIds).size).toBe(mm.smtp.messageIds.length);
      expect(mm.mailer.queue.stats()).toMatchObject({ pending: 0, failed: 0 });
      // Compactions did write the game's log file the worker read.
      expect(readFileSync(join(dir, 'games', `${gameId}.jsonl`), 'utf8').split('\n').length).toBeGreaterThan(5);
    } finally {
      t = saved;
      await mm.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePg('compose workers on PostgreSQL', () => {
  it('read the games through their own connections, at least as far as the job claimed', async () => {
    const schema = newSchema();
    const store = new PgGameStore({ url: pgUrl(), schema });
    const service = new GameService({ store, registry: games, links: createLinks(TEST_SECRET, 'http://example.test') });
    await service.init();
    const other: TestService = { ...t, service, clock: fakeClock() };
    const mm = await startTestMailer(other, { env: { MAIL_COMPOSE_THREADS: '1' } });
    const saved = t;
    t = other;
    try {
      const gameId = await newGame();
      for (let i = 0; i < 4; i++) {
        await playTurn(gameId);
        await mm.settle();
      }
      const game = await service.open(gameId);
      const turns = mm.smtp.received.filter((x) => /Your turn/.test(x.subject ?? ''));
      expect(turns.length).toBeGreaterThanOrEqual(4);
      expect(turns[turns.length - 1]!.subject).toContain(`(move ${game.stateSeq})`);
      expect(turns[turns.length - 1]!.attachments.map((a) => a.cid).sort()).toEqual(['board', 'closeup']);
      expect(new Set(mm.smtp.messageIds).size).toBe(mm.smtp.messageIds.length);
    } finally {
      t = saved;
      await mm.close();
      await store.close();
      await dropSchema(schema);
    }
  });
});
