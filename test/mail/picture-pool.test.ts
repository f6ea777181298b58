// Mail pictures drawn on worker threads (server/mail/picture-pool.ts): the same PNG as drawn on
// the event loop, one game's pictures on one worker, and a worker that dies fails only the
// pictures it was drawing (the mail queue retries them) while the next picture gets a fresh one.
import { afterEach, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { PicturePool } from '../../server/mail/picture-pool.ts';
import { svgToPng } from '../../server/mail/snapshot.ts';

const boards = games
  .filter((g) => g.svg)
  .map((g) => ({ id: g.id, svg: g.svg!(g.view(g.setup(g.players.min, 'picture-pool', {}, g.version), 0)) }));

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

  it('fail the pictures of a worker that died, and draw the next one on a fresh worker', async () => {
    pool = new PicturePool({ threads: 1 });
    const board = boards[0]!;
    await pool.draw(board.svg, {}, board.id); // the worker is up
    const worker = (pool as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots[0]!.worker;
    const lost = pool.draw(board.svg, { cache: false }, board.id);
    await worker.terminate();
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
