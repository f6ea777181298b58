// Format 3 of the PostgreSQL store: the POST rate limit's counters (http/pg-rate-limit.ts) are
// an UNLOGGED table. Every POST (every move) bumps a counter; in a logged table that is a
// second WAL flush per move besides the move's own commit, for a number nobody needs after a
// crash (PostgreSQL empties an unlogged table when it recovers from one: every client starts a
// fresh window, which is what a restart of the embedded server does too). A transaction that
// writes only unlogged tables commits without waiting for the disk.
import type { MigrationBuilder } from 'node-pg-migrate';

export function up(pgm: MigrationBuilder): void {
  pgm.sql('ALTER TABLE rate_limits SET UNLOGGED');
}

export function down(pgm: MigrationBuilder): void {
  pgm.sql('ALTER TABLE rate_limits SET LOGGED');
}
