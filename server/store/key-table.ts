// Link keys to their games, for every game of an embedded server, in nine bytes
// a key (index-table.ts keeps the keys themselves, as raw bytes in its arena,
// which this table reads as 32-bit words: every key starts at a multiple of 32).
//
// An open-addressing table with linear probing. A slot holds whose key it is
// (the row's number and the key's place in the row's block) and four more bytes
// of the key to skip most wrong slots without reading the arena. The key's first
// four bytes choose the slot: keys are SHA-256 hashes, already evenly spread.
// Removal shifts the following slots back (no tombstones), so lookups stay
// short however often keys change.
const HASH = 32;

/** Where key `index` of a block sits (the block starts with the last entry's hash). */
export const keyAt = (block: number, index: number) => block + HASH * (1 + index);

/** Where a row's block starts in the arena, by the row's number. */
export type BlockOf = (row: number) => number;

export class KeyTable {
  /** The row's number + 1 (0: an empty slot). */
  private blk: Uint32Array;
  private idx: Uint8Array;
  private tag: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    let n = 1024;
    while (n < capacity / 0.7) n *= 2;
    this.blk = new Uint32Array(n);
    this.idx = new Uint8Array(n);
    this.tag = new Uint32Array(n);
    this.mask = n - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Adds key `index` of row `row` (its bytes are in the arena, in the row's block). */
  add(arena: Uint32Array, blockOf: BlockOf, row: number, index: number): void {
    if (this.count + 1 > this.blk.length * 0.7) this.grow(arena, blockOf);
    const at = keyAt(blockOf(row), index);
    let s = arena[at >>> 2]! & this.mask;
    while (this.blk[s] !== 0) s = (s + 1) & this.mask;
    this.blk[s] = row + 1;
    this.idx[s] = index;
    this.tag[s] = arena[(at >>> 2) + 1]!;
    this.count++;
  }

  /** Removes key `index` of row `row` (still in the arena); nothing if it is not there. */
  remove(arena: Uint32Array, blockOf: BlockOf, row: number, index: number): void {
    const at = keyAt(blockOf(row), index);
    let s = arena[at >>> 2]! & this.mask;
    while (this.blk[s] !== 0 && !(this.blk[s] === row + 1 && this.idx[s] === index)) s = (s + 1) & this.mask;
    if (this.blk[s] === 0) return;
    this.count--;
    // Backward shift: move later slots of the run into the hole when their home allows it.
    let hole = s;
    let j = s;
    for (;;) {
      j = (j + 1) & this.mask;
      if (this.blk[j] === 0) break;
      const home = arena[keyAt(blockOf(this.blk[j]! - 1), this.idx[j]!) >>> 2]! & this.mask;
      // The slot at j may move to the hole if its home is not cyclically within (hole, j].
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (between) continue;
      this.blk[hole] = this.blk[j]!;
      this.idx[hole] = this.idx[j]!;
      this.tag[hole] = this.tag[j]!;
      hole = j;
    }
    this.blk[hole] = 0;
  }

  /** Calls `fn` with (row, index) of every stored key equal to `want` (8 words) until it returns true. */
  find(arena: Uint32Array, blockOf: BlockOf, want: Uint32Array, fn: (row: number, index: number) => boolean): void {
    const tag = want[1]!;
    let s = want[0]! & this.mask;
    while (this.blk[s] !== 0) {
      if (this.tag[s] === tag) {
        const row = this.blk[s]! - 1;
        const w = keyAt(blockOf(row), this.idx[s]!) >>> 2;
        let same = true;
        for (let i = 0; i < 8 && same; i++) same = arena[w + i] === want[i];
        if (same && fn(row, this.idx[s]!)) return;
      }
      s = (s + 1) & this.mask;
    }
  }

  /** Makes room for this many keys at once (a start-up knows how many rows it loads). */
  reserve(arena: Uint32Array, blockOf: BlockOf, keys: number): void {
    if (keys > this.blk.length * 0.7) this.grow(arena, blockOf, keys);
  }

  private grow(arena: Uint32Array, blockOf: BlockOf, atLeast = 0): void {
    const { blk, idx } = this;
    let n = blk.length * 2;
    while (n * 0.7 < atLeast) n *= 2;
    this.blk = new Uint32Array(n);
    this.idx = new Uint8Array(n);
    this.tag = new Uint32Array(n);
    this.mask = n - 1;
    this.count = 0;
    for (let s = 0; s < blk.length; s++) if (blk[s] !== 0) this.add(arena, blockOf, blk[s]! - 1, idx[s]!);
  }
}
