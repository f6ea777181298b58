// What the suites that play whole games by replies share (test/mail/reply-games.test.ts,
// test/mail/reply-1830.test.ts): which mails ask a player to act, the mail clients the
// players take turns with, and the checks made once a game is over.
import type { ParsedMail } from 'mailparser';
import { expect } from 'vitest';
import type { ClientStyle } from './mail-client.ts';
import { addressOf } from './mail-client.ts';
import type { MailTestServer } from './mail-server.ts';

/** The clients the replies are written with, one after the other. */
export const STYLES: ClientStyle[] = ['gmail', 'outlook', 'apple', 'thunderbird', 'phone', 'inline'];

/** A turn mail, or the answer to a player's reply while the turn stays with them. */
export const asksToAct = (x: ParsedMail) =>
  /^Your turn/.test(x.subject ?? '') || (/^Re: /.test(x.subject ?? '') && /It is your turn\./.test(x.text ?? ''));

/**
 * The next mail to one of `emails` that asks to act, among those received after the first
 * `seen`, with the new `seen`; null when none comes within 2 s (the last reply ended the game,
 * or its mail is still on its way: the caller looks at the game and asks again).
 */
export async function nextAskingMail(
  m: MailTestServer,
  emails: string[],
  seen: number,
): Promise<{ mail: ParsedMail; seen: number } | null> {
  let mail: ParsedMail;
  try {
    mail = await m.smtp.waitForMail((x) => emails.includes(addressOf(x.to)) && asksToAct(x), 2_000, seen);
  } catch {
    return null;
  }
  return { mail, seen: m.smtp.received.indexOf(mail, seen) + 1 };
}

/** The addresses test/support/server.ts gives players of these names. */
export const emailsOf = (names: string[]) => names.map((n) => `${n.toLowerCase()}@example.test`);

/** Moves that stand: an undo takes one back. */
export const standingMoves = (log: { kind: string }[]) =>
  log.filter((e) => e.kind === 'move').length - log.filter((e) => e.kind === 'undo').length;

/**
 * Every seat got the game-over mail; the first reply was read; help (with this game's own
 * examples), history, board and undo were answered; and no move was made for a player.
 */
export async function checkOver(m: MailTestServer, gameId: string, emails: string[], replies: number) {
  const game = await m.srv.service.open(gameId);
  expect(game.doc.status, `after ${replies} replies`).toBe('finished');
  const over = await Promise.all(
    emails.map((e) => m.smtp.waitForMail((x) => addressOf(x.to) === e && /game over/.test(x.subject ?? ''), 30_000)),
  );
  expect(over).toHaveLength(emails.length);
  const answers = m.smtp.received.filter((x) => emails.includes(addressOf(x.to)) && /^Re: /.test(x.subject ?? ''));
  const first = answers[0]!;
  expect(first.text).toMatch(/Done:|Not done:/);
  expect(first.text).not.toContain('could not be read');
  const asked = answers.find((x) => /History \(the last \d+ entries\):/.test(x.text ?? ''));
  expect(asked?.text).toContain('Here is the board as it stands.');
  expect(asked?.text).toContain('say <words>');
  expect(asked?.text).toContain(game.rules.commandExamples![0]!);
  expect(
    answers.some((x) => (x.text ?? '').includes('You took back your last move.')),
    game.rules.id,
  ).toBe(true);
  // No move was made for a player (by the reminder job): all came in by mail.
  const moves = game.doc.log.filter((e) => e.kind === 'move');
  expect(moves.length).toBeGreaterThan(0);
  expect(moves.some((e) => e.data?.auto)).toBe(false);
  return game;
}
