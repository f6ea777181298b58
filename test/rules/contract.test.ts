// The rules contract for every registered game (test/rules/contract.ts), with the first part of
// the seeded playouts; contract-playouts-1 and -2 run the others, so that workers share them.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAYOUT_PARTS, all, contractSuite, playoutGames, playoutSuite } from './contract.ts';

contractSuite();
playoutSuite(0);

describe('rules contract playouts', () => {
  it('cover every game once, in files that exist', () => {
    const parts = Array.from({ length: PLAYOUT_PARTS }, (_, i) => playoutGames(i).map((r) => r.id));
    expect(parts.flat().sort()).toEqual(all.map((r) => r.id).sort());
    for (let i = 1; i < PLAYOUT_PARTS; i++)
      expect(existsSync(new URL(`./contract-playouts-${i}.test.ts`, import.meta.url))).toBe(true);
  });
});
