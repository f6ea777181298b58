// Snapshots: a cold open and a step page replay at most SNAPSHOT_EVERY entries; a snapshot
// that does not hold up is passed over (it is only a cache), and a game without any opens.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { game1830 } from '../../rules/1830/index.ts';
import { importExport } from '../../rules/1830/import/replay.ts';
import type { AnyRules } from '../../rules/types.ts';
import { replayTo, SNAPSHOT_EVERY, snapshotOf } from '../../server/replay.ts';
import { hashState } from '../../server/state-hash.ts';
import { highCard } from '../support/high-card.ts';
import { realGame } from '../rules/1830/positions.ts';
import { makeService, type TestService } from '../support/service.ts';

let applied = 0;
/** 1830 as it is, counting the actions it applies. */
const counting: AnyRules = {
  ...game1830,
  apply(state, seat, action) {
    applied++;
    game1830.apply(state, seat, action);
  },
};

let t: TestService | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

async function importedGame(): Promise<string> {
  t = await makeService([game1830]);
  const imp = importExport(realGame('29133'));
  const { gameId } = await t.service.importGame({
    rules: '1830',
    options: imp.options,
    creator: { name: 'Ada', email: 'a@example.test' },
    seats: imp.seats.map((_, i) => ({ name: `P${i + 1}`, email: `p${i + 1}@example.test` })),
    actions: imp.log.map(({ seat, action }) => ({ seat, action })),
  });
  return gameId;
}

describe('snapshots', () => {
  it('let a cold open and a step page replay at most SNAPSHOT_EVERY entries, to the same state', async () => {
    const gameId = await importedGame();
    const whole = (await t!.service.open(gameId)).doc;
    const full = replayTo(whole, game1830, whole.log.length).state;
    // The first open after a restart replays from the seed and keeps snapshots on the way.
    const first = await t!.reopen([counting]);
    applied = 0;
    expect(JSON.stringify((await first.open(gameId)).state)).toBe(JSON.stringify(full));
    expect(applied).toBeGreaterThan(300);
    await first.settled();
    expect(readdirSync(join(t!.dataDir, 'snapshots', gameId)).length).toBeGreaterThan(5);
    // From then on: at most SNAPSHOT_EVERY.
    const second = await t!.reopen([counting]);
    applied = 0;
    const game = await second.open(gameId);
    expect(JSON.stringify(game.state)).toBe(JSON.stringify(full));
    expect(game.attention).toBeNull();
    expect(applied).toBeLessThanOrEqual(SNAPSHOT_EVERY);
    applied = 0;
    const step = await second.stateAt(game, 200);
    expect(applied).toBeLessThanOrEqual(SNAPSHOT_EVERY);
    expect(JSON.stringify(step)).toBe(JSON.stringify(replayTo(whole, game1830, 200).state));
  });

  it('passes over a snapshot that does not hold up, and opens a game whose snapshots are gone', async () => {
    const gameId = await importedGame();
    const whole = (await t!.service.open(gameId)).doc;
    const full = JSON.stringify(replayTo(whole, game1830, whole.log.length).state);
    const first = await t!.reopen();
    await first.open(gameId);
    await first.settled();
    const dir = join(t!.dataDir, 'snapshots', gameId);
    const newest = readdirSync(dir)
      .map((f) => Number(f.replace('.json', '')))
      .sort((a, b) => b - a)[0]!;
    // Tampered: a different state under the old hash (a damaged file, or another server's rules).
    const snap = JSON.parse(readFileSync(join(dir, `${newest}.json`), 'utf8'));
    const state = JSON.parse(snap.state);
    state.bank += 1000;
    writeFileSync(join(dir, `${newest}.json`), JSON.stringify({ ...snap, state: JSON.stringify(state) }));
    const second = await t!.reopen();
    const game = await second.open(gameId);
    expect(game.attention).toBeNull();
    expect(JSON.stringify(game.state)).toBe(full);
    await second.settled();
    rmSync(join(t!.dataDir, 'snapshots'), { recursive: true, force: true });
    const third = await t!.reopen();
    expect(JSON.stringify((await third.open(gameId)).state)).toBe(full);
  });

  it('checks the older entries of a long game after a cold open: a damaged one is found and refused by name', async () => {
    const gameId = await importedGame();
    const first = await t!.reopen();
    await first.open(gameId);
    await first.settled();
    await t!.store.drain();
    await (first.store as { close(): Promise<void> }).close(); // the entries reach the game's log file
    const file = join(t!.dataDir, 'games', `${gameId}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[4] = JSON.stringify({ ...JSON.parse(lines[4]!), text: 'tampered' });
    writeFileSync(file, lines.join('\n'));
    const second = await t!.reopen();
    expect((await second.open(gameId)).attention).toBeNull(); // opened from the newest snapshot
    await second.settled();
    await expect(second.open(gameId)).rejects.toThrow(/damaged at entry 5 \(hash does not match the entry\)/);
  });

  /** A two-seat High Card game; `play(keep)` plays the next seat's first move (stakes, then cards), keeping a snapshot after it if asked. */
  async function highCardGame() {
    t = await makeService([highCard]);
    const svc = t.service;
    const { gameId } = await svc.create({
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'a@example.test',
      join: true,
    });
    await svc.join(gameId, { name: 'Bob', email: 'b@example.test' });
    const play = async (keep: boolean) => {
      const game = await svc.open(gameId);
      const seat = game.rules.toAct(game.state)[0]!;
      await svc.move(gameId, seat, { seq: game.stateSeq, action: svc.movesFor(game, seat)[0]!.action });
      const after = await svc.open(gameId);
      const e = after.doc.log.findLast((x) => x.kind === 'move')!;
      if (keep)
        await t!.store.saveSnapshot(
          gameId,
          snapshotOf(after.doc, e, after.state, hashState(after.doc.seed, after.state).hash),
        );
      return { seat, seq: e.seq };
    };
    return { svc, gameId, play };
  }

  /** High Card as it is, counting the actions it applies. */
  const counted: AnyRules = {
    ...highCard,
    apply(state, seat, action) {
      applied++;
      highCard.apply.call(this, state, seat, action);
    },
  };

  it('pass over a snapshot whose move was taken back for the one before it, at a cold open and a step page', async () => {
    const { svc, gameId, play } = await highCardGame();
    for (let i = 0; i < 3; i++) await play(i === 2); // two stakes and a card, kept
    await play(false);
    const last = await play(true);
    await svc.undo(gameId, last.seat, (await svc.open(gameId)).stateSeq);
    const whole = (await svc.open(gameId)).doc;
    const want = JSON.stringify(replayTo(whole, highCard, whole.log.length).state);
    // The newest snapshot is of the move taken back: the open starts from the one before it, a move earlier.
    const again = await t!.reopen([counted]);
    applied = 0;
    const game = await again.open(gameId);
    expect(JSON.stringify(game.state)).toBe(want);
    expect(game.attention).toBeNull();
    expect(applied).toBe(1);
    // Before the take-back, the newest snapshot holds.
    applied = 0;
    expect(JSON.stringify(await again.stateAt(game, whole.log.length - 1))).toBe(
      JSON.stringify(replayTo(whole, highCard, whole.log.length - 1).state),
    );
    expect(applied).toBe(0);
  });

  it('keep the snapshot before the last move, so the state before it (a take-back) needs no replay from the seed', async () => {
    const { gameId, play } = await highCardGame();
    for (let i = 0; i < 4; i++) await play(i >= 2); // two stakes, two cards: a snapshot after each card
    const again = await t!.reopen([counted]);
    applied = 0;
    const game = await again.open(gameId);
    expect(applied).toBe(0); // the newest snapshot is of the last move
    const seat = game.doc.log.findLast((e) => e.kind === 'move')!.seat!;
    expect(again.undoBlocker(game, seat)).toBeNull();
    expect(applied).toBe(0); // the state before it is the snapshot before
    await again.undo(gameId, seat, game.stateSeq);
    const whole = (await again.open(gameId)).doc;
    expect(JSON.stringify((await again.open(gameId)).state)).toBe(
      JSON.stringify(replayTo(whole, highCard, whole.log.length).state),
    );
  });
});
