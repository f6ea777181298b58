// A snapshot holds the state of the entry it is kept under, also when a move sets off standing
// orders (or an auto-move does) and the write ends on another seat's programmed move: the
// snapshot is then of the write's last entry, not of the move that began it. A snapshot kept
// under the wrong entry fails its check and is passed over (a cache, never trusted), so the
// cost was a cold open replaying from an older snapshot or the seed; that is what this measures.
import { afterEach, describe, expect, it } from 'vitest';
import { RuleError, type Rules } from '../../rules/types.ts';
import { SNAPSHOT_EVERY } from '../../server/replay.ts';
import { makeService, type TestService } from '../support/service.ts';

interface Tally {
  n: number;
  turn: number;
}

let applied = 0;
/** Two seats take turns adding one, for ever; a seat may leave the order to always add. */
const tally: Rules<Tally, { type: 'add' }> = {
  id: 'tally',
  title: 'Tally',
  version: 1,
  players: { min: 2, max: 2 },
  setup: () => ({ n: 0, turn: 0 }),
  toAct: (s) => [s.turn],
  apply(s, seat, action) {
    if (seat !== s.turn) throw new RuleError('It is not your turn.');
    if ((action as { type?: string })?.type !== 'add') throw new RuleError('The only move is to add one.');
    applied++;
    s.n++;
    s.turn = 1 - s.turn;
  },
  moves: (s, seat) => (seat === s.turn ? [{ type: 'add' }] : []),
  view: (s, seat) => ({ seat, toAct: [s.turn], status: `${s.n} so far` }),
  outcome: () => null,
  describe: () => 'adds one',
  orders: {
    arm: () => ({ kind: 'always' }),
    decide: () => ({ play: { type: 'add' } }),
    describe: () => 'always adds one',
    offers: () => [{ kind: 'always' }],
  },
};

let t: TestService | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

describe('snapshots after standing orders', () => {
  it("are kept under the write's last entry, so a cold open replays at most SNAPSHOT_EVERY moves", async () => {
    t = await makeService([tally]);
    const svc = t.service;
    const { gameId } = await svc.create({
      rules: 'tally',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
      join: true,
    });
    await svc.join(gameId, { name: 'Bob', email: 'bob@example.test' });
    const first = await svc.open(gameId);
    const ada = first.doc.seats.findIndex((s) => s.name === 'Ada');
    const bob = 1 - ada;
    // Bob always adds: every move of Ada's is written with Bob's programmed move after it.
    if (first.state.turn === bob) await svc.move(gameId, bob, { seq: first.stateSeq, action: { type: 'add' } });
    await svc.leaveOrder(gameId, bob, { kind: 'always' });
    for (let i = 0; i < 2 * SNAPSHOT_EVERY; i++) {
      const g = await svc.open(gameId);
      expect(g.state.turn).toBe(ada);
      await svc.move(gameId, ada, { seq: g.stateSeq, action: { type: 'add' } });
    }
    const held = await svc.open(gameId);
    expect(held.state.n).toBeGreaterThan(4 * SNAPSHOT_EVERY - 5);
    await svc.settled();
    const cold = await t.reopen();
    applied = 0;
    const opened = await cold.open(gameId);
    expect(opened.state).toEqual(held.state);
    expect(applied).toBeLessThanOrEqual(SNAPSHOT_EVERY);
  });
});
