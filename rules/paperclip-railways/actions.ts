// The moves a player can send, as untrusted JSON checked by zod.
import { z } from 'zod';
import { BOARD } from './data.ts';

const coord = z.number().int().min(-5000).max(5000);
const point = z.tuple([coord, coord]);

export const actionSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('obstacle'), obstacle: z.string().max(40), x: coord, y: coord, rot: z.number().int() })
    .strict(),
  z.object({ type: z.literal('river'), points: z.array(point).min(2).max(20) }).strict(),
  z.object({ type: z.literal('draw') }).strict(),
  z.object({ type: z.literal('discard'), cards: z.array(z.string().max(40)).min(1).max(20) }).strict(),
  z
    .object({
      type: z.literal('build'),
      from: z.string().max(40),
      /** An existing station, or omitted when `card` and `at` place a new one from the hand. */
      to: z.string().max(40).optional(),
      card: z.string().max(40).optional(),
      at: point.optional(),
      bends: z.array(point).max(20).optional(),
      /** Cards to discard for the clips; chosen for you (lowest points first) when omitted. */
      pay: z.array(z.string().max(40)).max(20).optional(),
    })
    .strict(),
  z.object({ type: z.literal('pass') }).strict(),
]);

export type PCAction = z.infer<typeof actionSchema>;
export type BuildAction = Extract<PCAction, { type: 'build' }>;

const KINDS = ['obstacle', 'river', 'draw', 'discard', 'build', 'pass'];
const GENERIC =
  'That is not a Paperclip Railways move: draw, discard, build, pass (or obstacle and river during setup).';
const COORD_FIELDS = new Set(['x', 'y', 'at', 'bends', 'points']);

/** A short quote of something a player sent, never a wall of text. */
function quote(v: unknown): string {
  const t = typeof v === 'string' || typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v));
  return t.length > 24 ? `${t.slice(0, 21)}...` : t;
}

function valueAt(raw: unknown, path: (string | number)[]): unknown {
  let v = raw;
  for (const k of path)
    v = typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/** What is wrong with a move that failed the schema, in a player's words. */
export function explainBadAction(raw: unknown, error: z.ZodError): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return GENERIC;
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !KINDS.includes(type)) return GENERIC;
  const issue = error.issues[0];
  if (!issue) return GENERIC;
  const field = String(issue.path[0] ?? '');
  if (issue.code === 'unrecognized_keys')
    return `A ${type} move has no ${issue.keys.map((k) => `"${quote(k)}"`).join(', ')}.`;
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `A ${type} move needs "${field}".`;
  if (COORD_FIELDS.has(field)) {
    if (issue.path.length === 1 && issue.code === 'too_big' && field === 'bends')
      return `A link may have at most ${BOARD.maxBends} bends.`;
    if (issue.path.length === 1 && (issue.code === 'too_big' || issue.code === 'too_small') && field === 'points') {
      return `The river is a line of 2 to ${BOARD.river.maxPoints} points.`;
    }
    return `Coordinates are whole millimetres from -5000 to 5000, written as [x, y]; "${field}" is not (${quote(valueAt(raw, issue.path))}).`;
  }
  if (field === 'rot') return 'Turn an obstacle by 0, 90, 180 or 270 degrees.';
  if (issue.code === 'too_big' && issue.type === 'string') return `"${field}" is too long for a station or card id.`;
  if (issue.code === 'too_big' && issue.type === 'array') return `"${field}" names too many cards.`;
  if (issue.code === 'too_small' && issue.type === 'array') return `"${field}" must name at least one card.`;
  return `A ${type} move's "${field}" is not right: ${issue.message.toLowerCase()}.`;
}
