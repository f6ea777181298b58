// HTTP routes of the mail part (an express Router the app mounts at /):
//   GET  /mail/prefs/<seatKey>        the mail preferences of that seat (every turn / digest / reminders / nothing)
//   POST /mail/prefs/<seatKey>        mail=<pref>: saves them (a logged 'prefs' entry); with mail=digest,
//                                     digestHour=0..23 and digestZone=<IANA zone>: when that address gets its digest
//   GET  /mail/unsubscribe/<seatKey>  a page with one button (GET never changes anything)
//   POST /mail/unsubscribe/<seatKey>  one-click unsubscribe (RFC 8058 List-Unsubscribe-Post): no more mail for this game
//   GET  /outbox, /outbox/<id>.html|.eml  without SMTP_URL: what would have been sent (loopback only unless OUTBOX_PUBLIC=1,
//                                     since every mail carries somebody's personal link)
import express, { type Request, type Response, type Router } from 'express';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GameService, LoadedGame } from '../service.ts';
import { ServiceError } from '../errors.ts';
import { listOutbox } from './transport.ts';
import { clientIsLoopback } from '../http/client.ts';
import { MAIL_PREFS, MAIL_PREF_LABELS, isMailPref, mailPref, type MailPref } from './prefs.ts';
import { gameLabel } from './compose.ts';
import { isDigestTime, timeZones, type DigestBook, type DigestTime } from './digest.ts';

export interface MailRouterOptions {
  service: GameService;
  /** DATA_DIR/outbox, or null when mail goes to SMTP (then /outbox is not served). */
  outboxDir: string | null;
  outboxPublic?: boolean;
  /** Told after a seat's mail preference changed (the digest book follows it). */
  onPrefChanged?: (gameId: string, seat: number) => Promise<void>;
  /** Where each address's digest time is kept. */
  digest: DigestBook;
  /** The hour (UTC) of the digest for an address that chose none. */
  defaultDigestHour: number;
}

function esc(s: unknown): string {
  return String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)}</title></head><body style="font-family:Helvetica,Arial,sans-serif;max-width:640px;margin:24px auto;padding:0 12px;color:#222;line-height:1.45">
<h1 style="font-size:22px">${esc(title)}</h1>${body}</body></html>`;
}

function notFoundPage(res: Response): void {
  res
    .status(404)
    .type('html')
    .send(
      page(
        'Not found',
        '<p>This link is not known here (any more). If you were sent a newer mail, use the link in that one.</p>',
      ),
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
  const { service } = o;

  async function setPref(game: LoadedGame, seat: number, pref: MailPref): Promise<void> {
    if (mailPref(game.doc.seats[seat]!) === pref) return;
    const name = game.doc.seats[seat]!.name;
    await service.appendNote(game.doc.id, {
      kind: 'prefs',
      seat,
      text: `${name} changed their mail settings`,
      data: { prefs: { mail: pref } },
    });
    await o.onPrefChanged?.(game.doc.id, seat);
  }

  async function prefsForm(key: string, game: LoadedGame, seat: number, note = ''): Promise<string> {
    const rec = game.doc.seats[seat]!;
    const current = mailPref(rec);
    const time = (await o.digest.time(rec.email)) ?? { hour: o.defaultDigestHour, zone: 'UTC' };
    const hours = Array.from(
      { length: 24 },
      (_, h) => `<option value="${h}"${h === time.hour ? ' selected' : ''}>${String(h).padStart(2, '0')}:00</option>`,
    ).join('');
    const zones = timeZones()
      .map((z) => `<option${z === time.zone ? ' selected' : ''}>${esc(z)}</option>`)
      .join('');
    const when = `<p style="margin-left:24px">Send my digest at <select name="digestHour" aria-label="Hour">${hours}</select>
<select name="digestZone" aria-label="Time zone">${zones}</select> (one digest a day for ${esc(rec.email)}, for all its games)</p>`;
    const options = MAIL_PREFS.map(
      (p) =>
        `<p><label><input type="radio" name="mail" value="${p}"${p === current ? ' checked' : ''}> ${esc(MAIL_PREF_LABELS[p])}</label></p>${p === 'digest' ? when : ''}`,
    ).join('');
    return page(
      `Mail for ${gameLabel(game.doc)}`,
      `${note}<p>Hello ${esc(rec.name)}, choose which mail you get for this game.
Mail is always sent as chosen: the server never skips a mail because you seemed to be online.</p>
<form method="post" action="/mail/prefs/${esc(key)}">${options}<p><button type="submit">Save</button></p></form>
<p><a href="${esc(service.links.playUrl(key))}">Back to your page</a></p>`,
    );
  }

  /** The digest time in a form, if it holds a valid one. */
  function digestTimeOf(body: Record<string, unknown>): DigestTime | null {
    const t = { hour: Number(body.digestHour), zone: String(body.digestZone ?? '') };
    return isDigestTime(t) ? t : null;
  }

  router.get('/mail/prefs/:key', async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res);
    res.type('html').send(await prefsForm(key, found.game, found.seat));
  });

  router.post('/mail/prefs/:key', form, async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res);
    const body = (req.body as Record<string, unknown> | undefined) ?? {};
    const v = body.mail;
    if (!isMailPref(v)) {
      res
        .status(400)
        .type('html')
        .send(
          await prefsForm(key, found.game, found.seat, '<p style="color:#a00">Please pick one of the choices.</p>'),
        );
      return;
    }
    const time = digestTimeOf(body);
    if (v === 'digest' && body.digestHour !== undefined && !time) {
      res
        .status(400)
        .type('html')
        .send(
          await prefsForm(
            key,
            found.game,
            found.seat,
            '<p style="color:#a00">Please pick an hour and a time zone from the lists.</p>',
          ),
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
    res
      .type('html')
      .send(
        await prefsForm(key, fresh, found.seat, `<p style="color:#24543a"><strong>Saved:</strong> ${esc(saved)}.</p>`),
      );
  });

  router.get('/mail/unsubscribe/:key', async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res);
    res.type('html').send(
      page(
        `Stop mail for ${gameLabel(found.game.doc)}`,
        `<p>You will get no more mail about this game, not even reminders. You stay in the game and can play from <a href="${esc(service.links.playUrl(key))}">your page</a>.</p>
<form method="post" action="/mail/unsubscribe/${esc(key)}"><button type="submit">Stop mail for this game</button></form>
<p>Or choose something in between on the <a href="/mail/prefs/${esc(key)}">mail preferences</a> page.</p>`,
      ),
    );
  });

  // RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" here; no confirmation step.
  router.post('/mail/unsubscribe/:key', form, async (req: Request, res: Response) => {
    const key = String(req.params.key);
    const found = await seatOf(service, key);
    if (!found) return notFoundPage(res);
    await setPref(found.game, found.seat, 'nothing');
    res
      .type('html')
      .send(
        page(
          'Unsubscribed',
          `<p>No more mail about ${esc(gameLabel(found.game.doc))}. Changed your mind? <a href="/mail/prefs/${esc(key)}">Mail preferences</a>.</p>`,
        ),
      );
  });

  if (o.outboxDir) {
    const dir = o.outboxDir;
    // The client's real address decides (behind a proxy, as TRUST_PROXY allows), not the socket's.
    const allowed = (req: Request) => o.outboxPublic || clientIsLoopback(req);
    router.get('/outbox', async (req: Request, res: Response) => {
      if (!allowed(req)) return notFoundPage(res);
      const list = await listOutbox(dir);
      const rows = list
        .map(
          (e) =>
            `<tr><td>${esc(e.at.replace('T', ' ').slice(0, 19))}</td><td>${esc(e.to)}</td><td><a href="/outbox/${esc(e.id)}.html">${esc(e.subject)}</a></td><td><a href="/outbox/${esc(e.id)}.eml">.eml</a></td></tr>`,
        )
        .join('');
      res.type('html').send(
        page(
          'Outbox',
          `<p>No SMTP_URL is set, so mail is written here instead of being sent (${list.length} message${list.length === 1 ? '' : 's'}, newest first). Each is a standard .eml file any mail program opens.</p>
<table cellpadding="4" style="border-collapse:collapse;font-size:14px"><tr><th align="left">Written</th><th align="left">To</th><th align="left">Subject</th><th></th></tr>${rows}</table>`,
        ),
      );
    });
    router.get('/outbox/:file', async (req: Request, res: Response) => {
      if (!allowed(req)) return notFoundPage(res);
      const m = /^([A-Za-z0-9_-]{10,64})\.(eml|html)$/.exec(String(req.params.file));
      if (!m) return notFoundPage(res);
      try {
        const body = await readFile(join(dir, `${m[1]}.${m[2]}`));
        if (m[2] === 'eml')
          res.type('message/rfc822').setHeader('Content-Disposition', `inline; filename="${m[1]}.eml"`);
        else res.type('html');
        res.send(body);
      } catch {
        notFoundPage(res);
      }
    });
  }

  return router;
}
