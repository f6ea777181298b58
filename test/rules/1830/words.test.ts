// Text commands, history lines, and the invariants check.
import { describe, expect, it } from 'vitest';
import { game1830 as g } from '../../../rules/1830/index';
import { RuleError } from '../../../rules/types';

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
  it('describes moves in 18xx words', () => {
    expect(g.describe({ type: 'bid', company: 'SV', price: 20 }, s, 0)).toBe('Player 1 buys Schuylkill Valley (SV) for $20');
    expect(g.describe({ type: 'bid', company: 'CA', price: 165 }, s, 0)).toBe('Player 1 bids $165 for CA');
    expect(g.describe({ type: 'par', corp: 'PRR', price: 67 }, s, 1)).toMatch(/Player 2 pars PRR at \$67/);
  });
  it('finds no problem in a fresh game and notices money that appears from nowhere', () => {
    expect(g.check!(s)).toEqual([]);
    const broken = structuredClone(s);
    broken.cash[0]! += 1;
    expect(g.check!(broken).join()).toMatch(/money not conserved/);
  });
});

import { actionSchema, hasActionShape } from '../../../rules/1830/actions';
import { randomPlayout } from '../../support/playout';

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
