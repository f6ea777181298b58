// Two processes on one PostgreSQL store (two services, two stores): a game one of them keeps in
// memory is caught up with the moves the other made by reading only those entries, and reaches
// exactly the position the other holds; an undo reads the game afresh. Skipped without PostgreSQL.
import { expect, it, vi } from 'vitest';
import { createLinks } from '../../server/links.ts';
import { GameService } from '../../server/service.ts';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { highCard } from '../support/high-card.ts';
import { fakeClock } from '../support/service.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

describePg('a game kept in memory, moved by another process', () => {
  it('catches up by reading only the missed entries, to the same position; an undo reads afresh', async () => {
    const schema = newSchema();
    const clock = fakeClock();
    const links = createLinks(Buffer.alloc(32, 3), 'http://example.test');
    const stores = [0, 1].map(() => new PgGameStore({ url: pgUrl(), schema }));
    const [a, b] = stores.map((store) => new GameService({ store, registry: [highCard], links, now: clock.now }));
    try {
      await a!.init();
      await b!.init();
      const { gameId } = await a!.create({
        rules: 'high-card',
        seats: 2,
        name: 'Ada',
        email: 'ada@example.test',
        join: true,
      });
      await a!.join(gameId, { name: 'Bob', email: 'bob@example.test' });
      const move = async (svc: GameService) => {
        const g = await svc.open(gameId);
        const seat = highCard.toAct(g.state!)[0]!;
        await svc.move(gameId, seat, { seq: g.stateSeq, action: highCard.moves(g.state!, seat)[0] });
        return seat;
      };
      await move(a!);
      const seen = (await b!.open(gameId)).doc.log.length;
      for (let i = 0; i < 3; i++) await move(a!);

      const reads = vi.spyOn(stores[1]!, 'readGame');
      const caught = await b!.open(gameId);
      const there = await a!.open(gameId);
      expect(reads.mock.calls.map((c) => [c[1], c[2]?.snapshot ?? false])).toEqual([[seen, false]]);
      expect(caught.doc.log).toEqual(there.doc.log);
      expect(caught.stateSeq).toBe(there.stateSeq);
      expect(caught.state).toEqual(there.state);
      expect(caught.doc.updatedAt).toBe(there.doc.updatedAt);

      // The caught-up game takes a move here, and the first process catches up with that in turn.
      await move(b!);
      expect((await a!.open(gameId)).state).toEqual((await b!.open(gameId)).state);

      // An undo elsewhere: the game is read afresh (its whole log and snapshot), to the same position.
      const seat = await move(a!);
      await b!.open(gameId);
      await a!.undo(gameId, seat, (await a!.open(gameId)).doc.log.length);
      reads.mockClear();
      const afterUndo = await b!.open(gameId);
      expect(reads.mock.calls.map((c) => c[1])).toEqual([afterUndo.doc.log.length - 1, 0]);
      expect(afterUndo.state).toEqual((await a!.open(gameId)).state);
      expect(afterUndo.stateSeq).toBe((await a!.open(gameId)).stateSeq);

      // A private change (mail settings: no log entry) is seen by the other process too.
      await a!.setSeatPrefs(gameId, 1, { mail: 'digest' });
      expect((await b!.open(gameId)).doc.seats[1]!.prefs).toMatchObject({ mail: 'digest' });
    } finally {
      for (const s of stores) await s.close();
      await dropSchema(schema);
    }
  });
});
