// The worker thread behind the 18xx.games import (http/import-pool.ts): it
// reads, converts and replays an export through the 1830 engine, so that this
// costly work never holds up the server's event loop. One message in
// ({ id, export }), one out ({ id, ok: true, imported } or { id, ok: false, rule, message }).
import { parentPort } from 'node:worker_threads';
import { RuleError } from '../rules/types.ts';
import { import18xx } from '../rules/1830/import/index.ts';

parentPort!.on('message', (job: { id: number; export: unknown }) => {
  try {
    const imported = import18xx(job.export);
    parentPort!.postMessage({ id: job.id, ok: true, imported });
  } catch (err) {
    parentPort!.postMessage({
      id: job.id,
      ok: false,
      rule: err instanceof RuleError,
      message: String((err as Error)?.message ?? err),
    });
  }
});
