// Health probes and the graceful stop, on the real server process (server/main.ts):
// SIGTERM while a request is still arriving stops new connections, lets that
// request finish and get its answer, flushes what it wrote, and exits 0; after
// the grace period a request that never finishes is cut and the exit is still 0.
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain, type MainProcess } from '../support/main-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pbem-shutdown-'));
const running: MainProcess[] = [];
afterAll(() => {
  for (const p of running) p.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<{ url: string; proc: MainProcess }> {
  const proc = runMain({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...env });
  running.push(proc);
  return { url: await proc.listening, proc };
}

/** A POST whose body is sent in two halves: the request is in flight until `finish()`. */
function halfSent(url: string, path: string, body: unknown) {
  const data = Buffer.from(JSON.stringify(body));
  let req!: ClientRequest;
  const response = new Promise<{ res: IncomingMessage; text: string }>((resolve, reject) => {
    req = request(
      `${url}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': data.length } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => resolve({ res, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
  req.write(data.subarray(0, data.length >> 1));
  return { response, finish: () => req.end(data.subarray(data.length >> 1)) };
}

/** Resolves once the server takes no new connection. */
async function refusing(url: string): Promise<void> {
  for (;;) {
    try {
      await fetch(`${url}/healthz`);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('health and shutdown', () => {
  it('answers the probes, finishes a request in flight on SIGTERM, flushes its writes and exits 0', async () => {
    const first = await start({ SHUTDOWN_GRACE_SECONDS: '60' });
    const health = await fetch(`${first.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { store: 'ok', mail: /^outbox/ } });

    const create = halfSent(first.url, '/api/games', {
      rules: 'airlines',
      seats: 3,
      name: 'Ada',
      email: 'ada@example.test',
    });
    await new Promise((r) => setTimeout(r, 100)); // (only so that the first half is surely read)
    first.proc.child.kill('SIGTERM');
    await refusing(first.url);
    create.finish();
    const { res, text } = await create.response;
    expect(res.statusCode).toBe(201);
    expect(res.headers.connection).toBe('close');
    const { adminKey } = JSON.parse(text) as { adminKey: string };
    expect((await first.proc.exited).code).toBe(0);

    // The game is there after the restart, and the mail its creation queued goes out.
    const second = await start({ SHUTDOWN_GRACE_SECONDS: '1' });
    expect((await fetch(`${second.url}/api/admin/${adminKey}`)).status).toBe(200);
    const outbox = join(dataDir, 'outbox');
    const sentTo = () =>
      (existsSync(outbox) ? readdirSync(outbox) : [])
        .filter((f) => f.endsWith('.json'))
        .map((f) => (JSON.parse(readFileSync(join(outbox, f), 'utf8')) as { to: string }).to)
        .join(' ');
    for (let i = 0; i < 200 && !sentTo().includes('ada@example.test'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(sentTo()).toContain('ada@example.test');

    // Not ready while the store's folder is gone.
    renameSync(join(dataDir, 'games'), join(dataDir, 'games-away'));
    const notReady = await fetch(`${second.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ status: 'not ready', checks: { store: /^failing: / } });
    renameSync(join(dataDir, 'games-away'), join(dataDir, 'games'));

    // A request that never completes is cut after the grace period; the stop is still clean.
    const stalled = halfSent(second.url, '/api/games', { rules: 'airlines', seats: 3, name: 'Bo', email: 'b@x.test' });
    await new Promise((r) => setTimeout(r, 100));
    second.proc.child.kill('SIGTERM');
    await expect(stalled.response).rejects.toThrow();
    expect((await second.proc.exited).code).toBe(0);
  }, 120_000);
});
