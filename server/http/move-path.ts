// The move routes' lean path. A player's move (POST /api/play/:key/move, /api/v1/play/:key/move,
// and the play page's form, POST /play/:key/move) is most of what the server is asked to do.
// Through express it walked every middleware and route mounted before it (the import's routes,
// the creation quotas, the static files, a dozen API routes) to find its handler. Here it runs
// the very steps the app runs for it, the same instances in the same order, and nothing else:
//
//   the no-store and security headers (the API's fixed set; a page's nonce and helmet's set),
//   the POST rate limit, the same-site refusal, the 64 kB JSON parser with its nesting check and
//   the 64 kB form parser, then the route's handler.
//
// Whatever a step refuses is answered by that step, or by the app's error handler (`next(err)`)
// with the words it always had. A path spelled differently (another case, a trailing slash) or
// a key that does not decode is left to express, whose routes reach the same handlers.
import type { NextFunction, Request, Response } from 'express';

/** A move route's handler, given the link key from its path. */
export type MoveHandler = (req: Request, res: Response, key: string) => Promise<void>;

type Step = (req: Request, res: Response, next: NextFunction) => unknown;

export interface MovePathSteps {
  /** Steps every API request takes before its route (headers). */
  api: Step[];
  /** Steps every page request takes before its route (headers with a fresh nonce). */
  page: Step[];
  /** Steps every POST takes after its headers: rate limit, same-site refusal, body parsers. */
  post: Step[];
  apiMove: MoveHandler;
  pageMove: MoveHandler;
}

/** /api/play/KEY/move, /api/v1/play/KEY/move (group 1: "api"), /play/KEY/move; group 2: the key. */
const MOVE_PATH = /^\/(?:(api)\/(?:v1\/)?)?play\/([^/]+)\/move$/;

/** Middleware taking the move routes' POSTs down the lean path; everything else goes on. */
export function movePath(o: MovePathSteps) {
  const apiSteps = [...o.api, ...o.post];
  const pageSteps = [...o.page, ...o.post];
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const m = MOVE_PATH.exec(req.path);
    if (!m) return next();
    let key: string;
    try {
      key = decodeURIComponent(m[2]!);
    } catch {
      return next();
    }
    // Worked out once: behind a trusted proxy each read of req.ip parses X-Forwarded-For, and
    // the rate limiter reads it several times.
    const ip = req.ip;
    Object.defineProperty(req, 'ip', { value: ip, configurable: true, enumerable: true });
    const api = m[1] !== undefined;
    const handler = api ? o.apiMove : o.pageMove;
    runSteps(api ? apiSteps : pageSteps, req, res, next, () => handler(req, res, key));
  };
}

/** Runs `steps` as express would (each calls next to go on), then `last`; errors go to `fail`. */
function runSteps(steps: Step[], req: Request, res: Response, fail: NextFunction, last: () => Promise<void>): void {
  let i = 0;
  const go = (err?: unknown): void => {
    if (err !== undefined && err !== null) return fail(err);
    const step = steps[i++];
    try {
      const r = step ? step(req, res, go) : last();
      if (r && typeof (r as Promise<void>).then === 'function') (r as Promise<void>).then(undefined, fail);
    } catch (e) {
      fail(e);
    }
  };
  go();
}
