// The operating-round form works without script: every ready-made choice on the
// acting president's page (tile lays, stations, the routes field, pay out / withhold,
// trains, privates, discards) is a text command that parses and is legal as it stands,
// and what the players of a real game did was among the choices offered.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { game1830 as g, type Game1830State } from '../../../rules/1830/index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { routesToText } from '../../../rules/1830/track/index.ts';
import { PageRenderer } from '../../../server/render.ts';

/** The commands a form posts as it stands: input values, select options, submit buttons. */
function formCommands(html: string): string[][] {
  const forms: string[][] = [];
  for (const m of html.matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    const f = m[0];
    const cmds: string[] = [];
    for (const i of f.matchAll(/<input name="command"[^>]*value="([^"]*)"/g)) cmds.push(i[1]!);
    for (const sel of f.matchAll(/<select name="command"[^>]*>([\s\S]*?)<\/select>/g)) {
      for (const o of sel[1]!.matchAll(/<option value="([^"]*)"/g)) cmds.push(o[1]!);
    }
    for (const b of f.matchAll(/<button type="submit" name="command" value="([^"]*)"/g)) cmds.push(b[1]!);
    if (cmds.length)
      forms.push(
        cmds.map((c) =>
          c
            .replace(/&amp;/g, '&')
            .replace(/&#x3D;/g, '=')
            .replace(/&quot;/g, '"')
            .replace(/&#x27;/g, "'"),
        ),
      );
  }
  return forms;
}

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../fixtures/18xx.games/1830/${name}.json`, import.meta.url), 'utf8'),
  ) as Export18xx;

describe('1830 operating turn from the page without script', () => {
  it('every ready-made command of the form is legal, and the real move was offered', () => {
    const r = new PageRenderer();
    const e = fixture('29133');
    const players = e.players.map((p, seat) => ({ seat, name: p.name }));
    const { log, options } = importExport(e);
    const s = g.setup(e.players.length, 'form', options);
    let tried = 0;
    const offered: Record<string, [number, number]> = {};
    for (let i = 0; i < log.length; i++) {
      const { seat, action } = log[i]!;
      if (s.round.kind === 'operating' && action.type !== 'exchange') {
        const view = g.view(s, seat);
        const html = r.gameForm('1830', {
          view,
          players,
          you: seat,
          game: { id: 'g', title: '1830', seq: i },
          moveUrl: '/m',
          seq: i,
        })!;
        const cmds = formCommands(html).flat();
        for (const c of cmds.length > 12 ? [...cmds.slice(0, 6), ...cmds.slice(-6)] : cmds) {
          const copy = structuredClone(s) as Game1830State;
          const a = g.parse!(c, copy, seat);
          expect(() => g.apply(copy, seat, a), `${c} at ${i}`).not.toThrow();
          tried++;
        }
        // the move the players made, as the page would offer it
        let mine: string | null = null;
        if (action.type === 'layTile' && !action.via) mine = `lay ${action.hex} ${action.tile} ${action.rotation}`;
        if (action.type === 'placeToken' && !action.via) mine = `token ${action.hex} ${action.city}`;
        if (action.type === 'dividend') mine = action.kind;
        if (action.type === 'discardTrain') mine = `discard ${action.train}`;
        if (action.type === 'buyTrain') mine = `buy train ${action.train} `;
        if (action.type === 'buyCompany') mine = `buy ${action.company} `;
        if (action.type === 'runRoutes') mine = 'run ';
        if (mine) {
          const k = action.type;
          offered[k] ??= [0, 0];
          offered[k][1]++;
          // a rotation giving the same track counts as the same lay
          const same = (c: string) =>
            c === mine ||
            c.startsWith(mine!) ||
            (action.type === 'layTile' && c.startsWith(`lay ${action.hex} ${action.tile} `));
          if (cmds.some(same)) offered[k][0]++;
          else if (action.type !== 'layTile' && action.type !== 'placeToken')
            expect.fail(`${JSON.stringify(action)} not offered at ${i}: ${cmds.slice(0, 8).join(' | ')}`);
        }
        if (action.type === 'runRoutes') {
          // the routes field holds the suggestion as text; typing the players' own routes works too
          const own = g.parse!(`run ${routesToText(action.routes)}`, s, seat);
          const copy = structuredClone(s);
          g.apply(copy, seat, own);
          const ref = structuredClone(s);
          g.apply(ref, seat, action);
          expect(JSON.stringify(copy.corps), `routes typed at ${i}`).toBe(JSON.stringify(ref.corps));
        }
      }
      g.apply(s, seat, action);
    }
    expect(tried).toBeGreaterThan(500);
    for (const k of ['layTile', 'placeToken', 'runRoutes', 'dividend', 'buyTrain', 'buyCompany', 'discardTrain'])
      expect(offered[k], k).toBeDefined();
    // every tile lay and station of the game was in the lists (rotations giving the same track aside)
    expect(offered.layTile![0]).toBe(offered.layTile![1]);
    expect(offered.placeToken![0]).toBe(offered.placeToken![1]);
  });
});

describe('1830 quick links', () => {
  it("a turn mail's first twelve moves hold the usual stock-round moves and the usual operating moves", () => {
    const e = fixture('29133');
    const { log, options } = importExport(e);
    const s = g.setup(e.players.length, 'links', options);
    const seen = new Set<string>();
    for (const { seat, action } of log) {
      if (!s.finished && s.round.kind !== 'auction') {
        const all = g.moves(s, seat);
        const first = all.slice(0, 12);
        const kinds = new Set(
          first.map((m) => (m.type === 'buy' ? `buy ${m.from}` : m.type === 'dividend' ? m.kind : m.type)),
        );
        if (s.round.kind === 'stock') {
          if (all.some((m) => m.type === 'pass')) expect(kinds.has('pass')).toBe(true);
          if (all.some((m) => m.type === 'buy' && m.from === 'ipo')) expect(kinds.has('buy ipo')).toBe(true);
          if (all.some((m) => m.type === 'sell')) expect(kinds.has('sell')).toBe(true);
        } else {
          const r = s.round;
          if (r.step === 'route' && all.length) expect(first[0]!.type).toBe('runRoutes');
          if (r.step === 'dividend' && all.length) expect(first[0]).toEqual({ type: 'dividend', kind: 'payout' });
          if (r.step === 'train' && all.some((m) => m.type === 'buyTrain')) expect(first[0]!.type).toBe('buyTrain');
        }
        for (const k of kinds) seen.add(`${s.round.kind} ${k}`);
        for (const m of first) expect(g.describe(m, s, seat)).toMatch(/^[a-z]/);
      }
      g.apply(s, seat, action);
    }
    for (const k of [
      'stock buy ipo',
      'stock buy pool',
      'stock sell',
      'stock pass',
      'stock par',
      'operating runRoutes',
      'operating payout',
      'operating buyTrain',
      'operating layTile',
      'operating placeToken',
      'operating pass',
    ]) {
      expect(seen.has(k), k).toBe(true);
    }
  });
});

describe('1830 run and pay out in one move', () => {
  it('runs the suggested routes and pays out (or withholds) at once, as one quick link', () => {
    const e = fixture('29133');
    const { log, options } = importExport(e);
    const s = g.setup(e.players.length, 'one', options);
    let n = 0;
    for (let i = 0; i < log.length; i++) {
      const { seat, action } = log[i]!;
      const next = log[i + 1]?.action;
      if (action.type === 'runRoutes' && next?.type === 'dividend' && n < 12) {
        const two = structuredClone(s);
        g.apply(two, seat, action);
        g.apply(two, seat, next);
        const one = structuredClone(s);
        const combined = { ...action, dividend: next.kind };
        const line = g.describe(combined, one, seat);
        expect(line).toMatch(
          next.kind === 'payout' ? / and pays out \$\d+ per share \([A-Z&]+ (rises|stays)/ : / and withholds it \(/,
        );
        g.apply(one, seat, combined);
        expect(JSON.stringify(one)).toBe(JSON.stringify(two));
        const ms = g.moves(s, seat);
        expect(ms[0]).toMatchObject({ type: 'runRoutes', dividend: 'payout' });
        expect(g.parse!('run payout', s, seat)).toMatchObject({ type: 'runRoutes', dividend: 'payout' });
        n++;
      }
      g.apply(s, seat, action);
    }
    expect(n).toBe(12);
  });
});

describe('1830 plain-text mail view', () => {
  it('gives the acting president the suggested routes as a command, and the trains the corporation can buy', () => {
    const e = fixture('29133');
    const { log, options } = importExport(e);
    const s = g.setup(e.players.length, 'txt', options);
    const players = e.players.map((p, seat) => ({ seat, name: p.name }));
    const r = new PageRenderer();
    const seen = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const seat = log[i]!.seat;
      if (s.round.kind === 'operating') {
        const text = r.gameViewText('1830', {
          view: g.view(s, seat),
          players,
          you: seat,
          game: { id: 'g', title: '1830', seq: i },
        })!;
        if (s.round.step === 'route') {
          expect(text).toMatch(/As a command: run (\d|D)-\d+: [A-K]\d+-/);
          seen.add('route');
        }
        if (s.round.step === 'train' && /Trains \S+ can buy/.test(text)) seen.add('train');
        const other = r.gameViewText('1830', {
          view: g.view(s, (seat + 1) % s.seats),
          players,
          you: (seat + 1) % s.seats,
          game: { id: 'g', title: '1830', seq: i },
        })!;
        expect(other).not.toMatch(/As a command/);
      }
      g.apply(s, seat, log[i]!.action);
    }
    expect([...seen].sort()).toEqual(['route', 'train']);
  });
});
