// Pieces the page routes and the JSON API share.
import type { Request } from 'express';
import { RuleError } from '../../rules/types.ts';
import { ServiceError } from '../errors.ts';
import type { GameService, LoadedGame } from '../service.ts';
import { firstIssue } from './schemas.ts';
import { legalMove } from '../game-reading.ts';
import { checkNesting } from '../strict-body.ts';
import type { z } from 'zod';

/** Parses a body with a schema; a bad one is a 400 with the first problem in words. */
export function parseBody<S extends z.ZodTypeAny>(schema: S, req: Request): z.infer<S> {
  const result = schema.safeParse(req.body ?? {});
  if (!result.success) throw new ServiceError(400, firstIssue(result.error));
  return result.data;
}

/** The action a move request means: a text command, action JSON, or the n-th listed move. */
export function actionFromBody(
  _service: GameService,
  game: LoadedGame,
  seat: number,
  body: { action?: unknown; command?: string; n?: number },
): unknown {
  if (typeof body.command === 'string' && body.command.trim() !== '') {
    if (!game.rules.parse)
      throw new ServiceError(400, 'This game takes no typed commands; use the buttons or the action field.');
    if (game.state === null) throw new ServiceError(409, 'The game has not started yet.');
    try {
      return game.rules.parse(body.command, game.state, seat);
    } catch (err) {
      if (err instanceof RuleError) throw new ServiceError(400, err.message);
      throw new ServiceError(400, 'That command could not be read.');
    }
  }
  if (typeof body.action === 'string' && body.action.trim() !== '') {
    checkNesting(body.action);
    try {
      return JSON.parse(body.action);
    } catch {
      throw new ServiceError(400, 'The action is not valid JSON.');
    }
  }
  if (body.action !== undefined && body.action !== null && typeof body.action === 'object') return body.action;
  if (body.n !== undefined) {
    const canMove = game.doc.status === 'active' && game.state !== null && game.rules.toAct(game.state).includes(seat);
    const m = canMove ? legalMove(game, seat, body.n) : undefined;
    if (m === undefined)
      throw new ServiceError(409, canMove ? 'That move is no longer on offer.' : 'It is not your turn.');
    return m;
  }
  throw new ServiceError(400, 'Choose a move first.');
}

export function playersOf(game: LoadedGame): { seat: number; name: string }[] {
  return game.doc.seats.map((s, seat) => ({ seat, name: s.name }));
}

/** history.txt: one numbered line per entry, in plain words. */
export function historyText(service: GameService, game: LoadedGame): string {
  const d = game.doc;
  const over = d.status === 'finished' || d.status === 'abandoned';
  const head = [
    `${d.title} (${d.rules}), game ${d.id}`,
    `Players: ${d.seats.map((s, i) => `${i + 1}. ${s.name}`).join(', ') || 'none yet'}`,
    `Seed hash: ${d.seedHash}${over ? `\nSeed: ${d.seed}` : ''}`,
    '',
  ];
  const lines = service
    .historyLines(game)
    .map((l) => `${l.seq}. ${l.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}  ${l.text}`);
  return `${head.concat(lines).join('\n')}\n`;
}
