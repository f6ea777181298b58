// Format 6 of the PostgreSQL store: a turn mail says which seat's turn it is for (latest_of: the
// game, the seat and its holder) and at which position (latest_rank: the seq the turn began at).
// Queueing a newer one marks the older ones still pending as skipped in the same statement
// (mail/pg-queue.ts): a turn mail is composed from the game as it is when it is sent, so an
// older one would tell of the same position, or of none if the seat has moved since. Without
// this each of them was claimed, the game read and the mail found stale one by one, and while
// players moved faster than that the queue grew.
import type { MigrationBuilder } from 'node-pg-migrate';

export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    ALTER TABLE mail_jobs ADD COLUMN latest_of text, ADD COLUMN latest_rank integer;
    CREATE INDEX mail_jobs_latest ON mail_jobs (latest_of, latest_rank) WHERE state = 'pending' AND latest_of IS NOT NULL;
  `);
}

export function down(pgm: MigrationBuilder): void {
  pgm.sql('DROP INDEX mail_jobs_latest; ALTER TABLE mail_jobs DROP COLUMN latest_of, DROP COLUMN latest_rank');
}
