// The game's data files, checked against their schemas once at load.
import { z } from 'zod';
import cardsJson from './data/cards.json' with { type: 'json' };
import boardJson from './data/board.json' with { type: 'json' };

export const STATION_TYPES = ['city', 'town', 'suburban', 'countryside', 'blank'] as const;
export type StationType = (typeof STATION_TYPES)[number];

const typeSchema = z.enum(STATION_TYPES);
const lengthsSchema = z
  .object({
    city: z.number().int().min(1),
    town: z.number().int().min(1),
    suburban: z.number().int().min(1),
    countryside: z.number().int().min(1),
    blank: z.number().int().min(1),
  })
  .partial()
  .strict();

/** Effect kinds the engine implements generically (see effects.ts). */
export const effectSchema = z.discriminatedUnion('kind', [
  z.object({ when: z.literal('build'), kind: z.literal('points'), amount: z.number().int().min(1) }),
  z.object({ when: z.literal('build'), kind: z.literal('draw'), amount: z.number().int().min(1) }),
  z.object({ when: z.literal('build'), kind: z.literal('freeClips'), amount: z.number().int().min(1) }),
  z.object({ when: z.literal('ongoing'), kind: z.literal('toll'), amount: z.number().int().min(1) }),
  z.object({ when: z.literal('ongoing'), kind: z.literal('bridge'), amount: z.literal(0) }),
  z.object({ when: z.literal('end'), kind: z.literal('perCube'), amount: z.number().int().min(1) }),
  z.object({ when: z.literal('end'), kind: z.literal('majority'), amount: z.number().int().min(1) }),
]);
export type Effect = z.infer<typeof effectSchema>;

export const cardSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    type: typeSchema,
    points: z.number().int().min(0),
    cubes: z.number().int().min(1),
    minLength: lengthsSchema,
    effect: effectSchema.optional(),
  })
  .strict();
export type Card = z.infer<typeof cardSchema>;

const deckSchema = z.object({ cards: z.array(cardSchema).length(99) }).superRefine((d, ctx) => {
  const count = (t: StationType) => d.cards.filter((c) => c.type === t).length;
  const want: Record<StationType, number> = { city: 11, town: 33, suburban: 29, countryside: 23, blank: 3 };
  for (const t of STATION_TYPES) {
    if (count(t) !== want[t]) ctx.addIssue({ code: 'custom', message: `${t}: ${count(t)} cards, want ${want[t]}` });
  }
  if (new Set(d.cards.map((c) => c.id)).size !== d.cards.length)
    ctx.addIssue({ code: 'custom', message: 'duplicate card ids' });
  for (const c of d.cards) {
    if (Object.keys(c.minLength).length === 0) ctx.addIssue({ code: 'custom', message: `${c.id} links to no type` });
  }
});

const pt = z.tuple([z.number().int(), z.number().int()]);
const supplySchema = z.object({ cubes: z.number().int(), clips: z.number().int(), draw: z.number().int() });
const boardSchema = z.object({
  clipLength: z.number().int().positive(),
  card: z.object({ w: z.number().int().positive(), h: z.number().int().positive() }),
  supplies: z.record(z.enum(['2', '3', '4', '5']), supplySchema),
  handSize: z.number().int(),
  handLimit: z.number().int(),
  penalty: z.object({ start: z.number().int(), max: z.number().int() }),
  river: z.object({ clips: z.number().int(), maxPoints: z.number().int() }),
  maxBends: z.number().int(),
  areas: z.record(z.enum(['2', '3', '4', '5']), z.object({ shape: z.string(), corners: z.array(pt).min(3) })),
  obstacleOrder: z.record(z.enum(['2', '3', '4', '5']), z.array(z.tuple([z.number().int(), z.number().int()]))),
  obstacles: z.array(
    z.object({ id: z.string(), name: z.string(), kind: z.enum(['mountain', 'lake']), shape: z.array(pt).min(4) }),
  ),
  metropolis: z.object({
    board: z.object({ w: z.number().int(), h: z.number().int() }),
    regions: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          type: typeSchema,
          points: z.number().int(),
          x: z.number().int(),
          y: z.number().int(),
          w: z.number().int(),
          h: z.number().int(),
          minLength: lengthsSchema,
        }),
      )
      .length(4),
  }),
  gigantopolis: z.object({
    board: z.object({ w: z.number().int(), h: z.number().int() }),
    spots: z.array(pt).length(4),
  }),
  start: z.object({
    points: z.number().int(),
    cubes: z.number().int(),
    minLength: lengthsSchema,
    colours: z.array(z.object({ name: z.string(), fill: z.string() })).length(5),
  }),
  longestLinkBonus: z.number().int(),
});

export const CARDS: Card[] = deckSchema.parse(cardsJson).cards;
export const CARD_BY_ID: Record<string, Card> = Object.fromEntries(CARDS.map((c) => [c.id, c]));
export const BOARD = boardSchema.parse(boardJson);
export type Board = typeof BOARD;

export function seatsKey(n: number): '2' | '3' | '4' | '5' {
  if (n < 2 || n > 5) throw new Error(`Paperclip Railways is for 2 to 5 players, not ${n}`);
  return String(n) as '2' | '3' | '4' | '5';
}

/** The End of Line card's id in the deck. */
export const END_OF_LINE = 'end-of-line';
