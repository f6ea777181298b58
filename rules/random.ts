// The seeded generator every game draws its randomness from.
//
// Its whole state is four 32-bit numbers kept inside the game state, so a game
// is plain JSON and replaying the same seed and actions gives the same game,
// byte for byte. The generator is sfc32 (small, fast, passes PractRand to
// large sizes); the seed string is spread over the four words by cyrb128.
// Not for secrets: it only has to be fair and reproducible.

export interface RandomState {
  s: [number, number, number, number];
}

/** Turns any seed string into a generator state. */
export function seedRandom(seed: string): RandomState {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  const state: RandomState = { s: [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0] };
  // Stir a little so near-identical seeds diverge at once.
  for (let i = 0; i < 12; i++) nextUint32(state);
  return state;
}

/** The next 32-bit unsigned number; advances the state. */
export function nextUint32(r: RandomState): number {
  let [a, b, c, d] = r.s;
  a >>>= 0;
  b >>>= 0;
  c >>>= 0;
  d >>>= 0;
  const t = (((a + b) | 0) + d) | 0;
  d = (d + 1) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) | 0;
  r.s = [a >>> 0, b >>> 0, c >>> 0, d >>> 0];
  return t >>> 0;
}

/** A uniform integer in [0, n), without modulo bias. */
export function randomInt(r: RandomState, n: number): number {
  if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) throw new Error(`randomInt: bad range ${n}`);
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const x = nextUint32(r);
    if (x < limit) return x % n;
  }
}

/** Shuffles the array in place (Fisher-Yates) and returns it. */
export function shuffle<T>(r: RandomState, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(r, i + 1);
    const tmp = items[i]!;
    items[i] = items[j]!;
    items[j] = tmp;
  }
  return items;
}

/** One element chosen uniformly. */
export function pick<T>(r: RandomState, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick: empty list');
  return items[randomInt(r, items.length)]!;
}
