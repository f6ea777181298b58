// Format 7 of the PostgreSQL store: a game's row holds only what a move changes. Every append
// rewrote the whole row (PostgreSQL writes a new version of a row on every UPDATE, and its WAL):
// the metadata (about 3 kB for four seats) and the index row derived from it (about 2 kB), some
// 5.8 kB of WAL a move, for the four fields a move changes. Now:
//   games.hot      the metadata fields a move or a reminder changes (HOT_FIELDS in pg-store.ts:
//                  updatedAt, status, wait, outcome), besides the indexed columns as before
//   game_meta      the rest of the metadata, and the hashes of the players' addresses (a
//                  player's list of games), written only when one of them changes (a join, a
//                  seat reopened, settings, standing orders)
// The index row is no longer stored: it is derived from the metadata and the log's end
// (indexEntryOf), as every backend derives it; listing and reminders ask the indexed columns.
// Existing games are split here; the columns dropped keep their space until the rows are next
// written (or VACUUM).
import type { MigrationBuilder } from 'node-pg-migrate';

/** As pg-store.ts HOT_FIELDS at the time of this migration (a migration does not change later). */
const HOT = "ARRAY['updatedAt', 'status', 'wait', 'outcome']";

export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    CREATE TABLE game_meta (
      game_id text PRIMARY KEY REFERENCES games (id),
      meta jsonb NOT NULL,
      mail_hashes text[] NOT NULL
    );
    -- Read with every game opened and every due reminder: kept in the table's own page, as 005 did.
    ALTER TABLE game_meta SET (toast_tuple_target = 8160);
    INSERT INTO game_meta (game_id, meta, mail_hashes)
      SELECT id, meta - ${HOT},
        ARRAY(SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(row->'mailHashes') = 'array'
          THEN row->'mailHashes' ELSE '[]' END))
      FROM games;
    ALTER TABLE games ADD COLUMN hot jsonb;
    UPDATE games SET hot = (SELECT coalesce(jsonb_object_agg(key, value), '{}') FROM jsonb_each(meta)
      WHERE key = ANY(${HOT}));
    ALTER TABLE games ALTER COLUMN hot SET NOT NULL, DROP COLUMN meta, DROP COLUMN row;
    ALTER TABLE games RESET (toast_tuple_target);
  `);
}

// Not reversible: the index row the older server stored is derived in code, not in SQL.
export const down = false;
