// The worker thread behind the mail pictures (picture-pool.ts): draws an SVG to PNG with
// everything snapshot.ts keeps between pictures (static layers, sprites, compressed bands),
// so that the pixel work never holds up the server's event loop. One message in
// ({ id, svg, cache }), one out ({ id, png } or { id, error }).
import { parentPort } from 'node:worker_threads';
import { useInThreadRenderer } from './raster.ts';
import { svgToPng } from './snapshot.ts';

// This thread only draws: resvg's WebAssembly build, with the font read once (raster.ts says why).
void useInThreadRenderer();

parentPort!.on('message', async (job: { id: number; svg: string; cache?: boolean }) => {
  try {
    const png = await svgToPng(job.svg, { cache: job.cache });
    // A copy of its own: the drawing may be a view of a buffer the picture cache keeps.
    const out = new Uint8Array(png);
    parentPort!.postMessage({ id: job.id, png: out }, [out.buffer]);
  } catch (err) {
    parentPort!.postMessage({ id: job.id, error: String((err as Error)?.message ?? err) });
  }
});
