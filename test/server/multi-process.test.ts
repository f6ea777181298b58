// Several server processes on one PostgreSQL database (README, "Several
// processes on PostgreSQL"): three processes serve the same games; clients
// play many games through all of them at once, every move clicked twice at
// once on two different processes; one process is SIGKILLed under load. Then:
// no click counted twice, no acknowledged move lost, every chain verifies,
// every turn mail queued once and sent once (Message-IDs counted at a real
// SMTP server), and a reminder tick run by every process at once reminds each
// due game once. Skipped without PostgreSQL (test/support/pg-setup.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { LogEntry } from '../../server/store/types.ts';
import { verifyHistory } from '../../server/verify.ts';
import { startSmtp, type TestSmtp } from '../mail/smtp.ts';
import { highCard } from '../support/high-card.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';
import { startPgChild as startProc, type PgChild as Proc } from '../support/pg-child.ts';

function tick(p: Proc, skewMs: number): Promise<{ reminders: number; errors: number }> {
  return new Promise((resolve, reject) => {
    p.child.once('message', (m: { ticked?: { reminders: number; errors: number }; error?: string }) =>
      m.ticked ? resolve(m.ticked) : reject(new Error(m.error)),
    );
    p.child.send({ tick: true, skewMs });
  });
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const procs: Proc[] = [];
const dirs: string[] = [];
let smtp: TestSmtp | null = null;
let schema = '';
afterAll(async () => {
  for (const p of procs) if (p.alive) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await smtp?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  if (schema) await dropSchema(schema);
});

interface Game {
  id: string;
  keys: string[];
  acked: { seq: number; seat: number; action: unknown }[];
  /** Moves whose answer never came (their process died): each may or may not be in the log. */
  unknown: number;
}

const T0 = Date.now();
const phase = (what: string) =>
  process.env.MP_TRACE && console.error(`[mp ${((Date.now() - T0) / 1000).toFixed(1)}s] ${what}`);

describePg('several server processes on one PostgreSQL database', () => {
  it('moves once, loses nothing, mails each turn once and reminds once, with a process SIGKILLed under load', async () => {
    schema = newSchema();
    smtp = await startSmtp();
    const env = (i: number) => {
      const dir = mkdtempSync(join(tmpdir(), `pbem-multi-${i}-`));
      dirs.push(dir);
      return { TEST_DATABASE_URL: pgUrl(), PG_SCHEMA: schema, SMTP_URL: smtp!.url, DATA_DIR: dir, RECONCILE_MS: '500' };
    };
    // The first migrates the schema; the other two start together (the advisory lock orders them).
    procs.push(await startProc(env(0)));
    procs.push(...(await Promise.all([startProc(env(1)), startProc(env(2))])));
    let turn = 0;
    const any = () => {
      const alive = procs.filter((p) => p.alive);
      return alive[turn++ % alive.length]!;
    };

    phase('started');
    // 12 games of 2 or 3 seats, each made and joined through different processes.
    const games: Game[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async (_, g) => {
        const seats = 2 + (g % 2);
        const c = await call(any().url, 'POST', '/api/games', {
          rules: 'high-card',
          seats,
          name: 'P0',
          email: `g${g}p0@example.test`,
        });
        expect(c.status).toBe(201);
        const keys = [c.body.seatKey as string];
        for (let p = 1; p < seats; p++) {
          const j = await call(any().url, 'POST', `/api/join/${c.body.inviteKey}`, {
            name: `P${p}`,
            email: `g${g}p${p}@example.test`,
          });
          expect(j.status).toBe(201);
          keys.push(j.body.seatKey);
        }
        games.push({ id: c.body.gameId, keys, acked: [], unknown: 0 });
      }),
    );

    phase('games made');
    // Each game's client clicks every move twice at once, on two different processes.
    let stop = false;
    let total = 0;
    let doubled = 0;
    const unexpected: number[] = [];
    let playing = games.length;
    const clients = games.map(async (g) => {
      const seatKey = new Map<number, string>();
      for (const key of g.keys) seatKey.set((await call(any().url, 'GET', `/api/play/${key}`)).body.you, key);
      while (!stop) {
        try {
          const st0 = await call(any().url, 'GET', `/api/play/${g.keys[0]}`);
          if (st0.status !== 200 || st0.body.game.status !== 'active') return;
          const seat = st0.body.view.toAct[0] as number;
          const key = seatKey.get(seat)!;
          const st = await call(any().url, 'GET', `/api/play/${key}`);
          if (!st.body.yourTurn) continue;
          const move = { seq: st.body.game.seq, action: st.body.moves[0].action };
          const [a, b] = [any(), any()];
          const answers = await Promise.all(
            [a, b].map((p) =>
              call(p.url, 'POST', `/api/play/${key}/move`, move).catch(() => {
                g.unknown++;
                return { status: 0, body: null };
              }),
            ),
          );
          const ok = answers.filter((r) => r.status === 200);
          if (ok.length > 1) doubled++;
          for (const r of answers) if (![0, 200, 409].includes(r.status)) unexpected.push(r.status);
          if (ok[0]) {
            g.acked.push({ seq: ok[0].body.seq, seat, action: move.action });
            total++;
          }
        } catch {
          // a process died under this read: try again on another
        }
      }
    });
    for (const c of clients) void c.finally(() => playing--);
    // SIGKILL one process once a fair number of moves are in, and play on with the other two.
    while (total < 50 && playing > 0) await new Promise((r) => setTimeout(r, 5));
    phase(`killing at ${total}`);
    const victim = procs[2]!;
    victim.alive = false;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const atKill = total;
    while (total < atKill + 30 && playing > 0) await new Promise((r) => setTimeout(r, 5));
    stop = true;
    phase(`stopping at ${total}`);
    await Promise.all(clients);
    phase('clients done');
    expect(doubled).toBe(0);
    expect(unexpected).toEqual([]);
    expect(total).toBeGreaterThan(50);

    // Every acknowledged move is there, nothing twice; every seat's history verifies.
    const logs = new Map<string, LogEntry[]>();
    for (const g of games) {
      const h0 = await call(any().url, 'GET', `/api/play/${g.keys[0]}/history`);
      expect(h0.status).toBe(200);
      const log = h0.body.log as LogEntry[];
      logs.set(g.id, log);
      for (const a of g.acked)
        expect(log[a.seq - 1], `game ${g.id} seq ${a.seq}`).toMatchObject({ kind: 'move', seat: a.seat });
      const moves = log.filter((e) => e.kind === 'move').length;
      expect(moves).toBeGreaterThanOrEqual(g.acked.length);
      expect(moves).toBeLessThanOrEqual(g.acked.length + g.unknown);
      for (const key of g.keys) {
        const h = await call(any().url, 'GET', `/api/play/${key}/history`);
        expect(verifyHistory(h.body, [highCard])).toMatchObject({ ok: true });
        const you = (await call(any().url, 'GET', `/api/play/${key}`)).body.you as number;
        for (const a of g.acked.filter((x) => x.seat === you)) expect(h.body.log[a.seq - 1].action).toEqual(a.action);
      }
    }

    // Mail: every turn the log asked for is queued (also those of the killed process, by the
    // others' reconcile), and each sent mail reached the SMTP server once.
    const db = new pg.Client({ connectionString: pgUrl(), options: `-c search_path=${schema}` });
    await db.connect();
    try {
      const expected: string[] = [];
      for (const [id, log] of logs) {
        let before: number[] = [];
        for (const e of log) {
          if (!['start', 'move', 'undo'].includes(e.kind)) continue;
          const toAct = (e.data?.toAct as number[] | undefined) ?? [];
          // A turn is mailed while it stands: when its move's mail is queued late (the process
          // that made the move was killed before queueing it, and another process's reconcile
          // hears it; or a busy process's listener runs after the next moves), a seat that has
          // already moved again is not told of a turn it has played (notifier.ts, movedAfter).
          const playedSince = (seat: number) => log.some((x) => x.seq > e.seq && x.kind === 'move' && x.seat === seat);
          for (const seat of toAct)
            if (e.kind === 'move' && seat !== e.seat && !before.includes(seat) && !playedSince(seat))
              expected.push(`turn:${id}:${e.seq}:${seat}:`);
          before = toAct;
        }
      }
      let lastSaid = Date.now();
      const settled = async () => {
        const settleFrom = Date.now();
        for (;;) {
          const r = await db.query<{ n: string }>("SELECT count(*) AS n FROM mail_jobs WHERE state = 'pending'");
          const keys = await db.query<{ key: string }>("SELECT key FROM mail_jobs WHERE key LIKE 'turn:%'");
          const have = new Set(keys.rows.map((k) => k.key.replace(/[^:]*$/, '')));
          if (Number(r.rows[0]!.n) === 0 && expected.every((k) => have.has(k))) return;
          // Fail in words rather than at the test's time limit.
          if (Date.now() - settleFrom > 90_000)
            throw new Error(
              `mail not settled: ${r.rows[0]!.n} pending, never queued: ${expected.filter((k) => !have.has(k)).join(' ')}`,
            );
          if (Date.now() - lastSaid > 5000) {
            lastSaid = Date.now();
            phase(`settling: ${r.rows[0]!.n} pending, missing ${expected.filter((k) => !have.has(k)).join(' ')}`);
          }
          await new Promise((res) => setTimeout(res, 50));
        }
      };
      phase('settling');
      await settled();
      phase('settled');
      const sent = await db.query<{ key: string; message_id: string }>(
        "SELECT key, message_id FROM mail_jobs WHERE state = 'sent'",
      );
      await smtp.waitFor(sent.rows.length);
      const seen = new Map<string, number>();
      for (const id of smtp.messageIds) seen.set(id, (seen.get(id) ?? 0) + 1);
      for (const row of sent.rows) expect(seen.get(row.message_id), row.key).toBeGreaterThanOrEqual(1);
      // A message the killed process had handed to the SMTP server but not yet recorded as sent
      // goes again with the same Message-ID (the at-least-once window of pg-queue.ts); nothing else may.
      const twice = [...seen.values()].filter((n) => n > 1).length;
      expect(twice).toBeLessThanOrEqual(2);
      const turnsSent = sent.rows.filter((r) => r.key.startsWith('turn:')).length;
      expect(turnsSent).toBeGreaterThan(0);

      // Reminders: every process ticks at once (twice each), a day on; each waiting game is reminded once.
      const day = 25 * 3600_000;
      const alive = procs.filter((p) => p.alive);
      phase('ticking');
      const ticks = await Promise.all([...alive, ...alive].map((p) => tick(p, day)));
      expect(ticks.reduce((n, t) => n + t.errors, 0)).toBe(0);
      let waiting = 0;
      for (const g of games) {
        const st = await call(any().url, 'GET', `/api/play/${g.keys[0]}`);
        const h = await call(any().url, 'GET', `/api/play/${g.keys[0]}/history`);
        const notes = (h.body.log as LogEntry[]).filter((e) => e.kind === 'reminder');
        expect(notes, g.id).toHaveLength(st.body.game.status === 'active' ? 1 : 0);
        if (st.body.game.status === 'active') waiting++;
      }
      expect(waiting).toBeGreaterThan(0);
      phase('settling reminders');
      await settled();
      phase('waiting for reminder mails');
      const reminded = await db.query<{ message_id: string }>(
        "SELECT message_id FROM mail_jobs WHERE state = 'sent' AND key LIKE 'reminder:%'",
      );
      expect(reminded.rows.length).toBeGreaterThanOrEqual(waiting);
      for (const row of reminded.rows) {
        await smtp.waitForMail((m) => m.messageId === row.message_id);
        expect(smtp.messageIds.filter((x) => x === row.message_id)).toHaveLength(1);
      }
    } finally {
      await db.end();
    }
  }, 180_000); // about 25 s on a quiet machine; three server processes start on a shared one
});
