// POST /mail/inbound: replies handed over by a mail service's inbound webhook,
// as the raw MIME message (Content-Type message/rfc822, text/plain or
// application/octet-stream), with the shared secret INBOUND_SECRET as
// `Authorization: Bearer <secret>` (or `X-Inbound-Secret: <secret>`).
// Optional query fields: `to` (the envelope recipient, when the service knows it;
// else the message's Delivered-To / To / Cc are read), `from` (envelope sender),
// `ip` and `helo` (the sending server, for SPF and DMARC).
// Answers: 200 {status: answered|dropped}; 401 wrong secret; 413 too large;
// 422 {status: refused, reason} (permanent: do not retry); 503 with Retry-After
// (temporary: retry later). The app's POST rate limit per client applies, and
// the desk's per-sender quota.
import express, { type Request, type Response, type Router } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ReplyDesk } from './desk.ts';

export interface InboundRouteOptions {
  desk: ReplyDesk;
  secret: string;
  log?: (event: Record<string, unknown>) => void;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function presentedSecret(req: Request): string {
  const auth = req.get('authorization') ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(auth);
  return (m ? m[1]! : (req.get('x-inbound-secret') ?? '')).trim();
}

const one = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 320 ? v : undefined);

export function inboundRouter(o: InboundRouteOptions): Router {
  const router = express.Router();
  const wanted = digest(o.secret);
  router.post(
    '/mail/inbound',
    (req: Request, res: Response, next) => {
      // The secret is checked before the body is read.
      if (!timingSafeEqual(digest(presentedSecret(req)), wanted)) {
        res.status(401).json({ status: 'refused', reason: 'Wrong or missing secret.' });
        return;
      }
      next();
    },
    express.raw({ type: () => true, limit: o.desk.maxBytes }),
    async (req: Request, res: Response) => {
      if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
        res.status(415).json({ status: 'refused', reason: 'Send the raw message (message/rfc822) as the body.' });
        return;
      }
      try {
        const to = one(req.query.to);
        const v = await o.desk.receive(req.body, {
          recipients: to ? [to] : undefined,
          mailFrom: one(req.query.from),
          ip: one(req.query.ip),
          helo: one(req.query.helo),
        });
        o.log?.({
          msg: 'reply received',
          via: 'http',
          status: v.status,
          ...('reason' in v ? { reason: v.reason } : {}),
        });
        if (v.status === 'answered' || v.status === 'dropped') res.json({ status: v.status });
        else if (v.status === 'refused') res.status(v.code === 552 ? 413 : 422).json(v);
        else res.status(503).set('Retry-After', '300').json(v);
      } catch (err) {
        o.log?.({ msg: 'reply failed', via: 'http', err: String((err as Error)?.message ?? err) });
        res.status(503).set('Retry-After', '60').json({ status: 'later', reason: 'The server could not take it now.' });
      }
    },
  );
  return router;
}
