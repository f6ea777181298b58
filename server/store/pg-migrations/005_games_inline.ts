// Format 5 of the PostgreSQL store: a game's row keeps its metadata and index row in the table's
// own page (toast_tuple_target at its largest) instead of moving the metadata out to the TOAST
// table once the row passes 2 kB, which a game of two seats already does. Every append rewrites
// the row: out of line, that was a second table and index to write and read per change (a
// reminder tick over a hundred games spent about a sixth of the database's time there).
// Rows are moved in as they are next written; a metadata document past 8 kB still goes out.
import type { MigrationBuilder } from 'node-pg-migrate';

export function up(pgm: MigrationBuilder): void {
  pgm.sql('ALTER TABLE games SET (toast_tuple_target = 8160)');
}

export function down(pgm: MigrationBuilder): void {
  pgm.sql('ALTER TABLE games RESET (toast_tuple_target)');
}
