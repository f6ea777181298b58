// A change no longer copies the game's log: the next document takes the log array over
// (server/shared-log.ts). These check, through the game service, that nobody can tell: a
// document held across changes keeps its log, a refused or failed change leaves the game as
// it was, the change made again after it follows the log as stored, and a restart has it all.
import { afterEach, describe, expect, it } from 'vitest';
import type { GameService, LoadedGame } from '../../server/service.ts';
import { checkChain } from '../../server/store/chain.ts';
import type { GameDoc } from '../../server/store/types.ts';
import { makeService, type TestService } from '../support/service.ts';

let t: TestService;
afterEach(async () => {
  await t?.cleanup();
});

async function runningGame(svc: GameService): Promise<string> {
  const { gameId } = await svc.create({
    rules: 'high-card',
    seats: 2,
    name: 'Ada',
    email: 'ada@example.test',
    join: true,
  });
  await svc.join(gameId, { name: 'Bob', email: 'bob@example.test' });
  return gameId;
}

/** The first legal move of the first seat to act. */
function firstMove(svc: GameService, game: LoadedGame) {
  const seat = svc.viewFor(game, null).toAct[0]!;
  return { seat, action: svc.movesFor(game, seat)[0]!.action };
}

async function playOne(svc: GameService, id: string): Promise<number> {
  const game = await svc.open(id);
  const { seat, action } = firstMove(svc, game);
  return (await svc.move(id, seat, { seq: game.stateSeq, action })).seq;
}

/** What a reader holding a document sees of it. */
const seen = (doc: GameDoc) => JSON.stringify(doc);

async function expectStoredAsHeld(id: string, game: LoadedGame) {
  const again = await (await t.reopen()).open(id);
  expect(checkChain(again.doc.log)).toBeNull();
  expect(JSON.stringify(again.doc.log)).toBe(JSON.stringify(game.doc.log));
  expect(JSON.stringify(again.state)).toBe(JSON.stringify(game.state));
}

describe('the log shared by a game’s documents', () => {
  it('a document held across changes keeps its log as it was, also while a change is being written', async () => {
    t = await makeService();
    const svc = t.service;
    const id = await runningGame(svc);
    const game = await svc.open(id);
    const held = game.doc;
    const length = held.log.length;
    const was = seen(held);
    // While the move's write waits for the disk, the game still shows the document it was made on.
    const append = t.store.append.bind(t.store);
    const during: string[] = [];
    t.store.append = (gameId, change) => {
      during.push(seen(game.doc));
      return append(gameId, change);
    };
    await playOne(svc, id);
    expect(during).toEqual([was]);
    t.store.append = append;
    // More changes of every kind: moves, notes, table talk, settings, a seat's private settings.
    const docs: { doc: GameDoc; was: string; length: number }[] = [{ doc: held, was, length }];
    for (let i = 0; i < 12; i++) {
      const g = await svc.open(id);
      docs.push({ doc: g.doc, was: seen(g.doc), length: g.doc.log.length });
      if (i % 4 === 0) await svc.appendNote(id, { kind: 'notice', text: `note ${i}` });
      else if (i % 4 === 1) await svc.say(id, 0, `hello ${i}`);
      else if (i % 4 === 2) await svc.setSeatPrefs(id, 1, { mail: 'digest' });
      else await playOne(svc, id);
    }
    for (const d of docs) {
      expect(d.doc.log).toHaveLength(d.length);
      expect(seen(d.doc)).toBe(d.was);
      expect({ ...d.doc }.log).toHaveLength(d.length);
      expect(structuredClone(d.doc).log).toHaveLength(d.length);
    }
    expect(game.doc.log.length).toBeGreaterThan(length + 8);
    await expectStoredAsHeld(id, game);
  });

  it('a refused move leaves the game as it was, and the next move is taken', async () => {
    t = await makeService();
    const svc = t.service;
    const id = await runningGame(svc);
    await playOne(svc, id);
    const game = await svc.open(id);
    const was = seen(game.doc);
    const { seat, action } = firstMove(svc, game);
    await expect(
      svc.move(id, seat, { seq: game.stateSeq, action: { type: 'play', card: 9999 } }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(svc.move(id, seat, { seq: game.stateSeq + 3, action })).rejects.toMatchObject({ status: 409 });
    expect(seen(game.doc)).toBe(was);
    const length = game.doc.log.length;
    const seq = (await svc.move(id, seat, { seq: game.stateSeq, action })).seq;
    expect(seq).toBe(length + 1);
    expect(game.doc.log.at(-1)!.seq).toBe(seq);
    await playOne(svc, id);
    await expectStoredAsHeld(id, game);
  });

  it('a move whose write fails leaves the game as it was; made again, it follows the log as stored', async () => {
    t = await makeService();
    const svc = t.service;
    const id = await runningGame(svc);
    await playOne(svc, id);
    const game = await svc.open(id);
    const held = game.doc;
    const was = seen(held);
    const length = held.log.length;
    const append = t.store.append.bind(t.store);
    t.store.append = () => Promise.reject(new Error('the disk is full'));
    const { seat, action } = firstMove(svc, game);
    await expect(svc.move(id, seat, { seq: game.stateSeq, action })).rejects.toThrow('the disk is full');
    expect(game.doc).toBe(held);
    t.store.append = append;
    // The same move decided again on the same document (nothing read in between): only its own entry follows.
    expect((await svc.move(id, seat, { seq: game.stateSeq, action })).seq).toBe(length + 1);
    expect(game.doc.log).toHaveLength(length + 1);
    expect(seen(held)).toBe(was);
    expect(checkChain(game.doc.log)).toBeNull();
    await playOne(svc, id);
    expect(game.doc.log).toHaveLength(length + 2);
    await expectStoredAsHeld(id, game);
  });

  it('a move taken back and played again; the document before the take-back keeps its log', async () => {
    t = await makeService();
    const svc = t.service;
    const id = await runningGame(svc);
    const game = await svc.open(id);
    // Both stakes, then the first card played (a card play can be taken back).
    for (let i = 0; i < 2; i++) await playOne(svc, id);
    const seat = svc.viewFor(game, null).toAct[0]!;
    const stateBefore = JSON.stringify(game.state);
    const play = svc.movesFor(game, seat).find((m) => (m.action as { type: string }).type === 'play')!;
    const moved = await svc.move(id, seat, { seq: game.stateSeq, action: play.action });
    const held = game.doc;
    const was = seen(held);
    expect(svc.undoBlocker(game, seat)).toBeNull();
    const undone = await svc.undo(id, seat, game.stateSeq);
    expect(undone.seq).toBe(moved.seq + 1);
    expect(game.doc.log.at(-1)).toMatchObject({ kind: 'undo', data: { undoes: moved.seq } });
    expect(JSON.stringify(game.state)).toBe(stateBefore);
    expect(seen(held)).toBe(was);
    await svc.move(id, seat, { seq: game.stateSeq, action: play.action });
    await playOne(svc, id);
    await expectStoredAsHeld(id, game);
  });
});
