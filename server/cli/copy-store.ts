// copy-store <from> <to> [--schema <name>]: moves games between the embedded
// store (a data folder) and PostgreSQL (a postgres:// URL), either way.
// Every game's chain is checked (checkChain: seqs, links, each entry's hash)
// before it is written, and read back from the target and compared after; a
// game whose chain is broken is named and not copied, and the command exits 1.
// A game the target has already is skipped when it is the same (same last seq
// and hash), and reported otherwise. The server secret goes with the games
// (sealed keys in the metadata are sealed under it): copied when the target
// has none, and the copy refused when the target has another. Games copied into
// PostgreSQL count as mailed up to their end (games.mail_seq). Snapshots are a
// cache and are not copied; the mail queue is not moved (stop the server and
// let its queue empty first).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkChain } from '../store/chain.ts';
import { LowdbGameStore } from '../store/lowdb-store.ts';
import { PgGameStore } from '../store/pg-store.ts';
import { GameExistsError, type GameStore } from '../store/types.ts';

export const summary =
  'copy-store <from> <to> [--schema s]   copy every game between a data folder and a postgres:// URL, checking every chain';

const isUrl = (s: string) => /^postgres(ql)?:\/\//.test(s);

interface Side {
  store: GameStore;
  name: string;
  readSecret(): Promise<string | null>;
  writeSecret(hex: string): Promise<void>;
}

function sideOf(where: string, schema: string | undefined): Side {
  if (isUrl(where)) {
    const store = new PgGameStore({ url: where, schema });
    return {
      store,
      name: `PostgreSQL${schema ? ` (schema ${schema})` : ''}`,
      async readSecret() {
        await store.open();
        const r = await store.pool.query<{ secret: string }>('SELECT secret FROM server_secret');
        return r.rows[0]?.secret ?? null;
      },
      async writeSecret(hex) {
        await store.pool.query('INSERT INTO server_secret (secret) VALUES ($1) ON CONFLICT DO NOTHING', [hex]);
      },
    };
  }
  const file = join(where, 'secret.key');
  return {
    store: new LowdbGameStore({ dataDir: where }),
    name: where,
    async readSecret() {
      return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
    },
    async writeSecret(hex) {
      mkdirSync(where, { recursive: true });
      writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: 'wx' });
    },
  };
}

export async function run(args: string[]): Promise<number> {
  const schemaAt = args.indexOf('--schema');
  const schema = schemaAt >= 0 ? args[schemaAt + 1] : undefined;
  const [from, to] = args.filter((_, i) => schemaAt < 0 || (i !== schemaAt && i !== schemaAt + 1));
  if (!from || !to || isUrl(from) === isUrl(to)) {
    process.stderr.write(
      'usage: cli copy-store <data folder> <postgres://...> | <postgres://...> <data folder> [--schema s]\n',
    );
    return 2;
  }
  if (!isUrl(from) && !existsSync(join(from, 'index.json')) && !existsSync(join(from, 'games'))) {
    process.stderr.write(`${from} is not a data folder (no index.json, no games/)\n`);
    return 2;
  }
  const source = sideOf(from, schema);
  const target = sideOf(to, schema);
  try {
    await source.store.open();
    await target.store.open();
    const secret = await source.readSecret();
    const theirs = await target.readSecret();
    if (secret && theirs && secret !== theirs) {
      process.stderr.write(
        `${target.name} has another server secret: the copied games' links would stop working. Copy into an empty target.\n`,
      );
      return 1;
    }
    if (secret && !theirs) await target.writeSecret(secret);
    const { entries } = await source.store.listGames({ limit: Number.POSITIVE_INFINITY });
    let copied = 0;
    let same = 0;
    let failed = 0;
    for (const row of entries) {
      const id = row.id;
      try {
        const meta = await source.store.readMeta(id);
        const log = await source.store.readLog(id);
        if (!meta) throw new Error('no metadata');
        const broken = checkChain(log);
        if (broken) throw new Error(`chain broken at entry ${broken.seq} (${broken.why})`);
        const last = log[log.length - 1];
        try {
          await target.store.create(meta, log);
        } catch (err) {
          if (!(err instanceof GameExistsError)) throw err;
          const there = await target.store.entry(id);
          if (there?.lastSeq === log.length && there.lastHash === (last?.hash ?? '')) {
            same++;
            continue;
          }
          throw new Error(`${target.name} has another game with this id (at seq ${there?.lastSeq})`);
        }
        // Read back: the target holds the same chain, end to end.
        const back = await target.store.readLog(id);
        const backBroken = checkChain(back);
        if (backBroken || back.length !== log.length || back[back.length - 1]?.hash !== last?.hash)
          throw new Error(`read back differently from ${target.name}`);
        copied++;
        // Its mail went out from where it came from: the PostgreSQL mail cursor starts at its end.
        if (target.store instanceof PgGameStore)
          await target.store.pool.query('UPDATE games SET mail_seq = last_seq WHERE id = $1', [id]);
      } catch (err) {
        failed++;
        process.stderr.write(`game ${id}: not copied: ${(err as Error).message}\n`);
      }
    }
    process.stdout.write(
      `copied ${copied} games to ${target.name}, ${same} there already, ${failed} not copied; every chain checked\n`,
    );
    return failed > 0 ? 1 : 0;
  } finally {
    await target.store.close();
    await source.store.close();
  }
}
