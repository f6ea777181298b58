// Format 1 of the PostgreSQL store (pg-store.ts): games with their index
// columns, one row per log entry, link keys, snapshots. Applied by
// node-pg-migrate at open, under its advisory lock (pg-migrate.ts).
import type { MigrationBuilder } from 'node-pg-migrate';

export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    CREATE TABLE games (
      id text PRIMARY KEY,
      meta jsonb NOT NULL,
      row jsonb NOT NULL,
      last_seq integer NOT NULL,
      last_hash text NOT NULL,
      version bigint NOT NULL DEFAULT 1,
      status text NOT NULL,
      listed boolean NOT NULL,
      free_seat boolean NOT NULL,
      updated_at text COLLATE "C" NOT NULL,
      next_reminder_at text COLLATE "C",
      attention boolean NOT NULL
    );
    CREATE INDEX games_newest ON games (updated_at DESC, id);
    CREATE INDEX games_status_newest ON games (status, listed, updated_at DESC, id);
    CREATE INDEX games_due ON games (next_reminder_at)
      WHERE status = 'active' AND NOT attention AND next_reminder_at IS NOT NULL;

    CREATE TABLE game_log (
      game_id text NOT NULL REFERENCES games (id),
      seq integer NOT NULL,
      entry text NOT NULL,
      PRIMARY KEY (game_id, seq)
    );

    CREATE TABLE game_keys (
      key_hash text PRIMARY KEY,
      game_id text NOT NULL REFERENCES games (id),
      role text NOT NULL,
      seat integer
    );
    CREATE INDEX game_keys_game ON game_keys (game_id);

    CREATE TABLE game_snapshots (
      game_id text NOT NULL REFERENCES games (id),
      seq integer NOT NULL,
      entry_hash text NOT NULL,
      rules_version integer NOT NULL,
      state_hash text NOT NULL,
      state text NOT NULL,
      PRIMARY KEY (game_id, seq)
    );
  `);
}

export function down(pgm: MigrationBuilder): void {
  pgm.sql('DROP TABLE game_snapshots, game_keys, game_log, games');
}
