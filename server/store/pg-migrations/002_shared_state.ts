// Format 2 of the PostgreSQL store: what several server processes share
// besides the games. The server secret (when SECRET_KEY is not given), the
// mail queue (mail/pg-queue.ts) and mail cursor (games.mail_seq, mail/pg-cursor.ts), and the
// POST rate limit's counters (http/pg-rate-limit.ts) and the quotas' uses (pg-quota.ts).
import type { MigrationBuilder } from 'node-pg-migrate';

export function up(pgm: MigrationBuilder): void {
  pgm.sql(`
    CREATE TABLE server_secret (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      secret text NOT NULL
    );

    CREATE TABLE mail_jobs (
      id text PRIMARY KEY,
      key text NOT NULL,
      state text NOT NULL,
      priority smallint NOT NULL,
      attempts integer NOT NULL,
      created_at bigint NOT NULL,
      next_attempt_at bigint NOT NULL,
      spec jsonb,
      mail jsonb,
      last_error text,
      message_id text,
      recipient text,
      subject text,
      sent_at bigint
    );
    CREATE INDEX mail_jobs_due ON mail_jobs (priority, next_attempt_at) WHERE state = 'pending';
    CREATE INDEX mail_jobs_sent ON mail_jobs (sent_at) WHERE state IN ('sent', 'skipped');

    -- The mail cursor (mail/pg-cursor.ts): the log position up to which each game's mail is
    -- queued; the partial index finds the games behind it without reading the others.
    ALTER TABLE games ADD COLUMN mail_seq integer NOT NULL DEFAULT 0;
    CREATE INDEX games_mail_behind ON games (id) WHERE last_seq > mail_seq;

    CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      reset_at bigint NOT NULL
    );
    CREATE INDEX rate_limits_reset ON rate_limits (reset_at);

    -- Creation and invitation quotas (pg-quota.ts): one row per use, counted in a sliding window.
    CREATE TABLE quota_uses (
      name text NOT NULL,
      key text NOT NULL,
      at bigint NOT NULL
    );
    CREATE INDEX quota_uses_key ON quota_uses (name, key, at);
  `);
}

export function down(pgm: MigrationBuilder): void {
  pgm.sql('DROP TABLE quota_uses, rate_limits, mail_jobs, server_secret; ALTER TABLE games DROP COLUMN mail_seq');
}
