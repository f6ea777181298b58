// Mail pictures drawn on worker threads (server/mail/picture-pool.ts): the same PNG as drawn on
// the event loop (a worker draws with resvg's WebAssembly build, the event loop with the native
// one: server/mail/raster.ts), both of a turn mail's pictures (the close-up and the board), one game's pictures on one worker, and a worker that dies fails only the
// pictures it was drawing (the mail queue retries them) while the next picture gets a fresh one.
import { afterEach, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { PicturePool } from '../../server/mail/picture-pool.ts';
import { svgToPng } from '../../server/mail/snapshot.ts';
import { phoneCloseUp } from '../../server/mail/closeup.ts';
import { mailPicture } from '../../server/mail/compose.ts';
import { MailRenderer } from '../../server/mail/render.ts';
import { positionsAfter } from '../support/playout.ts';

const boards = games
  .filter((g) => g.svg)
  .map((g) => ({ id: g.id, svg: g.svg!(g.view(g.setup(g.players.min, 'picture-pool', {}, g.version), 0)) }));

/**
 * A turn mail's pictures a few moves in: the board for the mail's column, and the close-up for a
 * phone (1830's: the largest; the board of every game is compared above).
 */
const turnPictures = games
  .filter((g) => g.id === '1830')
  .map((g) => {
    const [then, now] = positionsAfter(g, g.players.min, [4, 4 + 2 * g.players.min], 'picture-pool');
    const board = mailPicture(g, g.view(now, 0))!;
    const closeUp = phoneCloseUp({
      rows: g.holdings!(g.view(now, 0)),
      before: mailPicture(g, g.view(then, 0))!,
      after: board,
    })!;
    return { id: g.id, board, closeUp };
  });

describe('the picture workers', () => {
  let pool: PicturePool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('draw every game the same PNG as the event loop does, on as many workers as asked', async () => {
    pool = new PicturePool({ threads: 2 });
    expect(boards.length).toBeGreaterThanOrEqual(4);
    const drawn = await Promise.all(boards.map((b) => pool!.draw(b.svg, { cache: false }, b.id)));
    for (const [i, b] of boards.entries()) expect(drawn[i]!.equals(await svgToPng(b.svg, { cache: false }))).toBe(true);
  });

  it('draw both pictures of a turn mail, the close-up for a phone and the board, off the event loop', async () => {
    pool = new PicturePool({ threads: 1 });
    const sent: string[] = [];
    const renderer = new MailRenderer(undefined, (svg, opts, route) => {
      sent.push(svg);
      return pool!.draw(svg, opts, route);
    });
    expect(turnPictures.length).toBe(1);
    for (const p of turnPictures) {
      sent.length = 0;
      const mail = await renderer.render(
        {
          kind: 'turn',
          game: { id: p.id, title: p.id, seq: 9 },
          players: [],
          you: 0,
          recipientName: 'Ada',
          svg: p.board,
          closeUpSvg: p.closeUp,
          links: { play: 'http://localhost/play/KEY' },
        },
        p.id,
        { pngCache: false },
      );
      expect(sent.sort()).toEqual([p.board, p.closeUp].sort());
      expect(mail.png!.equals(await svgToPng(p.board, { cache: false }))).toBe(true);
      expect(mail.closeUpPng!.equals(await svgToPng(p.closeUp, { cache: false }))).toBe(true);
      expect(mail.html.indexOf('cid:closeup')).toBeLessThan(mail.html.indexOf('cid:board'));
    }
  });

  it('fail the pictures of a worker that died, and draw the next one on a fresh worker', async () => {
    pool = new PicturePool({ threads: 1 });
    const board = boards[0]!;
    await pool.draw(board.svg, {}, board.id); // the worker is up
    const worker = (pool as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots[0]!.worker;
    // The worker is told to stop before the picture is sent, so it dies with the picture in hand
    // whatever its speed (sent first, a fast worker could finish the picture before it stopped).
    const dying = worker.terminate();
    const lost = pool.draw(board.svg, { cache: false }, board.id);
    await dying;
    await expect(lost).rejects.toThrow(/stopped/);
    const again = await pool.draw(board.svg, { cache: false }, board.id);
    expect(again.equals(await svgToPng(board.svg, { cache: false }))).toBe(true);
  });

  it('refuse pictures once closed', async () => {
    pool = new PicturePool({ threads: 1 });
    await pool.close();
    await expect(pool.draw(boards[0]!.svg, {}, 'x')).rejects.toThrow(/stopped/);
  });
});
