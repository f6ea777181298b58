import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkChain } from '../../server/store/chain.ts';
import type { GameService } from '../../server/service.ts';
import { makeService, type TestService } from '../support/service.ts';

let t: TestService;
afterEach(async () => {
  await t?.cleanup();
});

async function twoPlayerGame(svc: GameService, opts: { seats?: number } = {}) {
  const created = await svc.create({
    rules: 'high-card',
    seats: opts.seats ?? 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
  });
  const joined = await svc.join(created.gameId, { name: 'Bob', email: 'bob@example.test' });
  return { ...created, bobKey: joined.seatKey };
}

async function seatOf(svc: GameService, key: string): Promise<number> {
  const target = await svc.resolveKey(key);
  if (target?.role !== 'seat') throw new Error('not a seat key');
  return target.seat!;
}

describe('game service', () => {
  it('creates, joins, starts itself when full and plays a whole game; a restart replays it', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const game = await svc.open(g.gameId);
    expect(game.doc.status).toBe('active');
    expect(t.events.map((e) => e.type)).toEqual(['created', 'joined', 'joined', 'started']);
    const ada = await seatOf(svc, g.seatKey!);
    const bob = await seatOf(svc, g.bobKey);
    expect(new Set([ada, bob])).toEqual(new Set([0, 1]));
    let guard = 0;
    while (game.doc.status === 'active' && guard++ < 100) {
      const seat = svc.viewFor(game, null).toAct[0]!;
      const [first] = svc.movesFor(game, seat);
      await svc.move(g.gameId, seat, { seq: game.stateSeq, action: first!.action });
    }
    expect(game.doc.status).toBe('finished');
    expect(game.doc.outcome).not.toBeNull();
    expect(checkChain(game.doc.log)).toBeNull();
    expect(t.events.at(-1)!.type).toBe('finished');
    const again = await (await t.reopen()).open(g.gameId);
    expect(JSON.stringify(again.state)).toBe(JSON.stringify(game.state));
    expect(again.stateSeq).toBe(game.stateSeq);
  });

  it('lets go of the games used longest ago, and plays on in them as if it never had', async () => {
    t = await makeService(undefined, undefined, { maxOpenGames: 2 });
    const svc = t.service;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await twoPlayerGame(svc)).gameId);
    const playOne = async (id: string) => {
      const g = await svc.open(id);
      if (g.doc.status !== 'active') return;
      const seat = svc.viewFor(g, null).toAct[0]!;
      await svc.move(id, seat, { seq: g.stateSeq, action: svc.movesFor(g, seat)[0]!.action });
    };
    // in turn (each open lets another game go), then all at once (a game being changed is kept)
    for (let round = 0; round < 4; round++) for (const id of ids) await playOne(id);
    for (let round = 0; round < 4; round++) await Promise.all(ids.flatMap((id) => [playOne(id), svc.open(ids[0]!)]));
    const again = await t.reopen();
    for (const id of ids) {
      const kept = await svc.open(id);
      const read = await again.open(id);
      expect(kept.doc.log.length).toBe(read.doc.log.length);
      expect(JSON.stringify(kept.state)).toBe(JSON.stringify(read.state));
      expect(checkChain(kept.doc.log)).toBeNull();
    }
    // it does let go: after the others were opened, the first is read afresh
    const first = await svc.open(ids[0]!);
    for (const id of ids.slice(1)) await svc.open(id);
    expect(await svc.open(ids[0]!)).not.toBe(first);
  });

  it('refuses a stale seq, but takes a simultaneous choice made against an older seq', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const game = await svc.open(g.gameId);
    const seq = game.stateSeq;
    const hand0 = (svc.viewFor(game, 0).hand as number[])[0];
    const hand1 = (svc.viewFor(game, 1).hand as number[])[0];
    await svc.move(g.gameId, 0, { seq, action: { type: 'stake', card: hand0 } });
    // Seat 0 clicks twice: its own move since makes the old seq stale.
    await expect(svc.move(g.gameId, 0, { seq, action: { type: 'stake', card: hand0 } })).rejects.toThrow(/moved on/);
    // Seat 1 chose at the same time, against the same seq: taken.
    await svc.move(g.gameId, 1, { seq, action: { type: 'stake', card: hand1 } });
    // Now turn-based: a move against an old seq is refused.
    const turn = svc.viewFor(game, null).toAct[0]!;
    const mv = svc.movesFor(game, turn)[0]!;
    await expect(svc.move(g.gameId, turn, { seq, action: mv.action })).rejects.toThrow(/moved on/);
    await expect(svc.move(g.gameId, turn, { seq: game.stateSeq + 5, action: mv.action })).rejects.toThrow(
      /not reached/,
    );
  });

  it('refuses an illegal move with the rule message and leaves the game alone', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const game = await svc.open(g.gameId);
    const before = JSON.stringify(game.state);
    await expect(svc.move(g.gameId, 0, { seq: game.stateSeq, action: { type: 'stake', card: 999 } })).rejects.toThrow(
      'You do not hold the 999.',
    );
    await expect(svc.move(g.gameId, 0, { seq: game.stateSeq, action: 'nonsense' })).rejects.toThrow(
      /not a High Card move/,
    );
    expect(JSON.stringify(game.state)).toBe(before);
  });

  it('two submissions on one seq make exactly one move', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const game = await svc.open(g.gameId);
    for (const seat of [0, 1])
      await svc.move(g.gameId, seat, { seq: game.stateSeq, action: svc.movesFor(game, seat)[0]!.action });
    const turn = svc.viewFor(game, null).toAct[0]!;
    const moves = svc.movesFor(game, turn);
    const seq = game.stateSeq;
    const results = await Promise.allSettled([
      svc.move(g.gameId, turn, { seq, action: moves[0]!.action }),
      svc.move(g.gameId, turn, { seq, action: moves[1]!.action }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(game.doc.log.filter((e) => e.kind === 'move')).toHaveLength(3);
  });

  it('undo: own last move only, not after another seat acted, not a draw', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const game = await svc.open(g.gameId);
    const card0 = (svc.viewFor(game, 0).hand as number[])[0]!;
    await svc.move(g.gameId, 0, { seq: game.stateSeq, action: { type: 'stake', card: card0 } });
    expect(svc.undoBlocker(game, 1)).toMatch(/no move/);
    await svc.undo(g.gameId, 0, game.stateSeq);
    expect(svc.viewFor(game, 0).hand).toContain(card0);
    expect(game.doc.log.at(-1)!.kind).toBe('undo');
    for (const seat of [0, 1])
      await svc.move(g.gameId, seat, { seq: game.stateSeq, action: svc.movesFor(game, seat)[0]!.action });
    // Seat 1 staked last, but then it is seat 0's turn; seat 1 may still take back.
    const turn = svc.viewFor(game, null).toAct[0]!;
    const play = svc.movesFor(game, turn).find((m) => (m.action as { type: string }).type === 'play')!;
    await svc.move(g.gameId, turn, { seq: game.stateSeq, action: play.action });
    const other = 1 - turn;
    expect(svc.undoBlocker(game, other)).toMatch(/no move to take back|Somebody else/);
    const stale = game.stateSeq - 1;
    await expect(svc.undo(g.gameId, turn, stale)).rejects.toThrow(/moved on/);
    await svc.undo(g.gameId, turn, game.stateSeq);
    // A draw reveals a card: no take-back.
    const draw = svc.movesFor(game, turn).find((m) => (m.action as { type: string }).type === 'draw')!;
    await svc.move(g.gameId, turn, { seq: game.stateSeq, action: draw.action });
    expect(svc.undoBlocker(game, turn)).toMatch(/hidden information/);
    await expect(svc.undo(g.gameId, turn, game.stateSeq)).rejects.toThrow(/hidden information/);
    // And after a restart the undone moves stay undone.
    const again = await (await t.reopen()).open(g.gameId);
    expect(JSON.stringify(again.state)).toBe(JSON.stringify(game.state));
  });

  it('reopens a seat: the old key is retired and a newcomer plays on from that seat', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const bob = await seatOf(svc, g.bobKey);
    const { inviteKey } = await svc.reopenSeat(g.gameId, bob, { email: 'cy@example.test' });
    expect(await svc.resolveKey(g.bobKey)).toBeNull();
    expect(await svc.resolveKey(g.inviteKey)).toBeNull(); // the first invite is retired too
    expect(t.events.filter((e) => e.type === 'invited')).toHaveLength(1);
    const game = await svc.open(g.gameId);
    await expect(
      svc.move(g.gameId, 1 - bob, { seq: game.stateSeq, action: svc.movesFor(game, 1 - bob)[0]!.action }),
    ).rejects.toThrow(/seat is open/);
    const cy = await svc.join(g.gameId, { name: 'Cy', email: 'cy@example.test' });
    expect(await svc.resolveKey(inviteKey)).toBeNull();
    expect(cy.seat).toBe(bob);
    expect(await seatOf(svc, cy.seatKey)).toBe(bob);
    await svc.move(g.gameId, bob, { seq: game.stateSeq, action: svc.movesFor(game, bob)[0]!.action });
    const again = await t.reopen();
    expect(await again.resolveKey(g.bobKey)).toBeNull();
    expect((await again.resolveKey(cy.seatKey))?.seat).toBe(bob);
  });

  it('keeps the index: reminder time from the policy, due reminders without opening games', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const e = (await svc.entry(g.gameId))!;
    expect(e.status).toBe('active');
    expect(e.nextReminderAt).toBe('2026-01-02T12:00:00.000Z');
    expect(await svc.dueReminders()).toHaveLength(0);
    t.clock.advanceHours(25);
    expect((await svc.dueReminders()).map((x) => x.id)).toEqual([g.gameId]);
    await svc.appendNote(g.gameId, { kind: 'reminder', seat: 0, text: 'Reminder sent to Ada' });
    expect((await svc.entry(g.gameId))!.nextReminderAt).toBe('2026-01-03T12:00:00.000Z');
    await svc.setPolicy(g.gameId, { remindAfterHours: 0, repeatHours: 24, maxReminders: 3, onTimeout: 'notify' });
    expect((await svc.entry(g.gameId))!.nextReminderAt).toBeNull();
    const after = await t.reopen();
    expect((await after.entry(g.gameId))!.nextReminderAt).toBeNull();
    expect((await after.listGames({})).total).toBe(1);
  });

  it('starts, lists, resolves keys and finds due reminders without reading a game file', async () => {
    t = await makeService();
    const ids: string[] = [];
    const adminKeys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const g = await twoPlayerGame(t.service);
      ids.push(g.gameId);
      adminKeys.push(g.adminKey);
    }
    const svc = await t.reopen();
    const store = svc.store;
    const loads: string[] = [];
    const readMeta = store.readMeta.bind(store);
    store.readMeta = (id: string) => {
      loads.push(id);
      return readMeta(id);
    };
    expect((await svc.listPublic()).running).toHaveLength(5);
    expect(await svc.dueReminders(new Date('2030-01-01T00:00:00Z'))).toHaveLength(5);
    expect((await svc.resolveKey(adminKeys[0]!))?.gameId).toBe(ids[0]);
    expect(loads).toEqual([]);
    await svc.open(ids[2]!);
    expect(loads).toEqual([ids[2]]);
  });

  it('plays an autoMove as a logged move', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const r = await svc.playAutoMove(g.gameId, 0);
    expect(r).not.toBeNull();
    const game = await svc.open(g.gameId);
    expect(game.doc.log.at(-1)!.data?.auto).toBe(true);
    expect(t.events.at(-1)).toMatchObject({ type: 'moved', auto: true, seat: 0 });
  });

  it('withholds other seats actions in a running game history and publishes the seed at the end', async () => {
    t = await makeService();
    const svc = t.service;
    const g = await twoPlayerGame(svc);
    const game = await svc.open(g.gameId);
    const stake = (svc.viewFor(game, 0).hand as number[])[0]!;
    await svc.move(g.gameId, 0, { seq: game.stateSeq, action: { type: 'stake', card: stake } });
    const forOne = svc.historyDoc(game, 1) as { log: { action?: unknown; actionHash?: string }[]; seed?: string };
    expect(JSON.stringify(forOne)).not.toContain(`"card":${stake}`);
    expect(forOne.seed).toBeUndefined();
    expect(checkChain(forOne.log as never)).toBeNull();
    const forZero = svc.historyDoc(game, 0) as { log: { action?: unknown }[] };
    expect(JSON.stringify(forZero)).toContain(`"card":${stake}`);
  });

  it('reports a damaged game file by name and keeps serving the others', async () => {
    t = await makeService();
    const svc = t.service;
    const a = await twoPlayerGame(svc);
    const b = await twoPlayerGame(svc);
    // Game files are written from the store's journal at compaction and on close.
    await t.store.close();
    const file = join(t.dataDir, 'games', `${a.gameId}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = JSON.stringify({ ...JSON.parse(lines[1]!), text: 'tampered' });
    writeFileSync(file, lines.join('\n'));
    const fresh = await t.reopen();
    await expect(fresh.open(a.gameId)).rejects.toThrow(/damaged at entry 2 \(hash does not match/);
    expect((await fresh.open(b.gameId)).doc.status).toBe('active');
  });
});
