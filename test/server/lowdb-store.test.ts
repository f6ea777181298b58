// The embedded store against the GameStore contract.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LowdbGameStore } from '../../server/store/lowdb-store.ts';
import { storeContract } from './store-contract.ts';

storeContract('lowdb files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pbem-contract-'));
  const stores: LowdbGameStore[] = [new LowdbGameStore({ dataDir: dir, compactAfter: 5 })];
  await stores[0]!.open();
  return {
    store: stores[0]!,
    async reopen() {
      await stores[stores.length - 1]!.close();
      const next = new LowdbGameStore({ dataDir: dir, compactAfter: 5 });
      await next.open();
      stores.push(next);
      return next;
    },
    async cleanup() {
      await stores[stores.length - 1]!.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
