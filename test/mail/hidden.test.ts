// Hidden information in mail: for every registered game (and High Card), the
// turn mail to one seat never contains what only another seat may see.
// Generic check: every text item (card, tile, share id...) in another seat's
// view that appears nowhere in this seat's view must not appear in this
// seat's mail, nor may the JSON of any longer private field. High Card is
// also checked with its concrete hand cards. The words of the mail's pictures (the board and
// the close-up for a phone, as SVG before they are drawn) are checked with the text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import type { AnyRules, View } from '../../rules/types.ts';
import { randomInt, seedRandom } from '../../rules/random.ts';
import { highCard, type HighCardState } from '../support/high-card.ts';
import { pixelComposer } from '../support/composer.ts';
import { makeService, type TestService } from '../support/service.ts';
import type { MailComposer } from '../../server/mail/compose.ts';
import type { OutgoingMail } from '../../server/mail/message.ts';

const registry: AnyRules[] = [...games.filter((g) => g.id !== highCard.id), highCard];
let t: TestService;
let composer: MailComposer;
/** The SVG of every picture the mails asked to be drawn (the pixels are not needed here). */
let drawn: string[] = [];

beforeAll(async () => {
  t = await makeService(registry);
  composer = pixelComposer(t, (svg) => {
    drawn.push(svg);
  });
});

/** The words of an SVG document (its text, tags left out). */
function svgWords(svg: string): string {
  return svg.replace(/<[^>]*>/g, ' ').replace(/&amp;/g, '&');
}
afterAll(async () => {
  await t.cleanup();
});

const SKIP = new Set(['seat', 'toAct', 'status']);

/** String leaves of a value (ids, names of cards...). */
function strings(v: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof v === 'string') out.add(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What seat A's mail must not contain, taken from seat B's view: anything
 * that appears neither in what A may know (`known`: A's view, the spectator
 * view, the public history, A's own moves) nor elsewhere in public.
 */
function secretsOf(known: string, viewA: View, viewB: View): { items: string[]; json: string[] } {
  const a = known;
  const items: string[] = [];
  const json: string[] = [];
  for (const [k, vb] of Object.entries(viewB)) {
    if (SKIP.has(k)) continue;
    const jb = JSON.stringify(vb);
    if (jb === JSON.stringify(viewA[k])) continue;
    if ((jb.length >= 12 || (jb.length >= 5 && /^[[{]/.test(jb))) && !a.includes(jb)) json.push(jb);
    for (const s of strings(vb)) if (s.length >= 3 && !/^\s*$/.test(s) && !a.includes(s)) items.push(s);
  }
  return { items: [...new Set(items)], json };
}

async function startedGame(rules: AnyRules, seed: number) {
  const seats = Math.min(rules.players.max, Math.max(rules.players.min, 3));
  const created = await t.service.create({ rules: rules.id, seats, name: 'P0', email: 'p0@example.test', join: true });
  for (let i = 1; i < seats; i++) await t.service.join(created.gameId, { name: `P${i}`, email: `p${i}@example.test` });
  let game = await t.service.open(created.gameId);
  if (game.doc.status === 'open') {
    await t.service.start(created.gameId);
    game = await t.service.open(created.gameId);
  }
  // A few seeded moves so the position is not the bare set-up.
  const pick = seedRandom(`hidden:${rules.id}:${seed}`);
  for (let step = 0; step < 4; step++) {
    const toAct = rules.toAct(game.state);
    if (toAct.length === 0) break;
    const seat = toAct[randomInt(pick, toAct.length)]!;
    const moves = rules.moves(game.state, seat);
    if (moves.length === 0) break;
    await t.service.move(created.gameId, seat, {
      seq: game.stateSeq,
      action: structuredClone(moves[randomInt(pick, moves.length)]),
    });
    game = await t.service.open(created.gameId);
    if (rules.toAct(game.state).length === 0) break;
  }
  return game;
}

async function turnMail(gameId: string, seat: number): Promise<OutgoingMail & { pictures: string[] }> {
  const game = await t.service.open(gameId);
  const rec = game.doc.seats[seat]!;
  drawn = [];
  const mail = await composer.compose(
    { type: 'turn', gameId, seat, slot: rec.slot, generation: rec.generation, stateSeq: game.stateSeq },
    `hidden:${gameId}:${seat}`,
  );
  expect(mail, `a turn mail for seat ${seat}`).not.toBeNull();
  return { ...mail!, pictures: drawn };
}

describe('hidden information in mail', () => {
  for (const rules of registry) {
    it(`${rules.id}: a seat's turn mail shows nothing only another seat may see`, async () => {
      const game = await startedGame(rules, 1);
      const toAct = rules.toAct(game.state);
      expect(toAct.length).toBeGreaterThan(0);
      let checked = 0;
      for (const a of toAct) {
        const mail = await turnMail(game.doc.id, a);
        expect(`${mail.text}\n${mail.html}`, "the game's partials render in mail").not.toContain('could not be shown');
        if (rules.svg) expect(mail.attachments?.[0]?.cid, 'the board PNG').toBe('board');
        // The close-up for a phone is drawn too, from this seat's own views.
        if (rules.holdings) expect(mail.attachments?.some((a) => a.cid === 'closeup')).toBe(true);
        expect(mail.pictures.length).toBe((rules.svg ? 1 : 0) + (rules.holdings ? 1 : 0));
        const body = `${mail.subject}\n${mail.text}\n${mail.html ?? ''}\n${mail.pictures.map(svgWords).join('\n')}`;
        const viewA = rules.view(game.state, a);
        const fresh = await t.service.open(game.doc.id);
        const known = [
          JSON.stringify(viewA),
          JSON.stringify(rules.view(game.state, null)),
          ...t.service.historyLines(fresh).map((l) => l.text),
          ...t.service.movesFor(fresh, a).map((m) => `${m.text} ${JSON.stringify(m.action)}`),
        ].join('\n');
        for (let b = 0; b < game.doc.seats.length; b++) {
          if (b === a) continue;
          const { items, json } = secretsOf(known, viewA, rules.view(game.state, b));
          for (const j of json) expect(body, `seat ${a}'s mail contains seat ${b}'s private ${j}`).not.toContain(j);
          for (const s of items) {
            expect(body, `seat ${a}'s mail contains "${s}" from seat ${b}'s view`).not.toMatch(
              new RegExp(`(^|[^A-Za-z0-9_])${escapeRe(s)}($|[^A-Za-z0-9_])`),
            );
            checked++;
          }
        }
      }
      if (rules.id === highCard.id) {
        // The concrete values: no other seat's hand card appears as a card in the mail.
        const s = game.state as HighCardState;
        for (const a of toAct) {
          const mail = await turnMail(game.doc.id, a);
          const own = [...s.hands[a]!].sort((x, y) => x - y);
          expect(mail.text).toContain(`Hand: ${own.join(', ')}`);
          for (let b = 0; b < s.hands.length; b++) {
            if (b === a) continue;
            for (const card of s.hands[b]!) {
              expect(mail.text).not.toMatch(new RegExp(`card ${card}\\b`));
              expect(own.includes(card)).toBe(false);
            }
            // the whole line: another hand of [1] must not match our own "Hand: 10, 14"
            const theirs = [...s.hands[b]!].sort((x, y) => x - y).join(', ');
            expect(mail.text).not.toMatch(new RegExp(`^Hand: ${theirs}$`, 'm'));
          }
        }
      }
      void checked;
    });
  }
});
