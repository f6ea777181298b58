// The PostgreSQL store against the GameStore contract (skipped without PostgreSQL: test/support/pg-setup.ts).
import { PgGameStore } from '../../server/store/pg-store.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';
import { storeContract } from './store-contract.ts';

describePg('PostgreSQL store', () => {
  storeContract('postgresql', async () => {
    const schema = newSchema();
    const stores: PgGameStore[] = [new PgGameStore({ url: pgUrl(), schema })];
    await stores[0]!.open();
    return {
      store: stores[0]!,
      async reopen() {
        await stores[stores.length - 1]!.close();
        const next = new PgGameStore({ url: pgUrl(), schema });
        await next.open();
        stores.push(next);
        return next;
      },
      async cleanup() {
        await stores[stores.length - 1]!.close();
        await dropSchema(schema);
      },
    };
  });
});
