// The two rule sets (seed, 18xx.games) and the four places where our engine used to refuse what
// 18xx.games accepts, each on a hand-set position that makes the reading decide.
import { describe, expect, it } from 'vitest';
import { game1830 as g, playerValue, type Game1830State } from '../../../rules/1830/index.ts';
import { importExport } from '../../../rules/1830/import/replay.ts';
import type { RuleSetName } from '../../../rules/1830/rule-set.ts';
import { laterRound, parred, realGame, refuses, through } from './positions.ts';
import { certCount, certLimit } from '../../../rules/1830/shares.ts';

describe('1830 rule sets as an option', () => {
  it('offers seed and 18xx.games, 18xx.games by default; an import continues under 18xx.games', () => {
    const spec = g.options!.find((o) => o.id === 'rule_set')!;
    expect(spec.kind === 'choice' && spec.choices.map((c) => c.value)).toEqual(['18xx.games', 'seed']);
    expect(spec.default).toBe('18xx.games');
    expect(g.setup(3, 'x', { rule_set: 'seed' }).options.ruleSet).toBe('seed');
    expect(() => g.setup(3, 'x', { rule_set: 'house' })).toThrow(/no rule set "house"/);
    // a game recorded before the option keeps the behaviour it was played under
    expect(g.setup(3, 'x', {}).options.ruleSet).toBe('recorded');
    expect(g.setup(3, 'x', { rule_set: 'seed', rulesVersion: 1 }).options.ruleSet).toBe('recorded');
    expect(g.setup(3, 'x', { rule_set: 'seed', rulesVersion: 2 }).options.ruleSet).toBe('seed');
    const exp = realGame('26855');
    const imported = importExport({ ...exp, actions: exp.actions.slice(0, 3) });
    expect(imported.options.rule_set).toBe('18xx.games');
    expect(imported.state.options.ruleSet).toBe('18xx.games');
  });
});

/** A stock round where seat 1 owns the C&SL and PRR sits in the brown zone with shares in the pool. */
function privateForSale(ruleSet: RuleSetName): Game1830State {
  const s = laterRound([1000, 1000, 1000, 1000], ruleSet);
  parred(s, 'PRR', [5, 0], { 2: 20 });
  const prr = s.corps.PRR!;
  prr.ipo -= 30;
  prr.pool += 30;
  g.apply(s, 0, { type: 'buyCompany', company: 'CS', price: 50 });
  g.apply(s, 1, { type: 'buyCompany', company: 'CS', price: 50 }); // seat 1 accepts
  expect(s.privates.CS!.owner).toBe(0);
  return s;
}

describe("disagreement 1: a private bought from another player, then shares (seed C, 18xx.games's purchase)", () => {
  it('under 18xx.games the private is the purchase, but brown pool shares may follow and the turn waits for a pass', () => {
    const s = privateForSale('18xx.games');
    expect(g.toAct(s)).toEqual([0]);
    refuses(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' }, /already bought this turn/);
    g.apply(s, 0, { type: 'buy', corp: 'PRR', from: 'pool' });
    g.apply(s, 0, { type: 'buy', corp: 'PRR', from: 'pool' });
    expect(s.corps.PRR!.held[0]).toBe(30); // the C&A's 10% and two from the pool
    expect(g.toAct(s)).toEqual([0]);
    g.apply(s, 0, { type: 'pass' });
    expect(g.toAct(s)).toEqual([1]);
  });

  it('under the seed the player may also buy a share, and another private after it', () => {
    const s = privateForSale('seed');
    g.apply(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' });
    expect(s.corps['B&O']!.held[0]).toBe(10);
    refuses(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' }, /already bought this turn/);
    expect(g.toAct(s)).toEqual([0]);
    g.apply(s, 0, { type: 'buyCompany', company: 'DH', price: 70 });
    g.apply(s, 2, { type: 'buyCompany', company: 'DH', price: 70 });
    expect(s.privates.DH!.owner).toBe(0);
  });

  it('a game recorded before rule sets refuses the brown shares after a private, as it did', () => {
    const s = privateForSale('recorded');
    refuses(s, 0, { type: 'buy', corp: 'PRR', from: 'pool' }, /already bought this turn/);
  });
});

/** 29133 after action 53: NYNH (phase 2, no train, a route: it must buy one) is at its train step; set by hand from there. */
function trainStep(ruleSet: RuleSetName, corpCash: number, presidentCash: number): Game1830State {
  const s = through('29133', 53);
  s.options.ruleSet = ruleSet;
  const nynh = s.corps.NYNH!;
  expect(s.round.kind === 'operating' && s.round.step).toBe('train');
  expect(nynh.trains).toEqual([]);
  s.bank += nynh.cash - corpCash + s.cash[nynh.president!]! - presidentCash;
  nynh.cash = corpCash;
  s.cash[nynh.president!] = presidentCash;
  return s;
}

/** Moves a train to an owner by hand ('pool', 'gone' or a corporation). */
function moveTrain(s: Game1830State, id: string, owner: string): void {
  const t = s.trains.find((x) => x.id === id)!;
  if (t.owner in s.corps) s.corps[t.owner]!.trains.splice(s.corps[t.owner]!.trains.indexOf(id), 1);
  t.owner = owner;
  if (owner in s.corps) s.corps[owner]!.trains.push(id);
  // a train discarded queues behind those already in the pool (rules version 3, as toPool does)
  if (owner === 'pool') s.trains.push(...s.trains.splice(s.trains.indexOf(t), 1));
}

describe('disagreement 2: a discarded train other than the lowest-numbered of its kind is for sale', () => {
  for (const ruleSet of ['seed', '18xx.games'] as const) {
    it(`buys the 2-4 discarded before the 2-3; the 2-3 waits its turn, as on 18xx.games (${ruleSet})`, () => {
      const s = trainStep(ruleSet, 500, 0);
      const seat = s.corps.NYNH!.president!;
      moveTrain(s, '2-4', 'pool');
      moveTrain(s, '2-3', 'pool');
      refuses(s, seat, { type: 'buyTrain', train: '2-3', price: 80 }, /in the order they were discarded \(2-4 first\)/);
      g.apply(s, seat, { type: 'buyTrain', train: '2-4', price: 80 });
      expect(s.corps.NYNH!.trains).toEqual(['2-4']);
      expect(s.trains.find((t) => t.id === '2-3')!.owner).toBe('pool');
    });
  }

  it('a game of rules version 2 sold any discarded train', () => {
    const s = trainStep('18xx.games', 500, 0);
    delete (s.map as { version?: number }).version;
    const seat = s.corps.NYNH!.president!;
    moveTrain(s, '2-4', 'pool');
    moveTrain(s, '2-3', 'pool');
    g.apply(s, seat, { type: 'buyTrain', train: '2-3', price: 80 });
    expect(s.corps.NYNH!.trains).toEqual(['2-3']);
  });
});

describe("disagreement 3: the president's money towards another corporation's train when the corporation could pay a bank train", () => {
  // NYNH has $100: enough for the $80 2-train, not for PRR's 3-train (face $180)
  const position = (ruleSet: RuleSetName) => {
    const s = trainStep(ruleSet, 100, 500);
    moveTrain(s, '3-0', 'PRR');
    return s;
  };

  it('under 18xx.games the president adds up to face value', () => {
    const s = position('18xx.games');
    const seat = s.corps.NYNH!.president!;
    refuses(s, seat, { type: 'buyTrain', train: '3-0', price: 181 }, /between \$1 and \$180/);
    g.apply(s, seat, { type: 'buyTrain', train: '3-0', price: 150 });
    expect(s.corps.NYNH!.trains).toEqual(['3-0']);
    expect(s.corps.NYNH!.cash).toBe(0);
    expect(s.cash[seat]).toBe(450);
  });

  it('under the seed he may not: the corporation does not lack the money for a train (G.1.d)', () => {
    const s = position('seed');
    const seat = s.corps.NYNH!.president!;
    refuses(s, seat, { type: 'buyTrain', train: '3-0', price: 150 }, /between \$1 and \$100/);
    g.apply(s, seat, { type: 'buyTrain', train: '3-0', price: 100 });
    expect(s.cash[seat]).toBe(500);
  });
});

describe('disagreement 4: no face-value cap when the treasury pays everything', () => {
  for (const ruleSet of ['seed', '18xx.games'] as const) {
    it(`the corporation pays $100 of its own $120 for a $80 train, the bank's cheapest being $180 (${ruleSet})`, () => {
      const s = trainStep(ruleSet, 120, 0);
      const seat = s.corps.NYNH!.president!;
      for (const t of s.trains) if (t.name === '2' && t.owner === 'depot') t.owner = 'gone';
      moveTrain(s, '2-0', 'PRR');
      refuses(s, seat, { type: 'buyTrain', train: '2-0', price: 121 }, /between \$1 and \$120/);
      g.apply(s, seat, { type: 'buyTrain', train: '2-0', price: 100 });
      expect(s.corps.NYNH!.cash).toBe(20);
      expect(s.corps.PRR!.trains).not.toContain('2-0');
    });
  }
});

describe('one train of a new type per turn (seed E.e)', () => {
  // the last 2-train is left: NYNH may buy it and then the first 3-train; a second 3-train only under 18xx.games
  const position = (ruleSet: RuleSetName) => {
    const s = trainStep(ruleSet, 1000, 0);
    for (const t of s.trains) if (t.name === '2' && t.owner === 'depot' && t.id !== '2-5') t.owner = 'gone';
    const seat = s.corps.NYNH!.president!;
    g.apply(s, seat, { type: 'buyTrain', train: '2-5', price: 80 });
    g.apply(s, seat, { type: 'buyTrain', train: '3-0', price: 180 });
    return { s, seat };
  };

  it('under the seed the second 3-train is refused', () => {
    const { s, seat } = position('seed');
    refuses(s, seat, { type: 'buyTrain', train: '3-1', price: 180 }, /only one train of a new type per turn/);
  });

  it('under 18xx.games it is bought', () => {
    const { s, seat } = position('18xx.games');
    g.apply(s, seat, { type: 'buyTrain', train: '3-1', price: 180 });
    expect(s.corps.NYNH!.trains).toEqual(['2-5', '3-0', '3-1']);
  });
});

describe("a bankrupt player's shares (seed H against 18xx.games)", () => {
  it('under the seed he keeps them and is valued at market; under 18xx.games they are sold', () => {
    for (const ruleSet of ['seed', '18xx.games'] as const) {
      const s = through('29133', 449);
      s.options.ruleSet = ruleSet;
      const seat = s.corps.NYNH!.president!;
      const held = Object.values(s.corps).map((c) => c.held[seat]);
      const value = playerValue(s, seat);
      g.apply(s, seat, { type: 'bankrupt' });
      expect(s.finished).toBe(true);
      const after = Object.values(s.corps).map((c) => c.held[seat]);
      if (ruleSet === 'seed') expect(after).toEqual(held);
      else expect(after).not.toEqual(held);
      // the seed values him like everybody else; 18xx.games sold his shares (at falling prices) and took his cash
      expect(g.outcome(s)!.scores[seat]).toBe(ruleSet === 'seed' ? value : 416);
    }
  });
});

describe("a private sold on the seller's turn (seed G.1.a)", () => {
  // seat 0 owns the SV and the C&A; it is seat 0's turn in the second stock round
  it("under the seed the owner offers it, the buyer accepts, and the seller plays on: it is nobody's purchase", () => {
    const s = laterRound([1000, 1000, 1000, 1000], 'seed');
    expect(g.toAct(s)).toEqual([0]);
    expect(g.parse!('sell SV 30 to 3', s, 0)).toEqual({ type: 'sellCompany', company: 'SV', to: 2, price: 30 });
    g.apply(s, 0, { type: 'sellCompany', company: 'SV', to: 2, price: 30 });
    expect(s.privates.SV!.owner).toBe(0); // nothing moves before the buyer answers
    expect(g.toAct(s)).toEqual([2]);
    expect(g.view(s, null).status).toMatch(/owner of SV offers it .* for \$30; the buyer accepts or declines/);
    expect(g.describe({ type: 'buyCompany', company: 'SV', price: 30 }, s, 2)).toMatch(
      /buys .* from \{seat:0\} for \$30/,
    );
    refuses(s, 2, { type: 'buyCompany', company: 'SV', price: 25 }, /accept \("buy SV 30"\) or decline/);
    g.apply(s, 2, { type: 'buyCompany', company: 'SV', price: 30 });
    expect(s.privates.SV!.owner).toBe(2);
    expect(s.cash).toEqual([1030, 1000, 970, 1000]);
    expect(g.toAct(s)).toEqual([0]);
    g.apply(s, 0, { type: 'buy', corp: 'B&O', from: 'ipo' }); // the turn's one purchase is still his
    expect(s.corps['B&O']!.held[0]).toBe(10);
  });

  it('the buyer may decline; nothing changes hands and the seller is still to act', () => {
    const s = laterRound([1000, 1000, 1000, 1000], 'seed');
    g.apply(s, 0, { type: 'sellCompany', company: 'CA', to: 1, price: 200 });
    expect(g.describe({ type: 'pass' }, s, 1)).toMatch(/declines to buy/);
    g.apply(s, 1, { type: 'pass' });
    expect(s.offer).toBeUndefined();
    expect(s.privates.CA!.owner).toBe(0);
    expect(g.toAct(s)).toEqual([0]);
  });

  it('refused: not his private, no such buyer, the buyer short of money or at the certificate limit, the first stock round', () => {
    const s = laterRound([1000, 1000, 50, 1000], 'seed');
    refuses(s, 0, { type: 'sellCompany', company: 'CS', to: 2, price: 30 }, /do not own CS/);
    refuses(s, 0, { type: 'sellCompany', company: 'SV', to: 0, price: 30 }, /another player/);
    refuses(s, 0, { type: 'sellCompany', company: 'SV', to: 7, price: 30 }, /another player/);
    refuses(s, 0, { type: 'sellCompany', company: 'SV', to: 2, price: 60 }, /buyer has \$50/);
    for (const sym of ['PRR', 'NYC', 'C&O', 'ERIE']) parred(s, sym, [0, 6], { 3: 60 }); // five certificates each
    s.cash[3] = 1000;
    expect(certCount(s, 3)).toBeGreaterThanOrEqual(certLimit(s));
    refuses(s, 0, { type: 'sellCompany', company: 'SV', to: 3, price: 30 }, /certificate limit/);
    const first = laterRound([1000, 1000, 1000, 1000], 'seed');
    first.turn = 1;
    refuses(first, 0, { type: 'sellCompany', company: 'SV', to: 2, price: 30 }, /only after the first stock round/);
  });

  it("under 18xx.games it is refused: the buyer offers on the buyer's turn", () => {
    const s = laterRound([1000, 1000, 1000, 1000], '18xx.games');
    refuses(s, 0, { type: 'sellCompany', company: 'SV', to: 2, price: 30 }, /on the buyer's turn/);
  });
});

describe('a private sold in an emergency (seed G.1.d.3)', () => {
  // NYNH must buy a train and has no money; its president (seat 3) has none either and owns the C&SL
  it('under the seed the president offers his private to another player and buys the train with the money', () => {
    const s = trainStep('seed', 0, 0);
    const seat = s.corps.NYNH!.president!;
    expect(s.privates.CS!.owner).toBe(seat);
    g.apply(s, seat, { type: 'sellCompany', company: 'CS', to: 1, price: 100 });
    expect(g.toAct(s)).toEqual([1]);
    g.apply(s, 1, { type: 'buyCompany', company: 'CS', price: 100 });
    expect(s.privates.CS!.owner).toBe(1);
    expect(s.cash[seat]).toBe(100);
    expect(g.toAct(s)).toEqual([seat]);
    // now he has the money: no second sale
    refuses(s, seat, { type: 'sellCompany', company: 'CS', to: 2, price: 10 }, /have the money for the cheapest train/);
    g.apply(s, seat, { type: 'buyTrain', train: '2-0', price: 80 });
    expect(s.corps.NYNH!.trains).toEqual(['2-0']);
    expect(s.cash[seat]).toBe(20);
  });

  it('refused when the corporation and its president can pay, and under 18xx.games', () => {
    refuses(trainStep('seed', 0, 80), 3, { type: 'sellCompany', company: 'CS', to: 1, price: 50 }, /have the money/);
    refuses(
      trainStep('18xx.games', 0, 0),
      3,
      { type: 'sellCompany', company: 'CS', to: 1, price: 50 },
      /selling shares, not privates/,
    );
  });
});
