// A game mail shows one position, and its Message-ID names that position (the seq a
// reply to it is judged at: inbound/desk.ts), also when a move comes in while the
// mail is being composed. The service changes a loaded game in place, and composing
// waits on the mail's pictures and its rendering: here a move is made while the
// board of a turn mail is being drawn.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MailComposer, seqOfMessageId } from '../../server/mail/compose.ts';
import { pixelComposer } from '../support/composer.ts';
import { highCard } from '../support/high-card.ts';
import { makeService, type TestService } from '../support/service.ts';

let t: TestService;
let composer: MailComposer;
/** Runs (once) while the next picture is being drawn. */
let whileDrawing: (() => Promise<void>) | null = null;

beforeAll(async () => {
  t = await makeService([highCard]);
  composer = pixelComposer(t, async () => {
    const during = whileDrawing;
    whileDrawing = null;
    await during?.();
  });
});
afterAll(() => t.cleanup());

it('a turn mail keeps the position it shows in its Message-ID when a move comes in while it is composed', async () => {
  const created = await t.service.create({
    rules: highCard.id,
    seats: 2,
    name: 'P0',
    email: 'p0@example.test',
    join: true,
  });
  await t.service.join(created.gameId, { name: 'P1', email: 'p1@example.test' });
  let game = await t.service.open(created.gameId);
  if (game.doc.status === 'open') await t.service.start(created.gameId);
  game = await t.service.open(created.gameId);
  const shown = game.stateSeq;
  const seat = highCard.toAct(game.state)[0]!;
  const rec = game.doc.seats[seat]!;
  whileDrawing = async () => {
    const action = structuredClone(highCard.moves(game.state, seat)[0]);
    await t.service.move(created.gameId, seat, { seq: shown, action });
  };
  const mail = await composer.compose(
    { type: 'turn', gameId: created.gameId, seat, slot: rec.slot, generation: rec.generation, stateSeq: shown },
    `turn:${created.gameId}:${seat}:${shown}`,
  );
  // The move was made meanwhile...
  expect(whileDrawing).toBeNull();
  expect((await t.service.open(created.gameId)).stateSeq).toBeGreaterThan(shown);
  // ...and the mail is the one of the position it shows, whose reply is judged there.
  expect(mail?.subject).toContain(`(move ${shown})`);
  expect(seqOfMessageId(mail!.messageId)).toBe(shown);
});
