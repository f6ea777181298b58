// The mail's picture reads in a 360-640 px column: every game's picture for a mail
// (server/mail/compose.ts mailPicture, rules/picture.ts) has no word smaller than MAIL_MIN_TEXT px
// where the mail shows it (the PNG's width, at most 640 px), at the start, in the middle and late
// in a game, for every seat and a spectator; an Airlines Europe seat's licences and shares show in
// its own picture, and what changed since its last turn is ringed.
import { describe, expect, it } from 'vitest';
import { games } from '../../rules/index.ts';
import { MAIL_MIN_TEXT, MAIL_WIDTH, PHONE_MIN_TEXT, PHONE_WIDTH } from '../../rules/picture.ts';
import type { AnyRules } from '../../rules/types.ts';
import { mailPicture } from '../../server/mail/compose.ts';
import { ringChanges } from '../../server/http/page-parts.ts';
import { svgToPng } from '../../server/mail/snapshot.ts';
import { MAX_PNG_WIDTH, svgWidth } from '../../server/mail/raster.ts';
import { smallestWords, wordsOf } from '../support/legibility.ts';
import { positionAfter, positionsAfter } from '../support/playout.ts';
import { PHONE_PNG_WIDTH, phoneCloseUp } from '../../server/mail/closeup.ts';
import { board as aeBoard } from '../../rules/airlines-europe/board.ts';

const drawn = games.filter((g) => g.svg);

const seatsOf = (rules: AnyRules) => Math.min(rules.players.max, Math.max(rules.players.min, 3));

describe('the measure', () => {
  it('reads sizes through groups and transforms, at the width the mail shows the picture', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="100" viewBox="0 0 1280 100" font-size="20">' +
      '<text x="0" y="20">big</text><g font-size="30"><text x="0" y="50">bigger</text>' +
      '<g transform="translate(5,5) scale(0.5)"><text>small<tspan font-size="10">tiny</tspan></text></g></g></svg>';
    const words = Object.fromEntries(wordsOf(svg).map((w) => [w.text, w.px]));
    // drawn 1280 wide, shown at 640: half size
    expect(words).toEqual({ big: 10, bigger: 15, small: 7.5, tiny: 2.5 });
  });

  it("finds the pages' small print (the 1830 and Stephenson's Rocket maps at 640 px)", () => {
    for (const id of ['1830', 'stephensons-rocket']) {
      const rules = games.find((g) => g.id === id)!;
      const state = positionAfter(rules, 3, 60, 'picture-test');
      expect(smallestWords(rules.svg!(rules.view(state, 0)))[0]!.px).toBeLessThan(6);
    }
  });
});

// 40: early, while every game is still running (Airlines Europe and Paperclip can end before 120).
const MOMENTS = [0, 40, 120, 400];

describe.each(drawn.map((g) => [g.id, g] as const))('%s: the mail picture', (_id, rules) => {
  const seats = seatsOf(rules);
  // Each moment, and a round of turns before it (the seat's last turn, for the close-up).
  const lastTurn = (n: number) => Math.max(0, n - seats);
  const steps = [...new Set(MOMENTS.flatMap((n) => [lastTurn(n), n]))];
  const at = new Map(positionsAfter(rules, seats, steps, 'picture-test').map((state, i) => [steps[i]!, state]));
  const positions = [0, 120, 400].map((n) => at.get(n));

  it(`has no word under ${MAIL_MIN_TEXT} px where the mail shows it, for every seat and a spectator`, () => {
    for (const state of positions) {
      for (const seat of [...Array.from({ length: seats }, (_, s) => s), null]) {
        const svg = mailPicture(rules, rules.view(state, seat))!;
        // drawn for the column: at most a little wider than 640 (then shown at 640), never narrower
        const width = svgWidth(svg)!;
        expect(width).toBeGreaterThanOrEqual(MAIL_WIDTH);
        expect(width).toBeLessThanOrEqual(MAIL_WIDTH * 1.05);
        const words = wordsOf(svg);
        expect(words.length).toBeGreaterThan(10);
        const small = words.filter((w) => w.px < MAIL_MIN_TEXT - 0.05);
        expect(small.slice(0, 5), `seat ${seat}: words smaller than ${MAIL_MIN_TEXT} px`).toEqual([]);
      }
    }
  });

  it('rasterises at the mail column width', async () => {
    const png = await svgToPng(mailPicture(rules, rules.view(positions[1]!, 0))!, { cache: false });
    expect(png.readUInt32BE(16)).toBe(MAX_PNG_WIDTH);
  });

  /** The turn mail's close-up for `seat` at moment `n`, as the mail draws it (its last turn a round before). */
  const closeUp = (n: number, seat: number | null) => {
    const view = rules.view(at.get(n), seat);
    return phoneCloseUp({
      rows: rules.holdings?.(view),
      before: n > 0 ? mailPicture(rules, rules.view(at.get(lastTurn(n)), seat))! : null,
      after: mailPicture(rules, view),
    });
  };

  it(`has a close-up for a phone with no word under ${PHONE_MIN_TEXT} px at ${PHONE_WIDTH} px, for every seat and a spectator`, () => {
    let cutOuts = 0;
    for (const n of MOMENTS) {
      for (const seat of [...Array.from({ length: seats }, (_, s) => s), null]) {
        const svg = closeUp(n, seat);
        expect(svg, `a close-up at ${n} moves for seat ${seat}`).toBeDefined();
        const box = /viewBox="([^"]+)"/.exec(svg!)![1]!.split(' ').map(Number);
        expect(box[2]).toBe(PHONE_WIDTH);
        const words = wordsOf(svg!, PHONE_WIDTH);
        // its card: the status, and for a seat what it holds
        expect(words.length).toBeGreaterThan(seat === null ? 1 : 3);
        // a seat's own holdings; a spectator's card names nobody's as its own
        expect(words.some((w) => /^(You|Your) /.test(w.text))).toBe(seat !== null);
        const small = words.filter((w) => w.px < PHONE_MIN_TEXT - 0.05);
        expect(
          small.slice(0, 5),
          `${n} moves, seat ${seat}: words under ${PHONE_MIN_TEXT} px at ${PHONE_WIDTH}`,
        ).toEqual([]);
        // cut-outs of the board: at one unit a pixel (or larger), never shrunk
        for (const m of svg!.matchAll(
          /<svg x="0" y="[\d.]+" width="([\d.]+)" height="[\d.]+" viewBox="[-\d.]+ [-\d.]+ ([\d.]+) /g,
        )) {
          expect(Number(m[1]) / Number(m[2])).toBeGreaterThanOrEqual(1);
          cutOuts++;
        }
      }
    }
    // Somewhere in the game something changed on the board since a seat's last turn.
    expect(cutOuts).toBeGreaterThan(0);
  });

  it('rasterises the close-up sharp for a phone', async () => {
    const png = await svgToPng(closeUp(120, 0)!, { cache: false });
    expect(png.readUInt32BE(16)).toBe(PHONE_PNG_WIDTH);
  });
});

describe('Airlines Europe: the seat sees its own in its picture', () => {
  const ae = games.find((g) => g.id === 'airlines-europe')!;

  /** A position in the play phase where `seat` is to play and may buy two licences. */
  function buyingTwo(): { state: any; seat: number; action: any } {
    for (let steps = 6; steps < 200; steps++) {
      const state = positionAfter(ae, 3, steps, 'picture-test-ae');
      for (const seat of ae.toAct(state)) {
        const buy = (ae.moves(state, seat) as any[]).find((m) => m.type === 'buy' && m.licences.length === 2);
        if (buy) return { state, seat, action: buy };
      }
    }
    throw new Error('no seat could buy two licences');
  }

  it("draws the seat's new licences large and ringed, and lists its shares", () => {
    const { state, seat, action } = buyingTwo();
    const before = mailPicture(ae, ae.view(state, seat))!;
    ae.apply(state, seat, structuredClone(action));
    const after = mailPicture(ae, ae.view(state, seat))!;
    const scale = MAX_PNG_WIDTH / svgWidth(after)!;
    // Each new licence: a circle in its airline's colour, at least 8 px across... in fact 16.
    for (const l of action.licences as { airline: string; route: string }[]) {
      const colour = aeBoard.airlineById[l.airline]!.colour;
      const circles = [...after.matchAll(new RegExp(`<circle [^>]*r="([\\d.]+)" fill="${colour}"`, 'g'))].map(
        (m) => Number(m[1]) * scale,
      );
      expect(circles.length, `${l.airline} licences drawn`).toBeGreaterThan(0);
      expect(Math.min(...circles)).toBeGreaterThanOrEqual(8);
    }
    // What changed is ringed on the board: at least the two new licences.
    const ringed = ringChanges(before, after);
    const rings = /<g class="changed">(.*?)<\/g>/.exec(ringed)?.[1] ?? '';
    expect(rings.match(/<rect /g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    // Its shares, by name and count, in words the mail shows large enough.
    const view = ae.view(state, seat) as unknown as {
      players: { seat: number; portfolio: { name: string; count: number }[] }[];
    };
    const mine = view.players.find((p) => p.seat === seat)!.portfolio;
    expect(mine.length).toBeGreaterThan(0);
    const words = wordsOf(after);
    expect(words.some((w) => w.text === 'Your shares:' && w.px >= MAIL_MIN_TEXT)).toBe(true);
    for (const share of mine) expect(words.map((w) => w.text)).toContain(`${share.name} ×${share.count}`);
    // Another seat's picture does not call them its own.
    const other = (seat + 1) % 3;
    const theirs = wordsOf(mailPicture(ae, ae.view(state, other))!);
    expect(theirs.some((w) => w.text === 'Your shares:')).toBe(true);
    expect(mailPicture(ae, ae.view(state, null))).not.toContain('Your shares:');
  });
});

describe('1830: the seat sees its own in its picture', () => {
  it('names its cash, shares, presidencies and privates under the status line', () => {
    const g = games.find((x) => x.id === '1830')!;
    const state = positionAfter(g, 3, 300, 'picture-test');
    const view = g.view(state, 1) as unknown as {
      players: { seat: number; cash: number; shares: Record<string, number>; privates: string[] }[];
    };
    const me = view.players.find((p) => p.seat === 1)!;
    const line = wordsOf(mailPicture(g, g.view(state, 1))!).find((w) => w.text.startsWith('You: '))!;
    expect(line.text).toContain(`You: $${me.cash}`);
    for (const [sym, pc] of Object.entries(me.shares)) expect(line.text).toContain(`${sym} ${pc}%`);
    for (const p of me.privates) expect(line.text).toContain(p);
    expect(line.px).toBeGreaterThanOrEqual(MAIL_MIN_TEXT);
    expect(mailPicture(g, g.view(state, null))).not.toContain('You: ');
  });
});

describe('the turn mail', () => {
  it("links the board picture to the seat's page, where it zooms", async () => {
    const { MailRenderer } = await import('../../server/mail/render.ts');
    const ae = games.find((g) => g.id === 'airlines-europe')!;
    const view = ae.view(positionAfter(ae, 3, 40, 'picture-test'), 0);
    const mail = await new MailRenderer().render(
      {
        kind: 'turn',
        game: { id: 'g', title: ae.title, seq: 40 },
        players: [],
        you: 0,
        recipientName: 'Ada',
        view,
        svg: mailPicture(ae, view),
        links: { play: 'http://localhost/play/KEY' },
      },
      ae.id,
      { pngCache: false },
    );
    expect(mail.png?.readUInt32BE(16)).toBe(MAX_PNG_WIDTH);
    expect(mail.html).toMatch(/<a href="http:\/\/localhost\/play\/KEY"[^>]*><img src="cid:board"[^>]*width="640"/);
  });
});
