// The move routes' JSON body, read without body-parser when the request is the plain kind every
// client sends: `Content-Type: application/json` (charset utf-8 or none), no Content-Encoding,
// a Content-Length of 1 byte up to the limit. body-parser's general path (content-type parsing,
// charsets through iconv, decompression, raw-body's stream bookkeeping, then the form parser
// skipping) was a tenth of a move's time on the event loop. Anything else goes to the parsers
// the app mounts, which answer it as they always did.
//
// The plain kind is read the way those parsers read it, with the same answers: the nesting check
// on the text (its 400), a body that is not a JSON object or array is `entity.parse.failed` (the
// app's 400 "not valid JSON"), a body shorter or longer than its Content-Length, or cut off, is
// a 400, and a leading byte-order mark is dropped.
import type { NextFunction, Request, Response } from 'express';

type Step = (req: Request, res: Response, next: NextFunction) => unknown;

const PLAIN_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** An error the app's handler answers as body-parser's (`type`, `status`). */
function bodyError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, type, expose: true });
}

/**
 * A step reading a plain JSON body of at most `limit` bytes into req.body (checked with
 * `verify`), and handing any other request to `fallback` (the app's parsers, in order).
 */
export function plainJsonBody(limit: number, verify: (text: string) => void, fallback: Step[]): Step {
  return (req, res, next) => {
    const h = req.headers;
    const type = h['content-type'];
    const length = h['content-length'];
    const plain =
      type !== undefined &&
      PLAIN_TYPES.has(type.toLowerCase()) &&
      (h['content-encoding'] === undefined || h['content-encoding'].toLowerCase() === 'identity') &&
      h['transfer-encoding'] === undefined &&
      length !== undefined &&
      /^[1-9]\d{0,8}$/.test(length) &&
      Number(length) <= limit &&
      !req.readableEnded &&
      !req.complete;
    if (!plain) return runFallback(fallback, req, res, next);
    const expected = Number(length);
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (err: Error | null) => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('aborted', onAborted);
      req.removeListener('error', onError);
      if (err) {
        // Read off the rest, as body-parser does, before answering.
        if (!req.complete) req.resume();
        return next(err);
      }
      let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        verify(text);
      } catch (e) {
        return next(e);
      }
      if (!opensObjectOrArray(text)) {
        return next(bodyError(400, 'entity.parse.failed', 'The request body is not a JSON object or array.'));
      }
      try {
        req.body = JSON.parse(text);
      } catch (e) {
        return next(bodyError(400, 'entity.parse.failed', (e as Error).message));
      }
      next();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > expected) return finish(bodyError(400, 'request.size.invalid', 'The body is longer than said.'));
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish(received === expected ? null : bodyError(400, 'request.size.invalid', 'The body is shorter than said.'));
    const onAborted = () => finish(bodyError(400, 'request.aborted', 'The request was cut off.'));
    const onError = (err: Error) => finish(bodyError(400, 'request.aborted', err.message));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onError);
  };
}

/** Whether the first character past JSON's whitespace opens an object or an array (body-parser's strict mode). */
function opensObjectOrArray(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x7b || c === 0x5b;
  }
  return false;
}

/** Runs the app's own parsers one after another, as express would. */
function runFallback(steps: Step[], req: Request, res: Response, next: NextFunction): void {
  let i = 0;
  const go = (err?: unknown): unknown => {
    if (err !== undefined && err !== null) return next(err);
    const step = steps[i++];
    return step ? step(req, res, go) : next();
  };
  go();
}
