// The JSON API described as OpenAPI 3.0, generated from the zod schemas the
// routes check their bodies with (server/http/schemas.ts), served at
// GET /api/v1/openapi.json. Every route of apiRouter is listed here;
// test/server/openapi.test.ts checks the two against each other.
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { apiCreateBody, apiOrderBody, joinBody, moveBody, policySchema, reopenBody, undoBody } from './schemas.ts';

// The generator reads its metadata through zod's prototype (.openapi()); this adds it.
extendZodWithOpenApi(z);

type Method = 'get' | 'post';

interface Route {
  method: Method;
  /** Express path under /api/v1 (":key" parameters). */
  path: string;
  summary: string;
  body?: z.ZodTypeAny;
  /** Status of a successful answer (default 200). */
  status?: number;
  /** What a successful answer holds, where it is described (else any object). */
  response?: z.ZodTypeAny;
}

const listedGame = z.object({
  id: z.string(),
  rules: z.string().describe('The game, as GET /rules names it'),
  title: z.string(),
  status: z.enum(['open', 'active']),
  players: z.array(z.string()).describe('Names at the table'),
  seatCount: z.number().int(),
  freeSeats: z.number().int().describe('Seats nobody has taken yet'),
  updatedAt: z.string().describe('Last change, ISO 8601'),
  inviteUrl: z.string().optional().describe('Open games: the page that takes a seat'),
  watchUrl: z.string().describe("The spectators' page"),
});

const seatFreeGame = listedGame.extend({
  status: z.literal('active'),
  players: z.array(z.string()).describe('Names of the players still at the table'),
  freeSeats: z.number().int().describe('Seats reopened for a new player'),
  toAct: z
    .array(z.object({ seat: z.number().int(), name: z.string().nullable().describe('null: the reopened seat') }))
    .describe('Whose turn it is'),
  inviteUrl: z.string().describe('The page that shows what the seat holds and takes it over'),
  joinApi: z.string().describe('The same under this API: GET it for the game, POST {name, email} to take the seat'),
});

const gamesList = z.object({
  open: z.array(listedGame).describe('Games waiting for players (not started)'),
  seatsFree: z
    .array(seatFreeGame)
    .describe('Running games with a seat reopened for a new player, who takes over what it holds'),
  running: z.array(listedGame).describe('Running games (those with a reopened seat too)'),
  openTotal: z.number().int(),
  seatsFreeTotal: z.number().int(),
  runningTotal: z.number().int(),
});

/** Every route of the JSON API, as apiRouter mounts it. */
export const API_ROUTES: Route[] = [
  { method: 'get', path: '/rules', summary: 'The games this server offers' },
  {
    method: 'get',
    path: '/games',
    summary: 'Listed games: open ones with free seats, running ones with a reopened seat, and running ones',
    response: gamesList,
  },
  { method: 'post', path: '/games', summary: 'Create a game', body: apiCreateBody, status: 201 },
  { method: 'get', path: '/join/:key', summary: 'The invitation: the game and the seats taken' },
  { method: 'post', path: '/join/:key', summary: 'Take a seat', body: joinBody, status: 201 },
  { method: 'get', path: '/admin/:key', summary: 'The game, for its organiser' },
  { method: 'post', path: '/admin/:key/start', summary: 'Start the game' },
  { method: 'post', path: '/admin/:key/abandon', summary: 'Abandon the game' },
  { method: 'post', path: '/admin/:key/reopen', summary: 'Reopen a seat for a new player', body: reopenBody },
  { method: 'post', path: '/admin/:key/policy', summary: 'Set the reminder policy', body: policySchema },
  { method: 'get', path: '/play/:key', summary: 'Your view, your moves, what happened since your last turn' },
  {
    method: 'post',
    path: '/play/:key/move',
    summary: 'Make a move (an action, a text command or a listed move)',
    body: moveBody,
  },
  { method: 'post', path: '/play/:key/undo', summary: 'Take back your last move', body: undoBody },
  {
    method: 'post',
    path: '/play/:key/orders',
    summary: 'Leave a standing order (played the moment you are to act), or cancel one',
    body: apiOrderBody,
  },
  { method: 'get', path: '/play/:key/history', summary: "The game's history as you may see it (verifiable)" },
  { method: 'get', path: '/watch/:key', summary: "The spectators' view" },
  { method: 'get', path: '/watch/:key/history', summary: "The game's history as a spectator may see it" },
  { method: 'get', path: '/openapi.json', summary: 'This description' },
];

const errorBody = z.object({ error: z.string().describe('What went wrong, in plain words') });

let cached: object | null = null;

/** The OpenAPI document (made once). */
export function openApiDocument(): object {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  for (const r of API_ROUTES) {
    const hasKey = r.path.includes(':key');
    registry.registerPath({
      method: r.method,
      path: r.path.replace(/:(\w+)/g, '{$1}'),
      summary: r.summary,
      request: {
        ...(hasKey
          ? { params: z.object({ key: z.string().describe('The personal link key from your mail or page') }) }
          : {}),
        ...(r.body ? { body: { content: { 'application/json': { schema: r.body } } } } : {}),
      },
      responses: {
        [r.status ?? 200]: {
          description: 'Done',
          content: { 'application/json': { schema: r.response ?? z.object({}).passthrough() } },
        },
        '4XX': { description: 'Refused, with the reason', content: { 'application/json': { schema: errorBody } } },
      },
    });
  }
  cached = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Share games by email: JSON API',
      version: '1',
      description: 'The same things the pages do, for bots and scripts. Also served without /v1 (older paths).',
    },
    servers: [{ url: '/api/v1' }],
  });
  return cached;
}
