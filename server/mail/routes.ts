// HTTP routes of the mail part (an express Router the app mounts at /):
//   GET  /mail/prefs/<seatKey>        the mail preferences of that seat (every turn / digest / reminders / nothing)
//   POST /mail/prefs/<seatKey>        mail=<pref>: saves them (in the seat's record, not the public log); with mail=digest,
//                                     digestHour=0..23 and digestZone=<IANA zone>: when that address gets its digest
//   GET  /mail/unsubscribe/<seatKey>  a page with one button (GET never changes anything)
//   POST /mail/unsubscribe/<seatKey>  one-click unsubscribe (RFC 8058 List-Unsubscribe-Post): no more mail for this game
//   GET  /mail/invitations/<token>    an invitation's preferences: whether this address takes invitations
//   POST /mail/invitations/<token>    invitations=yes|no
//   GET  /games                       a form: mail me the list of my games
//   POST /games                       email=<address>: mails that address its list (always the same answer,
//                                     so nobody learns whether an address plays here); at most one an hour
//   GET  /games/<token>               the list of all games of one address (the signed link in its mails)
//   GET  /outbox, /outbox/<id>.html|.eml  without SMTP_URL: what would have been sent (loopback only unless OUTBOX_PUBLIC=1,
//                                     since every mail carries somebody's personal link)
import express, { type Request, type Response, type Router } from 'express';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GameService, LoadedGame } from '../service.ts';
import { ServiceError } from '../errors.ts';
import { listOutbox, outboxPage } from './transport.ts';
import { clientIsLoopback } from '../http/client.ts';
import { MAIL_PREFS, MAIL_PREF_LABELS, isMailPref, mailPref, type MailPref } from './prefs.ts';
import { gameLabel } from './compose.ts';
import { isDigestTime, timeZones, type DigestBookApi, type DigestTime } from './digest.ts';
import type { PageRenderer } from '../render.ts';
import { gamesOf } from './my-games.ts';

export interface MailRouterOptions {
  service: GameService;
  /** DATA_DIR/outbox, or null when mail goes to SMTP (then /outbox is not served). */
  outboxDir: string | null;
  outboxPublic?: boolean;
  /** Told after a seat's mail preference changed (the digest book follows it). */
  onPrefChanged?: (gameId: string, seat: number) => Promise<void>;
  /** Where each address's digest time is kept. */
  digest: DigestBookApi;
  /** The hour (UTC) of the digest for an address that chose none. */
  defaultDigestHour: number;
  /** The site's pages (templates/pages/mail-*.hbs, outbox.hbs, inside layout.hbs). */
  pages: PageRenderer;
  /** Queues the mail with an address's list of games (POST /games). */
  requestGamesList?: (email: string) => Promise<void>;
  /** The clock ("3 hours ago"). */
  now?: () => number;
}

function notFoundPage(res: Response, pages: PageRenderer): void {
  res
    .status(404)
    .type('html')
    .send(
      pages.page('error', {
        title: 'Not found',
        message: 'This link is not known here (any more). If you were sent a newer mail, use the link in that one.',
      }),
    );
}

async function seatOf(service: GameService, key: string): Promise<{ game: LoadedGame; seat: number } | null> {
  try {
    const { game, target } = await service.openByKey(key, ['seat']);
    if (target.seat === undefined) return null;
    return { game, seat: target.seat };
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}

export function createMailRouter(o: MailRouterOptions): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 10 });
  const { service, pages } = o;

  async function setPref(game: LoadedGame, seat: number, pref: MailPref): Promise<void> {
    if (mailPref(game.doc.seats[seat]!) === pref) return;
    // Private: in the seat's record, never in the game's public history.
    await service.setSeatPrefs(game.doc.id, seat, { mail: pref });
    await o.onPrefChanged?.(game.doc.id, seat);
  }

  async function prefsForm(
    key: string,
    game: LoadedGame,
    seat: number,
    note: { saved?: string; problem?: string } = {},
  ): Promise<string> {
    const rec = game.doc.seats[seat]!;
    const current = mailPref(rec);
    const time = (await o.digest.time(rec.email)) ?? { hour: o.defaultDigestHour, zone: 'UTC' };
    return pages.page('mail-prefs', {
      title: `Mail for ${gameLabel(game.doc)}`,
      ...note,
      name: rec.name,
      email: rec.email,
      key,
      playUrl: service.links.playUrl(key),
      choices: MAIL_PREFS.map((p) => ({
        value: p,
        label: MAIL_PREF_LABELS[p],
        checked: p === current,
        digest: p === 'digest',
      })),
      hours: Array.from({ length: 24 }, (_, h) => ({
        value: h,
        label: `${String(h).padStart(2, '0')}:00`,
        selected: h === time.hour,
      })),
      zones: timeZones().map((zone) => ({ zone, selected: zone === time.zone })),
    });
  }

  /** The digest time in a form, if it holds a valid one. */
  function digestTimeOf(body: Record<string, unknown>): DigestTime | null {
    const t = { hour: Number(body.digestHour), zone: String(body.digestZone ?? '') };
    return isDigestTime(t) ? t : null;
  }

  router.get('/mail/prefs/:key', async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res, pages);
    res.type('html').send(await prefsForm(key, found.game, found.seat));
  });

  router.post('/mail/prefs/:key', form, async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res, pages);
    const body = (req.body as Record<string, unknown> | undefined) ?? {};
    const v = body.mail;
    if (!isMailPref(v)) {
      res
        .status(400)
        .type('html')
        .send(await prefsForm(key, found.game, found.seat, { problem: 'Please pick one of the choices.' }));
      return;
    }
    const time = digestTimeOf(body);
    if (v === 'digest' && body.digestHour !== undefined && !time) {
      res
        .status(400)
        .type('html')
        .send(
          await prefsForm(key, found.game, found.seat, {
            problem: 'Please pick an hour and a time zone from the lists.',
          }),
        );
      return;
    }
    // The time first: choosing the digest queues the next one at once.
    if (v === 'digest' && time) await o.digest.setTime(found.game.doc.seats[found.seat]!.email, time);
    await setPref(found.game, found.seat, v);
    const fresh = await service.open(found.game.doc.id);
    const saved =
      v === 'digest' && time
        ? `${MAIL_PREF_LABELS[v]}, at ${String(time.hour).padStart(2, '0')}:00 ${time.zone}`
        : MAIL_PREF_LABELS[v];
    res.type('html').send(await prefsForm(key, fresh, found.seat, { saved }));
  });

  // ---- an address's invitation preferences (the link in every invitation) ---------

  const invitationsPage = async (token: string, email: string, saved = false) =>
    pages.page('mail-invitations', {
      title: 'Invitations',
      email,
      token,
      takes: await o.digest.takesInvitations(email),
      saved,
    });

  router.get('/mail/invitations/:token', async (req: Request, res: Response) => {
    const token = String(req.params.token);
    const email = service.links.invitationsEmail(token);
    if (!email) return notFoundPage(res, pages);
    res.type('html').send(await invitationsPage(token, email));
  });

  router.post('/mail/invitations/:token', form, async (req: Request, res: Response) => {
    const token = String(req.params.token);
    const email = service.links.invitationsEmail(token);
    if (!email) return notFoundPage(res, pages);
    const v = (req.body as Record<string, unknown> | undefined)?.invitations;
    if (v !== 'yes' && v !== 'no') {
      res
        .status(400)
        .type('html')
        .send(await invitationsPage(token, email));
      return;
    }
    await o.digest.setTakesInvitations(email, v === 'yes');
    res.type('html').send(await invitationsPage(token, email, true));
  });

  // ---- one list of all of a player's games --------------------------------------

  router.get('/games', (_req: Request, res: Response) => {
    res.type('html').send(pages.page('my-games-request', { title: 'Your games' }));
  });

  router.post('/games', form, async (req: Request, res: Response) => {
    const raw = (req.body as Record<string, unknown> | undefined)?.email;
    const email = typeof raw === 'string' ? raw.trim() : '';
    if (!/^[^\s@]{1,100}@[^\s@]{1,150}\.[^\s@]{1,50}$/.test(email)) {
      res
        .status(400)
        .type('html')
        .send(pages.page('my-games-request', { title: 'Your games', problem: 'Please give an email address.', email }));
      return;
    }
    await o.requestGamesList?.(email);
    // The same answer whether the address has games here or not.
    res.type('html').send(pages.page('my-games-request', { title: 'Your games', sent: true, email }));
  });

  router.get('/games/:token', async (req: Request, res: Response) => {
    const email = service.links.gamesEmail(String(req.params.token));
    if (!email) return notFoundPage(res, pages);
    const games = await gamesOf(service, email, (o.now ?? Date.now)());
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(
      pages.page('my-games', {
        title: 'Your games',
        email,
        games,
        waiting: games.filter((g) => g.yourTurn).length,
      }),
    );
  });

  router.get('/mail/unsubscribe/:key', async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res, pages);
    res.type('html').send(
      pages.page('mail-unsubscribe', {
        title: `Stop mail for ${gameLabel(found.game.doc)}`,
        key,
        playUrl: service.links.playUrl(key),
      }),
    );
  });

  // RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" here; no confirmation step.
  router.post('/mail/unsubscribe/:key', form, async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res, pages);
    await setPref(found.game, found.seat, 'nothing');
    res
      .type('html')
      .send(pages.page('mail-unsubscribed', { title: 'Unsubscribed', game: gameLabel(found.game.doc), key }));
  });

  if (o.outboxDir) {
    const dir = o.outboxDir;
    // The client's real address decides (behind a proxy, as TRUST_PROXY allows), not the socket's.
    const allowed = (req: Request) => o.outboxPublic || clientIsLoopback(req);
    router.get('/outbox', async (req: Request, res: Response) => {
      if (!allowed(req)) return notFoundPage(res, pages);
      const list = await listOutbox(dir);
      res.type('html').send(
        pages.page('outbox', {
          title: 'Outbox',
          count: list.length,
          one: list.length === 1,
          messages: list.map((e) => ({ ...e, at: e.at.replace('T', ' ').slice(0, 19) })),
        }),
      );
    });
    router.get('/outbox/:file', async (req: Request, res: Response) => {
      if (!allowed(req)) return notFoundPage(res, pages);
      const m = /^([A-Za-z0-9_-]{10,64})\.(eml|html)$/.exec(String(req.params.file));
      if (!m) return notFoundPage(res, pages);
      try {
        if (m[2] === 'html') {
          const page = await outboxPage(dir, m[1]!);
          if (page === null) return notFoundPage(res, pages);
          res.type('html').send(page);
          return;
        }
        const body = await readFile(join(dir, `${m[1]}.eml`));
        res.type('message/rfc822').setHeader('Content-Disposition', `inline; filename="${m[1]}.eml"`);
        res.send(body);
      } catch {
        notFoundPage(res, pages);
      }
    });
  }

  return router;
}
