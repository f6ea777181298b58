// Format 4 of the PostgreSQL store: the daily digest book (mail/pg-digest.ts), one row per
// address, shared by every server process (it was a file per address in each process's
// DATA_DIR, so a game one process noted was missing from the digest another composed).
import type { MigrationBuilder } from 'node-pg-migrate';

export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    CREATE TABLE mail_addresses (
      id text PRIMARY KEY,
      email text NOT NULL,
      games jsonb NOT NULL DEFAULT '{}',
      time jsonb,
      no_invites boolean NOT NULL DEFAULT false
    );
  `);
}

export function down(pgm: MigrationBuilder): void {
  pgm.sql('DROP TABLE mail_addresses');
}
