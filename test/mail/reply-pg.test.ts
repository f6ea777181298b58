// A reply delivered more than once (the same Message-ID) on PostgreSQL, where the
// mail queue is shared by every server process: two servers on one database, each
// with its SMTP listener, as two MX hosts of MAIL_DOMAIN. The same reply comes in
// again on the same server, then on the other one, then twice at once (one to
// each, as a sending server that timed out on one MX retries on the next), then
// to both desks and twice to one in the same moment: it is played once and
// answered once, and the answer leaves once, whichever process sends it (the
// reply is claimed by an advisory lock while it is played). Skipped without
// PostgreSQL.
import { afterEach, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { PgGameStore } from '../../server/store/pg-store.ts';
import { addressOf, buildReply, sendRaw } from '../support/mail-client.ts';
import { startMailServer, type MailTestServer } from '../support/mail-server.ts';
import { describePg, dropSchema, newSchema, pgUrl } from '../support/pg.ts';

let servers: MailTestServer[] = [];
let schema = '';
afterEach(async () => {
  // The one that owns the SMTP sink stops last.
  for (const s of servers.reverse()) await s.stop();
  servers = [];
  if (schema) await dropSchema(schema);
});

const isAnswer = (x: ParsedMail) => /^Re: /.test(x.subject ?? '');

describePg('a reply delivered twice, on PostgreSQL', () => {
  it('is played once and answered once, on one server or on two, one after the other or at once', async () => {
    schema = newSchema();
    const a = await startMailServer({
      replies: true,
      server: { store: new PgGameStore({ url: pgUrl(), schema }) },
    });
    servers.push(a);
    const b = await startMailServer({
      replies: true,
      smtp: a.smtp,
      server: { store: new PgGameStore({ url: pgUrl(), schema }) },
    });
    servers.push(b);
    const smtp = a.smtp;
    const g = await a.srv.createGame({ rules: 'high-card', players: ['Ada', 'Bob', 'Cy'] });
    const ada = g.seats.find((s) => s.name === 'Ada')!;
    const turn = await smtp.waitForMail((x) => addressOf(x.to) === ada.email && /^Your turn/.test(x.subject ?? ''));
    const envelope = { from: ada.email, to: addressOf(turn.replyTo) };
    const ports = [a.mailer.inboundSmtpPort!, b.mailer.inboundSmtpPort!];
    const talk = async () =>
      (await a.srv.service.open(g.gameId)).doc.log
        .filter((e) => typeof e.data?.talk === 'string')
        .map((e) => e.data!.talk);
    const answersTo = (raw: Buffer) => {
      const id = /^Message-ID: (.*)$/im.exec(raw.toString('utf8'))![1]!.trim();
      return smtp.received.filter((x) => isAnswer(x) && x.inReplyTo === id);
    };
    const settled = async () => {
      for (const s of [a, b]) await s.settle();
    };

    // One after the other: A, A again, then B.
    const first = await buildReply(turn, 'say once only');
    for (const port of [ports[0]!, ports[0]!, ports[1]!]) expect(await sendRaw(port, first, envelope)).toMatch(/^250/);
    await smtp.waitForMail((x) => isAnswer(x) && answersTo(first).includes(x));
    await settled();
    expect(await talk()).toEqual(['once only']);
    expect(answersTo(first)).toHaveLength(1);

    // At once, one to each server: one is taken; the other is taken too (250) or told to try
    // again later (4xx), and a try later finds it answered.
    const second = await buildReply(turn, 'say at once');
    const both = await Promise.allSettled(ports.map((port) => sendRaw(port, second, envelope)));
    for (const r of both) if (r.status === 'rejected') expect(String(r.reason)).toMatch(/\b4\d\d\b/);
    expect(both.some((r) => r.status === 'fulfilled')).toBe(true);
    for (const port of ports) expect(await sendRaw(port, second, envelope)).toMatch(/^250/);
    await smtp.waitForMail((x) => answersTo(second).includes(x));
    await settled();
    expect(await talk()).toEqual(['once only', 'at once']);
    expect(answersTo(second)).toHaveLength(1);
    // Bob and Cy heard each word once.
    for (const who of ['bob@example.test', 'cy@example.test'])
      expect(smtp.received.filter((x) => addressOf(x.to) === who && /Ada says/.test(x.subject ?? ''))).toHaveLength(2);
    // The same reply handed to both servers' desks in the same moment (no SMTP session in
    // between to set them apart): one plays it, the other says try later, or finds it answered.
    const third = await buildReply(turn, 'say in the same moment');
    const verdicts = await Promise.all(
      [a, b, a].map((s) => s.mailer.desk!.receive(third, { recipients: [envelope.to] })),
    );
    expect(verdicts.filter((v) => v.status === 'answered')).toHaveLength(1);
    for (const v of verdicts) expect(['answered', 'dropped', 'later']).toContain(v.status);
    expect((await b.mailer.desk!.receive(third, { recipients: [envelope.to] })).status).toBe('dropped');
    await smtp.waitForMail((x) => answersTo(third).includes(x));
    await settled();
    expect(await talk()).toEqual(['once only', 'at once', 'in the same moment']);
    expect(answersTo(third)).toHaveLength(1);
    // And no message of any kind went out twice.
    expect(new Set(smtp.messageIds).size).toBe(smtp.messageIds.length);
  });
});
