// The bad moves the issue lists: each refused with a clear message, the state untouched.
import { describe, it } from 'vitest';
import { expectRefused, giveLicences, quietState } from './helpers.ts';

const deck = { from: 'deck' as const };

function setting() {
  const s = quietState(4, { money: [3, 8, 8, 8], hands: [['red', 'blue', 'black', 'red', 'red', 'red'], [], [], []] });
  giveLicences(s, 'red', ['paris-frankfurt']);
  s.planes.brown = 0; // as if every Brown plane flew (the check is not run on this state)
  return s;
}

const cases: [string, unknown, RegExp][] = [
  [
    "a licence not connected to the airline's network",
    { type: 'buy', licences: [{ airline: 'red', route: 'sofia-athens' }], take: deck },
    /Route Sofia-Athens is not connected to Red's network \(home Frankfurt\)\./,
  ],
  [
    'a route already flown by that airline',
    { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-paris' }], take: deck },
    /Red already flies Paris-Frankfurt: an airline holds at most one licence per route\./,
  ],
  [
    'an airline without planes',
    { type: 'buy', licences: [{ airline: 'brown', route: 'vienna-budapest' }], take: deck },
    /Brown has no planes left: no more licences for it\./,
  ],
  [
    'paying with money you lack',
    { type: 'buy', licences: [{ airline: 'grey', route: 'london-madrid' }], take: deck },
    /That licence costs 5 M and you have only 3 M\./,
  ],
  [
    'playing three different airlines',
    {
      type: 'play',
      shares: [
        { airline: 'red', count: 1 },
        { airline: 'blue', count: 1 },
        { airline: 'black', count: 1 },
      ],
    },
    /not three airlines/,
  ],
  [
    'trading for a third Air Abacus',
    { type: 'trade', get: 3, give: [0, 1, 2, 3, 4].map(() => ({ airline: 'red', from: 'hand' })) },
    /You may trade for at most 2 Air Abacus shares at a time\./,
  ],
  [
    'a third licence',
    {
      type: 'buy',
      licences: [
        { airline: 'red', route: 'frankfurt-zurich' },
        { airline: 'red', route: 'frankfurt-munich' },
        { airline: 'red', route: 'frankfurt-berlin' },
      ],
      take: deck,
    },
    /Buy one or two licences/,
  ],
  [
    'a route that does not exist',
    { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-lisbon' }], take: deck },
    /There is no route frankfurt-lisbon on the board\./,
  ],
  [
    'no share count',
    { type: 'play', shares: [{ airline: 'red', count: 0 }] },
    /any number \(1 or more\) of one airline/,
  ],
  [
    'a trade without saying where the share comes from',
    { type: 'trade', get: 1, give: [{ airline: 'red' }] },
    /"hand" or "portfolio"/,
  ],
  [
    'a share to take named wrongly',
    { type: 'buy', licences: [{ airline: 'red', route: 'frankfurt-zurich' }], take: { from: 'shop' } },
    /take one share/,
  ],
  ['not a move at all', { kind: 'money' }, /not an Airlines Europe move/],
  ['a move out of turn', { type: 'money' }, /It is not your turn\./],
  [
    'an airline named after an object property',
    { type: 'trade', get: 1, give: [{ airline: 'constructor', from: 'portfolio' }] },
    /There is no airline called constructor\./,
  ],
  [
    'a route named after an object property',
    { type: 'buy', licences: [{ airline: 'red', route: 'constructor' }], take: deck },
    /There is no route constructor on the board\./,
  ],
  [
    'a market share named after an object property',
    {
      type: 'buy',
      licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
      take: { from: 'market', airline: 'toString' },
    },
    /There is no airline called toString\./,
  ],
  [
    'taking Air Abacus from the market',
    {
      type: 'buy',
      licences: [{ airline: 'red', route: 'frankfurt-zurich' }],
      take: { from: 'market', airline: 'abacus' },
    },
    /Air Abacus shares never come to the market: trade shares for them\./,
  ],
  [
    'playing a share of no airline',
    { type: 'play', shares: [{ airline: 'hasOwnProperty', count: 1 }] },
    /There is no airline called hasOwnProperty\./,
  ],
];

describe('Airlines Europe refuses bad moves', () => {
  it.each(cases)('%s', (_name, action, message) => {
    const s = setting();
    expectRefused(s, message.source.includes('not your turn') ? 2 : 0, action, message);
  });
});
