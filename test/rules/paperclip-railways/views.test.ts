// Hidden information: hands, the pile's order, and the face-down stations of setup.
import { describe, expect, it } from 'vitest';
import { randomPlayout } from '../../support/playout.ts';
import { R } from './table.ts';

function playedTo(seats: number, steps: number, seed = `views-${seats}`) {
  const s = R.setup(seats, seed, {});
  for (let i = 0; i < steps && R.toAct(s).length; i++) {
    const seat = R.toAct(s)[0]!;
    R.apply(s, seat, R.moves(s, seat).find((m) => m.type === 'draw') ?? R.moves(s, seat)[0]);
  }
  return s;
}

describe('views', () => {
  it("shows a hand only to its holder, by card id, and never the pile's order", () => {
    const s = playedTo(3, 12);
    expect(s.phase).not.toBe('obstacles');
    for (let seat = 0; seat < 3; seat++) {
      const mine = s.hands[seat]!;
      expect(mine.length).toBeGreaterThan(0);
      const own = R.view(s, seat) as any;
      expect(own.hand.map((c: { id: string }) => c.id)).toEqual(mine);
      for (const other of [null, ...[0, 1, 2].filter((x) => x !== seat)]) {
        const text = JSON.stringify(R.view(s, other));
        for (const c of mine) expect(text).not.toContain(`"${c}"`);
      }
    }
    for (const seat of [null, 0, 1, 2]) {
      const text = JSON.stringify(R.view(s, seat));
      for (const c of s.deck) expect(text).not.toContain(`"${c}"`);
      for (const c of s.box) expect(text).not.toContain(`"${c}"`);
      expect((R.view(s, seat) as any).players.map((p: any) => p.handSize)).toEqual(s.hands.map((h) => h.length));
    }
  });

  it('keeps border and starting stations face down until setup is done', () => {
    const s = R.setup(4, 'face-down', {});
    const hidden = s.stations.filter((x) => x.kind === 'card').map((x) => x.card!);
    const owners = s.stations.filter((x) => x.kind === 'start');
    for (const seat of [null, 0, 1, 2, 3]) {
      const v = R.view(s, seat) as any;
      const text = JSON.stringify(v);
      for (const c of hidden) expect(text).not.toContain(`"${c}"`);
      // Which starting station is whose is hidden too: no owner and no S-id on the table.
      const starts = v.stations.filter((x: any) => x.kind === 'start');
      expect(starts).toHaveLength(owners.length);
      for (const st of starts) {
        expect(st.id).toMatch(/^face-down-/);
        expect(st.owner).toBeUndefined();
      }
    }
    const done = playedTo(4, 5, 'face-down');
    expect(done.phase).toBe('play');
    const v = R.view(done, 0) as any;
    expect(
      v.stations
        .filter((x: any) => x.kind === 'card')
        .map((x: any) => x.id)
        .sort(),
    ).toEqual([...hidden].sort());
  });

  it('describes draws without naming the cards drawn', () => {
    const { actions, state } = randomPlayout(R, 2, 'describe-hidden');
    expect(state.phase).toBe('over');
    const s = R.setup(2, 'describe-hidden', {});
    for (const { seat, action } of actions) {
      const line = R.describe(action as any, s, seat);
      const handBefore = [...s.hands[seat]!];
      R.apply(s, seat, structuredClone(action));
      if ((action as any).type === 'draw') {
        const drawn = s.hands[seat]!.filter((c) => !handBefore.includes(c));
        for (const c of drawn) expect(line).not.toContain(c);
        expect(line).toMatch(/^drew/);
      }
      if ((action as any).type === 'discard') expect(line).toMatch(/^discarded \d cards?/);
    }
  });
});

describe('hidden information, byte for byte', () => {
  it("other seats' views, SVG, pages, mail text, form and history lines are the same whatever seat 1 holds and however the pile lies", async () => {
    const { PageRenderer } = await import('../../../server/render.ts');
    const renderer = new PageRenderer();
    const players = [0, 1, 2].map((seat) => ({ seat, name: ['Ada', 'Bob', 'Cy'][seat]! }));
    let k = 6;
    while (playedTo(3, k, 'hidden-bytes').phase !== 'play') k++;
    const a = playedTo(3, k, 'hidden-bytes');
    expect(a.hands[1]!.length).toBeGreaterThan(2);
    // The same table, but seat 1 holds other cards (taken from the pile) and the pile is in another order.
    const b = structuredClone(a);
    const n = b.hands[1]!.length;
    const fromPile = b.deck.filter((c) => c !== 'end-of-line').slice(0, n);
    expect(fromPile).toHaveLength(n);
    b.deck = b.deck.map((c) => (fromPile.includes(c) ? a.hands[1]![fromPile.indexOf(c)]! : c));
    b.hands[1] = fromPile;
    const eol = b.deck.indexOf('end-of-line');
    b.deck = [...b.deck.filter((c) => c !== 'end-of-line').reverse()];
    b.deck.splice(eol, 0, 'end-of-line');
    expect(b.hands[1]).not.toEqual(a.hands[1]);
    expect(b.deck).not.toEqual(a.deck);
    const seq = 7;
    const render = (s: typeof a, seat: number | null) => {
      const view = R.view(s, seat);
      const ctx = {
        view,
        players,
        you: seat,
        game: { id: 'g', title: 'Paperclip Railways', seq },
        moveUrl: '/play/k/move',
        seq,
        moves: [],
      };
      return [
        JSON.stringify(view),
        R.svg!(view),
        renderer.gameView('paperclip-railways', ctx) ?? '',
        renderer.gameViewText('paperclip-railways', ctx) ?? '',
        renderer.gameForm('paperclip-railways', ctx) ?? '',
      ];
    };
    for (const seat of [null, 0, 2]) {
      const [va, vb] = [render(a, seat), render(b, seat)];
      for (let i = 0; i < va.length; i++) expect(vb[i], `seat ${seat}, part ${i}`).toBe(va[i]);
      // Byte-identical above is the guarantee; the JSON view also names none of those cards.
      for (const c of [...a.hands[1]!, ...b.hands[1]!]) expect(va[0]).not.toContain(`"${c}"`);
    }
    // Seat 1's own page does show its hand.
    expect(render(a, 1)[0]).toContain(a.hands[1]![0]!);
    // History lines for seat 1's moves name no hidden card.
    a.turn = b.turn = 1;
    expect(R.describe({ type: 'draw' }, b, 1)).toBe(R.describe({ type: 'draw' }, a, 1));
    const move = R.moves(a, 1).find((m) => m.type === 'build' && 'to' in m && m.to !== undefined) as any;
    expect(move).toBeDefined();
    const { pay: _pay, ...auto } = move;
    expect(R.describe(auto, b, 1)).toMatch(/^built .* paying \d cards?/);
    expect(R.describe(auto, b, 1)).toBe(R.describe(auto, a, 1));
  });
});
