// Rules versions: a rule changed behind a version bump leaves old games exactly as they were
// played and gives new games the new rule; a rule changed without a bump is caught at replay,
// and the game "needs attention" in words while its history stays readable.
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyRules } from '../../rules/types.ts';
import { verifyHistory } from '../../server/verify.ts';
import { highCard, type HighCardState } from '../support/high-card.ts';
import { makeService, type TestService } from '../support/service.ts';

/** Version 2 of High Card deals every seat one card more from the deck; games of version 1 keep three. */
const highCardV2: AnyRules = {
  ...highCard,
  version: 2,
  setup(seats, seed, options, version = 2) {
    const s = highCard.setup(seats, seed, options) as HighCardState;
    if (version >= 2) for (const hand of s.hands) hand.push(s.deck.shift()!);
    return s;
  },
};

/** The same change made without a bump: every game, old or new, gets four cards. */
const highCardChangedInPlace: AnyRules = {
  ...highCard,
  setup(seats, seed, options) {
    const s = highCard.setup(seats, seed, options) as HighCardState;
    for (const hand of s.hands) hand.push(s.deck.shift()!);
    return s;
  },
};

let t: TestService | null = null;
afterEach(async () => {
  await t?.cleanup();
  t = null;
});

/** A started two-seat game of High Card with both stakes chosen and one card played. */
async function playedGame(svc: TestService['service']): Promise<string> {
  const { gameId } = await svc.create({
    rules: 'high-card',
    seats: 2,
    name: 'Ada',
    email: 'a@example.test',
    join: true,
  });
  await svc.join(gameId, { name: 'Bob', email: 'b@example.test' });
  for (let i = 0; i < 3; i++) {
    const game = await svc.open(gameId);
    const seat = game.rules.toAct(game.state)[0]!;
    await svc.move(gameId, seat, { seq: game.stateSeq, action: svc.movesFor(game, seat)[0]!.action });
  }
  return gameId;
}

describe('rules versions', () => {
  it('replays old games exactly under the new version and deals new games by the new rule', async () => {
    t = await makeService([highCard]);
    const old = await playedGame(t.service);
    const before = await t.service.open(old);
    const oldState = JSON.stringify(before.state);
    expect(before.doc.rulesVersion).toBe(1);
    expect(before.doc.log.every((e) => e.rulesVersion === 1)).toBe(true);

    const upgraded = await t.reopen([highCardV2]);
    const again = await upgraded.open(old);
    expect(again.attention).toBeNull();
    expect(JSON.stringify(again.state)).toBe(oldState);
    const cards = (s: HighCardState) => s.hands.map((h) => h.length).reduce((a, b) => a + b, 0);
    expect(cards(again.state as HighCardState)).toBe(6 - 3); // three cards each at the deal, two stakes, one card played
    // The old game plays on under its own version: hands of three, then fewer.
    const seat = again.rules.toAct(again.state)[0]!;
    await upgraded.move(old, seat, { seq: again.stateSeq, action: upgraded.movesFor(again, seat)[0]!.action });
    expect((await upgraded.open(old)).doc.log.at(-1)!.rulesVersion).toBe(1);

    const fresh = await playedGame(upgraded);
    const game = await upgraded.open(fresh);
    expect(game.doc.rulesVersion).toBe(2);
    expect(game.doc.log.at(-1)!.rulesVersion).toBe(2);
    expect(cards(game.state as HighCardState)).toBe(8 - 3); // four cards each at the deal
  });

  it('marks a game changed under it without a bump as needing attention: told in words, readable, nothing played', async () => {
    t = await makeService([highCard]);
    const gameId = await playedGame(t.service);
    const admin = await t.service.open(gameId);
    const changed = await t.reopen([highCardChangedInPlace]);
    const game = await changed.open(gameId);
    expect(game.state).toBeNull();
    expect(game.attention).toMatch(
      /set-up is no longer what it was when the game started \(High Card changed without a new rules version\)/,
    );
    expect((await changed.entry(gameId))!.attention).toBe(game.attention);
    // Readable: history lines and the download, which still verifies.
    expect(changed.historyLines(game)).toHaveLength(admin.doc.log.length);
    expect(verifyHistory(changed.historyDoc(game, 0), [highCard])).toMatchObject({ ok: true });
    // Nothing more is played, and reminders leave it alone.
    await expect(changed.move(gameId, 0, { seq: game.stateSeq, action: { type: 'draw' } })).rejects.toThrow(
      /needs attention and cannot go on for now: The game's set-up/,
    );
    expect(await changed.dueReminders(new Date('2030-01-01T00:00:00Z'))).toEqual([]);
    // With the rules put back, the game replays again and the mark goes.
    const fixed = await t.reopen([highCard]);
    expect((await fixed.open(gameId)).attention).toBeNull();
    expect((await fixed.entry(gameId))!.attention).toBeNull();
  });

  it('needs attention when a move no longer applies, and when the game is of a version this server lacks', async () => {
    t = await makeService([highCardV2]);
    const newer = await playedGame(t.service);
    const refusing: AnyRules = {
      ...highCard,
      apply(s, seat, action) {
        if ((action as { type: string }).type === 'play') throw new Error('no playing today');
        highCard.apply.call(this, s, seat, action);
      },
    };
    const older = await t.reopen([highCard]);
    expect((await older.open(newer)).attention).toMatch(
      /played under version 2 of the rules of High Card; this server has only version 1/,
    );
    const t2 = await makeService([highCard]);
    try {
      const gameId = await playedGame(t2.service);
      const withRefusal = await t2.reopen([refusing]);
      expect((await withRefusal.open(gameId)).attention).toMatch(
        /Move \d+ \(played .*\) no longer applies under this server's rules: no playing today/,
      );
    } finally {
      await t2.cleanup();
    }
  });
});
