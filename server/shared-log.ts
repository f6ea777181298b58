// A game's log array, shared by the documents that follow one another, so that a change
// costs the entries it adds and not a copy of the whole log (issue 14: an append costs one
// entry; copying a 50,000-entry log took several milliseconds a move, most of a move's CPU).
//
// A GameDoc is treated as immutable: a reader (a page, a mail being composed) may hold one
// across an await and must keep seeing its log as it was. Arrays are not shareable with a
// length of one's own, so the rule is one of ownership:
//   - the newest document made by `derive` owns its log array and alone may push onto it;
//   - `derive(doc, fields)` makes the next document: it takes over doc's array when doc owns
//     it (doc's `log` then becomes a copy of its own entries, made only if somebody reads it),
//     and otherwise starts from a copy;
//   - a document whose change is refused or whose write fails stays as it was: its log reads
//     its own entries (the copy), and the next change derived from it copies once.
// Two documents derived from one (a decision made again) never share an array: the second
// gets a copy. Hold the document, not its log array, across an await: an array taken out of
// a document that is derived from later may grow (its first entries never change).
// Documents made otherwise (a plain spread) share the array without owning it: they never
// extend it in place; a store read gives a fresh array, claimed with `owned`.
import type { GameDoc, LogEntry } from './store/types.ts';

/** Which document may push onto an array's end. */
const owners = new WeakMap<LogEntry[], GameDoc>();
/** Documents whose array was taken over: their entries are the array's first `length`. */
const superseded = new WeakMap<GameDoc, { array: LogEntry[]; length: number }>();

/** Claims doc's log (an array no other document holds) for doc: changes derived from it extend it in place. */
export function owned<T extends GameDoc>(doc: T): T {
  owners.set(doc.log, doc);
  return doc;
}

/** How many entries doc's log has (without copying a superseded document's log). */
export function logLength(doc: GameDoc): number {
  return superseded.get(doc)?.length ?? doc.log.length;
}

/** The last entry of doc's log (without copying a superseded document's log). */
export function lastEntry(doc: GameDoc): LogEntry | undefined {
  const s = superseded.get(doc);
  return s ? s.array[s.length - 1] : doc.log[doc.log.length - 1];
}

/**
 * The array a new document made from `doc` appends to, owned by nobody yet (the caller
 * claims it with `owned`): doc's own array, taken over, or a copy of doc's entries.
 */
export function takeLog(doc: GameDoc): LogEntry[] {
  const s = superseded.get(doc);
  if (s) return s.array.slice(0, s.length);
  const array = doc.log;
  if (owners.get(array) !== doc) return array.slice();
  owners.delete(array);
  supersede(doc, array, array.length);
  return array;
}

/**
 * The document after `doc` with `fields` changed: it owns its log (doc's, taken over, or a
 * copy) and the caller may push new entries onto it; doc keeps showing its own entries.
 */
export function derive(doc: GameDoc, fields: Partial<GameDoc> = {}): GameDoc {
  const next = {} as Record<string, unknown>;
  // Not a spread: that would read (and so copy) a superseded document's log. The log keeps
  // its place among the keys, as a spread would keep it.
  for (const k of Object.keys(doc)) next[k] = k === 'log' ? null : (doc as unknown as Record<string, unknown>)[k];
  Object.assign(next, fields);
  next.log = takeLog(doc);
  return owned(next as unknown as GameDoc);
}

/** doc's `log` becomes its first `length` entries, copied out of `array` when first read. */
function supersede(doc: GameDoc, array: LogEntry[], length: number): void {
  superseded.set(doc, { array, length });
  const settle = (log: LogEntry[]) => {
    superseded.delete(doc);
    Object.defineProperty(doc, 'log', { value: log, writable: true, enumerable: true, configurable: true });
    return log;
  };
  Object.defineProperty(doc, 'log', {
    enumerable: true,
    configurable: true,
    // Its own copy from now on: a change derived from doc again (a refused change tried once
    // more) extends that copy, never the array the other document holds.
    get: () => claim(doc, settle(array.slice(0, length))),
    set: (log: LogEntry[]) => void settle(log),
  });
}

function claim(doc: GameDoc, log: LogEntry[]): LogEntry[] {
  owners.set(log, doc);
  return log;
}
