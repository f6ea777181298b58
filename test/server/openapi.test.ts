// The JSON API under /api/v1 (and its older paths under /api), and its OpenAPI
// description: every route the router mounts is described, nothing described is
// missing, and the request bodies are the zod schemas the routes check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../../server/http/api.ts';
import { highCard } from '../support/high-card.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ registry: [highCard] });
});
afterAll(async () => {
  await srv.stop();
});

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: any }> } }>>;
}

describe('the JSON API, version 1', () => {
  it('describes every route the router mounts, and only those', async () => {
    const res = await fetch(`${srv.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApi;
    expect(doc.openapi).toMatch(/^3\./);
    const described = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    // What the router really answers, read from its own stack.
    const stack = (
      apiRouter(srv.ctx) as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] }
    ).stack;
    const mounted = stack
      .flatMap((layer) =>
        layer.route
          ? Object.keys(layer.route.methods).map(
              (m) => `${m.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`,
            )
          : [],
      )
      .sort();
    expect(mounted.length).toBeGreaterThan(10);
    expect(described).toEqual(mounted);
    // A body is the route's own schema: creating a game needs the game and the seats.
    const create = doc.paths['/games']!.post!.requestBody!.content['application/json']!.schema;
    expect(create.required).toEqual(expect.arrayContaining(['rules', 'seats', 'name', 'email']));
    // The listing describes running games with a reopened seat as a list of their own.
    const list = (doc.paths['/games']!.get as any).responses['200'].content['application/json'].schema;
    expect(Object.keys(list.properties)).toEqual(expect.arrayContaining(['open', 'seatsFree', 'running']));
    expect(list.properties.seatsFree.items.properties.inviteUrl).toBeTruthy();
  });

  it('answers under /api/v1 and at the older paths alike', async () => {
    const v1 = await srv.api('POST', '/api/v1/games', {
      rules: 'high-card',
      seats: 2,
      name: 'Ada',
      email: 'ada@example.test',
    });
    expect(v1.status).toBe(201);
    const key = (v1.body as { adminKey: string }).adminKey;
    const [now, before] = await Promise.all([
      srv.api('GET', `/api/v1/admin/${key}`),
      srv.api('GET', `/api/admin/${key}`),
    ]);
    expect(now.status).toBe(200);
    expect(before.body).toEqual(now.body);
    const refused = await srv.api('POST', '/api/v1/games', { rules: 'high-card' });
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveProperty('error');
  });
});
