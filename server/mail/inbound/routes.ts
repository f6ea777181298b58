// JSON routes for reply addresses (mounted with the mail routes when MAIL_DOMAIN is set):
//   GET  /mail/reply-address/<seatKey>   {address}: the seat's current reply address
//   POST /mail/reply-address/<seatKey>   {address}: a new one; the old address is retired for good
//   POST /mail/reply-from/<adminKey>     {seat, addresses}: the admin lets these addresses (besides
//                                        the seat's own) play for the seat by reply; [] withdraws them
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { ServiceError } from '../../errors.ts';
import type { GameService } from '../../service.ts';
import { replyAddress } from '../reply-address.ts';

const allowBody = z.object({
  seat: z.number().int().min(0).max(99),
  addresses: z.array(z.string().max(320)).max(10),
});

export function replyRoutes(service: GameService, domain: string): Router {
  const router = express.Router();
  const fail = (res: Response, err: unknown) => {
    if (err instanceof ServiceError) res.status(err.status).json({ error: err.message });
    else res.status(500).json({ error: 'Something went wrong on the server; nothing was changed.' });
  };
  const seatOf = async (key: string) => {
    const { game, target } = await service.openByKey(key, ['seat']);
    return { game, seat: target.seat! };
  };
  router.get('/mail/reply-address/:key', async (req: Request, res: Response) => {
    try {
      const { game, seat } = await seatOf(String(req.params.key));
      const token = service.links.replyTokenOf(game.doc, seat);
      if (!token) throw new ServiceError(404, 'This seat has no reply address yet; ask for a new one (POST).');
      res.json({ address: replyAddress(game.doc.id, token, domain) });
    } catch (err) {
      fail(res, err);
    }
  });
  router.post('/mail/reply-address/:key', async (req: Request, res: Response) => {
    try {
      const { game, seat } = await seatOf(String(req.params.key));
      const token = await service.renewReplyToken(game.doc.id, seat);
      res.json({ address: replyAddress(game.doc.id, token, domain) });
    } catch (err) {
      fail(res, err);
    }
  });
  router.post('/mail/reply-from/:key', async (req: Request, res: Response) => {
    try {
      const body = allowBody.safeParse(req.body ?? {});
      if (!body.success)
        throw new ServiceError(400, 'Send {"seat": <number>, "addresses": ["name@example.org", ...]}.');
      const { game } = await service.openByKey(String(req.params.key), ['admin']);
      await service.allowReplyFrom(game.doc.id, body.data.seat, body.data.addresses);
      res.json({ seat: body.data.seat, addresses: body.data.addresses.map((a) => a.trim().toLowerCase()) });
    } catch (err) {
      fail(res, err);
    }
  });
  return router;
}
