// The daily digest book in PostgreSQL (table mail_addresses, migration 004): what digest.ts keeps
// in one file per address, in one row per address, so that every server process sharing the
// database reads and writes the same book. Each change is one statement that changes only its
// part of the row (a game noted, games forgotten, the time, the invitations switch), so two
// processes changing one address at once lose neither change.
import type pg from 'pg';
import { isDigestTime, type DigestBookApi, type DigestTime } from './digest.ts';
import { mailId } from './message.ts';

interface Row {
  games: Record<string, number>;
  time: DigestTime | null;
  no_invites: boolean;
}

export class PgDigestBook implements DigestBookApi {
  constructor(private readonly pool: pg.Pool) {}

  private async row(email: string): Promise<Row | undefined> {
    const r = await this.pool.query<Row>('SELECT games, time, no_invites FROM mail_addresses WHERE id = $1', [
      idOf(email),
    ]);
    return r.rows[0];
  }

  async read(email: string): Promise<Record<string, number>> {
    return (await this.row(email))?.games ?? {};
  }

  async time(email: string): Promise<DigestTime | undefined> {
    const t = (await this.row(email))?.time;
    return t && isDigestTime(t) ? t : undefined;
  }

  async setTime(email: string, time: DigestTime): Promise<void> {
    await this.upsert(email, 'time = EXCLUDED.time', { time: JSON.stringify(time) });
  }

  async takesInvitations(email: string): Promise<boolean> {
    return (await this.row(email))?.no_invites !== true;
  }

  async setTakesInvitations(email: string, yes: boolean): Promise<void> {
    await this.upsert(email, 'no_invites = EXCLUDED.no_invites', { noInvites: !yes });
  }

  async add(email: string, gameId: string, seat: number): Promise<void> {
    await this.upsert(email, 'games = mail_addresses.games || EXCLUDED.games', {
      games: JSON.stringify({ [gameId]: seat }),
    });
  }

  async remove(email: string, gameIds: string[]): Promise<void> {
    if (gameIds.length === 0) return;
    await this.pool.query('UPDATE mail_addresses SET games = games - $2::text[] WHERE id = $1', [idOf(email), gameIds]);
  }

  /** Inserts the address's row with `values`, or changes only `set` on the row there is. */
  private async upsert(
    email: string,
    set: string,
    values: { games?: string; time?: string; noInvites?: boolean },
  ): Promise<void> {
    await this.pool.query(
      `INSERT INTO mail_addresses (id, email, games, time, no_invites)
       VALUES ($1, $2, COALESCE($3::jsonb, '{}'::jsonb), $4::jsonb, COALESCE($5::boolean, false))
       ON CONFLICT (id) DO UPDATE SET ${set}`,
      [idOf(email), email, values.games ?? null, values.time ?? null, values.noInvites ?? null],
    );
  }
}

/** The row's key: the same address whatever its case (as the file book names its files). */
function idOf(email: string): string {
  return mailId(email.toLowerCase());
}
