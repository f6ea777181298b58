// Reading a list at an index the caller's own data guarantees (a loop bound, a
// table built from the same data, an index found a line earlier). With
// noUncheckedIndexedAccess such a read is typed `T | undefined`; this says the
// index is known to be inside the list, and throws a plain Error (a bug, not a
// player's mistake) instead of carrying `undefined` on when it is not.
export function item<T>(list: readonly T[], i: number, what = 'list'): T {
  const v = list[i];
  if (v === undefined && !(i in list)) throw new Error(`${what}: no entry ${i} (length ${list.length})`);
  return v as T;
}
