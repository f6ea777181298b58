// Words for a quick link or a move button: what the player will do, in the
// imperative, short. A game's `label` (rules/types.ts) may build its own from
// the action; `imperative` turns a history line ("extended the LNWR to T14
// (by London); took a LNWR share; Brighton scores nothing") into one ("Extend
// the LNWR to T14 (by London), take a LNWR share"), keeping `clauses` of its
// parts: the move itself, not a paragraph of its consequences.

/**
 * The longest a label may be (characters), in every game: a button on a 360 px phone or a line of
 * a turn mail, read at a glance. What a move changes beyond telling it from the others on offer
 * is the confirm page's (it shows the board after the move). test/rules/labels.test.ts checks.
 */
export const LABEL_MAX = 64;

/**
 * `core` (what tells the move apart from the others on offer, always kept) with as many of the
 * `extras` (useful detail, most useful first) as fit in LABEL_MAX, each in its turn.
 */
export function labelWith(core: string, ...extras: string[]): string {
  let out = core;
  for (const x of extras) if (x && out.length + x.length <= LABEL_MAX) out += x;
  return out;
}

/** Past tense and third person of the verbs our history lines start with, to the imperative. */
const VERBS: Record<string, string> = {
  bought: 'buy',
  built: 'build',
  bid: 'bid',
  chose: 'choose',
  drew: 'draw',
  discarded: 'discard',
  extended: 'extend',
  founded: 'found',
  laid: 'lay',
  moved: 'move',
  passed: 'pass',
  placed: 'place',
  played: 'play',
  took: 'take',
  traded: 'trade',
  sold: 'sell',
  put: 'put',
  paid: 'pay',
  ran: 'run',
  withheld: 'withhold',
  goes: 'go',
  does: 'do',
  has: 'have',
  tried: 'try',
  stopped: 'stop',
  ended: 'end',
  skipped: 'skip',
  declined: 'decline',
  closed: 'close',
  exchanged: 'exchange',
  became: 'become',
  gave: 'give',
  sent: 'send',
};

/** One word to the imperative: known verbs from the table, third person "-s"/"-es" dropped. */
export function verbToImperative(word: string): string {
  const w = word.toLowerCase();
  if (VERBS[w]) return VERBS[w];
  if (/(ss|sh|ch|x|z)es$/.test(w)) return w.slice(0, -2);
  if (/[^s]s$/.test(w) && w.length > 3) return w.slice(0, -1);
  return w;
}

/** The first letter in capitals. */
export function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * A history line as a label: the first `clauses` parts (split at ";"), each part's leading
 * verb in the imperative, joined by ", ", the first letter a capital.
 */
export function imperative(line: string, clauses = 1): string {
  const parts = line
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .slice(0, clauses)
    .map((p) => {
      const m = /^([A-Za-z]+)(.*)$/.exec(p);
      return m ? verbToImperative(m[1]!) + m[2]! : p;
    });
  return capital(parts.join(', '));
}
