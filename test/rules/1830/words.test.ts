// Text commands, history lines, and the invariants check.
import { describe, expect, it } from 'vitest';
import { game1830 as g } from '../../../rules/1830/index.ts';
import { RuleError } from '../../../rules/types.ts';
import { readFileSync } from 'node:fs';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';

describe('1830 commands and words', () => {
  const s = g.setup(3, 'words', {});
  it('parses the usual commands', () => {
    expect(g.parse!('bid CA 165', s, 0)).toEqual({ type: 'bid', company: 'CA', price: 165 });
    expect(g.parse!('buy PRR ipo', s, 0)).toEqual({ type: 'buy', corp: 'PRR', from: 'ipo' });
    expect(g.parse!('buy nyc pool', s, 0)).toEqual({ type: 'buy', corp: 'NYC', from: 'pool' });
    expect(g.parse!('sell NYC 2', s, 0)).toEqual({ type: 'sell', corp: 'NYC', percent: 20 });
    expect(g.parse!('par B&O 67', s, 0)).toEqual({ type: 'par', corp: 'B&O', price: 67 });
    expect(g.parse!('pass', s, 0)).toEqual({ type: 'pass' });
    expect(g.parse!('buy train', s, 0)).toEqual({ type: 'buyTrain', train: '2-0', price: 80 });
    expect(g.parse!('lay H10 57 1', s, 0)).toEqual({ type: 'layTile', hex: 'H10', tile: '57', rotation: 1 });
    expect(() => g.parse!('buy XYZ ipo', s, 0)).toThrow(RuleError);
    expect(() => g.parse!('dance', s, 0)).toThrow(/commands:/i);
  });
  it('refuses typed numbers that are negative, fractional or out of range with the usage, not a move the rules then reject', () => {
    for (const [text, usage] of [
      ['bid CA -5', /bid CA 165/],
      ['bid CA 1e3', /bid CA 165/],
      ['par PRR -67', /par PRR 67/],
      ['buy CA -1', /buy CA 160/],
      ['buy train 2-0 -5', /buy train 3-1 120/],
      ['sell NYC -1', /sell NYC 2/],
      ['sell NYC 2.5', /sell NYC 2/],
      ['lay H10 57 7', /lay H10 57 1/],
      ['lay H10 57 -1', /lay H10 57 1/],
      ['exchange junk', /"ipo" or "pool"/],
    ] as const) {
      expect(() => g.parse!(text, s, 0), text).toThrow(RuleError);
      expect(() => g.parse!(text, s, 0), text).toThrow(usage);
    }
    expect(g.parse!('exchange pool', s, 0)).toEqual({ type: 'exchange', company: 'MH', from: 'pool' });
    expect(g.parse!('exchange M&H', s, 0)).toEqual({ type: 'exchange', company: 'MH', from: 'ipo' });
    expect(g.parse!('exchange MH pool', s, 0)).toEqual({ type: 'exchange', company: 'MH', from: 'pool' });
  });
  it('names the wrong part of a badly formed move, and leaves the state alone', () => {
    const st = g.setup(3, 'shape', {});
    const before = JSON.stringify(st);
    const refusal = (raw: unknown): string => {
      try {
        g.apply(st, 0, raw);
      } catch (e) {
        expect(e).toBeInstanceOf(RuleError);
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ type: 'bid', company: 'CA', price: 1.5 })).toMatch(
      /^That bid move is not well formed \(price: .*integer/,
    );
    expect(refusal({ type: 'layTile', hex: 'H10', tile: '57', rotation: 9 })).toMatch(/layTile move .*rotation: .*5/);
    expect(refusal({ type: 'pass', extra: 1 })).toMatch(/pass move .*'extra'/);
    expect(refusal({ type: 'dance' })).toBe('That is not a move of 1830');
    expect(refusal([])).toBe('That is not a move of 1830');
    expect(JSON.stringify(st)).toBe(before);
  });
  it('describes moves in 18xx words', () => {
    // the server writes the player's name in front: the line starts with the verb
    expect(g.describe({ type: 'bid', company: 'SV', price: 20 }, s, 0)).toBe('buys Schuylkill Valley (SV) for $20');
    expect(g.describe({ type: 'bid', company: 'CA', price: 165 }, s, 0)).toBe('bids $165 for CA');
    expect(g.describe({ type: 'pass' }, s, 0)).toBe('passes');
  });
  it('every line of two real games starts with a verb and names the corporation, costs and effects, also from the state after', () => {
    const lines: string[] = [];
    for (const name of ['29133', '26855']) {
      const exp = JSON.parse(
        readFileSync(new URL(`../../fixtures/18xx.games/1830/${name}.json`, import.meta.url), 'utf8'),
      ) as Export18xx;
      const { seats, options, log } = importExport(exp);
      const st = g.setup(seats.length, 'w', options);
      for (const { seat, action } of log) {
        const line = g.describe(action, st, seat);
        expect(line, JSON.stringify(action)).toMatch(/^[a-z]/);
        expect(line).not.toMatch(/Player|undefined|null|NaN/);
        lines.push(line);
        // The server hands over the state it has just played the move to: the same words.
        const after = structuredClone(st);
        g.apply(after, seat, action);
        const seen = JSON.stringify(after);
        expect(g.describe(action, st, seat, after), JSON.stringify(action)).toBe(line);
        expect(JSON.stringify(after)).toBe(seen);
        g.apply(st, seat, action);
      }
    }
    const has = (re: RegExp) =>
      expect(
        lines.some((l) => re.test(l)),
        String(re),
      ).toBe(true);
    has(/^buys Baltimore & Ohio \(BO\) for \$220$/);
    has(/^passes on CS; CS goes to the last bidder for \$55; DH goes to its only bidder for \$75/);
    has(/^pars [A-Z&]+ at \$\d+ and buys the president's certificate for \$\d+$/);
    has(/^buys a 10% share of NYC from the IPO for \$100; NYC floats with \$1000$/);
    has(/^buys a 10% share of PRR from the pool for \$71; becomes president of PRR$/);
    has(/^sells 3 shares \(30%\) of PRR for \$240; the presidency of PRR changes hands$/);
    has(/^lays tile #57 on J14 \(rotation 0\) for B&O, paying \$80$/);
    has(/^places a B&M station on F22 for \$40$/);
    has(/^runs NYNH's 3 trains for \$140 \(2 train F20-G19 \$50; 3 train E23-F24-F22 \$60; 2 train F22-F20 \$30\)$/);
    has(/^pays out \$14 per share of NYC's \$140 \(NYC rises to \$100\)$/);
    has(/^withholds C&O's \$120 \(C&O falls to \$63\)$/);
    has(/^buys a 3 train from the bank for NYNH for \$180; phase 3 begins \(train limit 4\)$/);
    has(/^buys a 4 train from the bank for NYC for \$300; phase 4 begins \(train limit 3\); the 2 trains rust$/);
    has(/^buys a 2 train from the bank for B&O for \$80; private BO closes$/);
    has(/^buys a 6 train from the bank for PRR for \$630, adding \$518 of their own money$/);
    has(/^buys a D train from the bank for ERIE for \$800, trading in a 4 train; phase D begins/);
    has(/^buys a 4 train from ERIE for NYNH for \$1$/);
    has(/^sells their Mohawk & Hudson \(MH\) to PRR for \$220$/);
    has(/^sells a 10% share of NYC for \$40 to raise money for C&O's train$/);
    has(/^discards B&M's 3 train to the bank pool$/);
    has(/^goes bankrupt, unable to buy ERIE a train; the presidency of B&M changes hands; the game ends/);
    has(/^passes; the stock round ends$/);
  });
  it('says in the status line what is happening and what the operating corporation is doing', () => {
    const exp = JSON.parse(
      readFileSync(new URL('../../fixtures/18xx.games/1830/29133.json', import.meta.url), 'utf8'),
    ) as Export18xx;
    const { seats, options, log } = importExport(exp);
    const st = g.setup(seats.length, 'w', options);
    const seen = new Set<string>();
    for (const { seat, action } of log) {
      seen.add(String(g.view(st, null).status).replace(/\d+/g, '#'));
      g.apply(st, seat, action);
    }
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'Private auction: buy the cheapest private, bid on another, or pass',
        'Stock round #: buy, sell or pass',
        'Operating round #.# of #: B&O runs its trains',
        'Operating round #.# of #: PRR may lay a tile',
      ]),
    );
    // seats are named by the page, not by the status line
    expect([...seen].some((x) => /Player/.test(x))).toBe(false);
    expect([...seen].some((x) => /pays out or withholds \$#/.test(x))).toBe(true);
  });
  it('finds no problem in a fresh game and notices money that appears from nowhere', () => {
    expect(g.check!(s)).toEqual([]);
    const broken = structuredClone(s);
    broken.cash[0]! += 1;
    expect(g.check!(broken).join()).toMatch(/money not conserved/);
  });
});

import { actionSchema, hasActionShape } from '../../../rules/1830/actions.ts';
import { randomPlayout } from '../../support/playout.ts';

describe('1830 action shapes', () => {
  it('the fast shape check accepts only what the zod schema accepts, and every legal move', () => {
    const { actions } = randomPlayout(g, 3, 'shapes');
    const samples: unknown[] = actions.map((a) => a.action);
    const variants: unknown[] = [];
    for (const a of samples.slice(0, 400) as Record<string, unknown>[]) {
      variants.push({ ...a, extra: 1 });
      for (const k of Object.keys(a)) {
        if (k === 'type') continue;
        const { [k]: _drop, ...rest } = a;
        variants.push(rest);
        variants.push({ ...a, [k]: 'x' });
        variants.push({ ...a, [k]: -1 });
        variants.push({ ...a, [k]: null });
      }
    }
    for (const v of [...samples, ...variants]) {
      if (hasActionShape(v)) expect(actionSchema.safeParse(v).success, JSON.stringify(v)).toBe(true);
    }
    for (const v of samples) expect(hasActionShape(v), JSON.stringify(v)).toBe(true);
  });
});
