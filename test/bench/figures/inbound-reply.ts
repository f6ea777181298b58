// inbound_reply: one reply by mail, from the raw message received to its answer
// durably queued: parse (mailparser), the seat its address names, the sender, the
// DKIM check (auth: dkim, against a DNS table), the quoted text stripped, the
// command (a move's number) played as a durable move, the answer queued. Not the
// picture: answers are drawn when they are sent. Target: p99 under 30 ms.
// Replies come one after another (each waits for the one before), from the seat
// to act, with the previous mail quoted as a client does; a game that ends is
// followed by a new one. auth_failures: signed replies the DKIM check refused
// (each is counted, not timed, and the next reply goes on); it must be 0.
// cpu_ms_per_reply: the process's CPU time (all its threads) over the timed
// replies, background mail composing included: on a loaded machine it says what
// the wall-clock figures cannot, how much of them is this server's own work.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Emit } from '../index.ts';
import { games } from '../../../rules/index.ts';
import { makeService } from '../../support/service.ts';
import { dkimSigned } from '../../support/dkim.ts';
import { createMailer } from '../../../server/mail/index.ts';
import { replyAddress } from '../../../server/mail/reply-address.ts';

export const figures = ['inbound_reply'];

const WARM = 20;
const REPLIES = 200;
const QUOTE = Array.from(
  { length: 40 },
  (_, i) => `> line ${i} of the turn mail this reply quotes, as clients do`,
).join('\n');

export async function run(emit: Emit): Promise<void> {
  const rules = games.find((g) => g.id === 'stephensons-rocket')!;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const txt = `v=DKIM1; k=rsa; p=${key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const resolver = async (name: string, type: string): Promise<string[][]> => {
    if (type === 'TXT' && name === 'home._domainkey.example.test') return [[txt]];
    throw Object.assign(new Error('no record'), { code: 'ENOTFOUND' });
  };
  for (const auth of ['off', 'dkim'] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-inbound-'));
    const t = await makeService([rules], dir);
    const mailer = createMailer({
      service: t.service,
      dataDir: dir,
      env: {
        MAIL_FROM: 'Games <games@example.test>',
        MAIL_DOMAIN: 'play.example.test',
        INBOUND_AUTH: auth,
        // one bench sender sends hundreds of replies an hour
        INBOUND_PER_SENDER_HOUR: '1000000',
      },
      transport: { send: async () => {} },
      dnsResolver: resolver,
    });
    const desk = mailer.desk!;
    try {
      const newGame = async () => {
        const made = await t.service.create({
          rules: rules.id,
          seats: 2,
          name: 'P0',
          email: 'p0@example.test',
          join: true,
        });
        await t.service.join(made.gameId, { name: 'P1', email: 'p1@example.test' });
        return made.gameId;
      };
      let gameId = await newGame();
      const wall: number[] = [];
      let total = 0;
      let authFailures = 0;
      let cpuMicros = 0;
      for (let i = 0; i < WARM + REPLIES; i++) {
        let game = await t.service.open(gameId);
        if (game.doc.status !== 'active') game = await t.service.open((gameId = await newGame()));
        const seat = rules.toAct(game.state)[0]!;
        const rec = game.doc.seats[seat]!;
        const to = replyAddress(gameId, t.service.links.replyTokenOf(game.doc, seat)!, 'play.example.test');
        const composer = new MailComposer({
          from: rec.email,
          to,
          subject: `Re: Your turn in Stephenson's Rocket (move ${game.stateSeq})`,
          inReplyTo: `<bench${i}.s${game.stateSeq}@example.test>`,
          text: `1\n\nOn Tue, 1 Dec 2026 at 10:00, Games <games@example.test> wrote:\n\n${QUOTE}\n`,
        });
        let raw = await new Promise<Buffer>((resolve, reject) =>
          composer.compile().build((err, m) => (err ? reject(err) : resolve(m))),
        );
        if (auth === 'dkim') {
          raw = await dkimSigned(raw, { signingDomain: 'example.test', selector: 'home', privateKey: pem });
        }
        const cpuBefore = process.cpuUsage();
        const start = performance.now();
        const verdict = await desk.receive(raw, { recipients: [to] });
        const ms = performance.now() - start;
        const cpu = process.cpuUsage(cpuBefore);
        if (verdict.status === 'refused' && /authenticated/.test(verdict.reason)) {
          authFailures++;
          continue;
        }
        if (verdict.status !== 'answered') throw new Error(`reply ${i} not answered: ${JSON.stringify(verdict)}`);
        if (i >= WARM) {
          wall.push(ms);
          total += ms;
          cpuMicros += cpu.user + cpu.system;
        }
      }
      const sorted = [...wall].sort((a, b) => a - b);
      const at = (q: number) =>
        Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;
      emit({
        name: 'inbound_reply',
        game: rules.id,
        auth,
        replies: wall.length,
        replies_per_s: Math.round((wall.length / total) * 1000 * 10) / 10,
        median_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: at(1),
        cpu_ms_per_reply: Math.round(cpuMicros / wall.length / 10) / 100,
        auth_failures: authFailures,
        target_p99_ms: 30,
      });
    } finally {
      await mailer.queue.stop();
      await t.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
