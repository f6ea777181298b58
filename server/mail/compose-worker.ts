// A compose worker thread (compose-pool.ts): turns queued mail specs into finished messages with
// a game service of its own over a reading-only store (compose-reader.ts), so opening the game,
// the seat's view, the SVG, the pictures, handlebars and the envelope never run on the event loop
// that answers clicks. It draws its pictures itself (resvg's WebAssembly build: raster.ts), and
// keeps the games it composed for in memory, so the next mail of a game replays only the moves
// made since. The main thread claims, sends and records every mail; this thread only composes.
//
// Messages in: { type: 'init', ... } once, then { id, spec, key, capture? }, handled one at a time
// (the captures of the embedded store are per job). Out: { id, mail } (null: nothing to send),
// { id, elsewhere: true } (a game of rules this thread lacks: the main thread composes it), or
// { id, error, stale? } (stale: ask again with a fresh capture).
import { parentPort } from 'node:worker_threads';
import { games } from '../../rules/index.ts';
import { createLinks } from '../links.ts';
import { GameService } from '../service.ts';
import { MailComposer } from './compose.ts';
import { CapturedFiles, ReadingOf, StaleCaptureError, type Capture } from './compose-reader.ts';
import type { DigestBookApi } from './digest.ts';
import type { GameStore } from '../store/types.ts';
import type { MailSpec } from './queue.ts';
import { useInThreadRenderer } from './raster.ts';
import { MailRenderer } from './render.ts';

export interface ComposeWorkerInit {
  type: 'init';
  /** Where the games are: the embedded store's folders, or a PostgreSQL database. */
  store: { kind: 'files'; gamesDir: string; snapshotsDir: string } | { kind: 'pg'; url: string; schema: string };
  /** What the main thread's links are made of (links.ts), so the worker's links are the same. */
  links: { secret: Uint8Array; baseUrl: string };
  templatesDir?: string;
  from: string;
  domain: string;
  replyDomain?: string;
  pngCache?: boolean;
}

export interface ComposeJob {
  id: number;
  spec: MailSpec;
  key: string;
  /** The embedded store's view of the game at the claim (compose-reader.ts); absent over PostgreSQL. */
  capture?: Capture | null;
}

// Digests and lists of an address's games read the whole index: the main thread composes those.
const noDigests: DigestBookApi = new Proxy({} as DigestBookApi, {
  get: () => () => Promise.reject(new Error('digests are composed on the main thread')),
});

let ready: Promise<{ composer: MailComposer; files: CapturedFiles | null; store: GameStore }> | null = null;

async function setUp(init: ComposeWorkerInit) {
  void useInThreadRenderer();
  let files: CapturedFiles | null = null;
  let store: GameStore;
  if (init.store.kind === 'files') store = files = new CapturedFiles(init.store);
  else {
    // Loaded only here: a server without PostgreSQL never loads the driver.
    const { PgGameStore } = await import('../store/pg-store.ts');
    store = new ReadingOf(new PgGameStore({ url: init.store.url, schema: init.store.schema, max: 2, readsOnly: true }));
  }
  const service = new GameService({
    store,
    registry: games,
    // A copy of the games this worker mails about; the main thread keeps its own.
    maxOpenGames: 2_000,
    links: createLinks(Buffer.from(init.links.secret), init.links.baseUrl),
  });
  const composer = new MailComposer({
    service,
    renderer: new MailRenderer(init.templatesDir),
    from: init.from,
    domain: init.domain,
    digest: noDigests,
    pngCache: init.pngCache,
    replyDomain: init.replyDomain,
  });
  return { composer, files, store };
}

let line: Promise<void> = Promise.resolve();

parentPort!.on('message', (m: ComposeWorkerInit | ComposeJob) => {
  if ('type' in m && m.type === 'init') {
    ready = setUp(m);
    return;
  }
  const job = m as ComposeJob;
  line = line.then(() => composeOne(job));
});

async function composeOne(job: ComposeJob): Promise<void> {
  const gameId = typeof job.spec.gameId === 'string' ? job.spec.gameId : null;
  let files: CapturedFiles | null = null;
  try {
    const parts = await ready!;
    files = parts.files;
    if (files && gameId) files.expect(gameId, job.capture ?? null);
    try {
      const mail = await parts.composer.compose(job.spec, job.key);
      parentPort!.postMessage({ id: job.id, mail });
    } catch (err) {
      // A game of rules this thread does not have (a test's own game): the main thread composes it.
      const rules = gameId ? (job.capture?.row ?? (await parts.store.entry(gameId).catch(() => null)))?.rules : null;
      if (rules && !games.some((g) => g.id === rules)) parentPort!.postMessage({ id: job.id, elsewhere: true });
      else throw err;
    }
  } catch (err) {
    parentPort!.postMessage({
      id: job.id,
      error: String((err as Error)?.message ?? err),
      ...(err instanceof StaleCaptureError ? { stale: true } : {}),
    });
  } finally {
    if (files && gameId) files.done(gameId);
  }
}
