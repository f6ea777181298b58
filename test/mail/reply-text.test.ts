// What a reply says, as the common mail clients write replies: the commands at
// the top (or below the quote, bottom-posted), the quoted mail, the "On ...
// wrote:" line, signatures and phone footers stripped by email-reply-parser.
import { describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { simpleParser } from 'mailparser';
import { readReply } from '../../server/mail/inbound/commands.ts';
import { MAX_HTML, ownHtml, replyTextOfHtml } from '../../server/mail/inbound/html-reply.ts';
import { games } from '../../rules/index.ts';
import { highCard } from '../support/high-card.ts';
import { buildReply, quoted, type ClientStyle } from '../support/mail-client.ts';

const turnMail = {
  subject: 'Your turn in High Card #abc (move 4)',
  text: 'Hello Ada,\n\nIt is your turn.\n\nYour moves now (type the number or the command):\n  1. chose a stake: card 1\n  2. chose a stake: card 2\n\n--\nYour page in this game: http://x/play/k\n',
  messageId: '<a1.s4@example.test>',
  to: { value: [{ address: 'ada@example.test', name: 'Ada' }], html: '', text: '' },
  replyTo: { value: [{ address: 'play+x.y@play.example.test', name: '' }], html: '', text: '' },
} as unknown as ParsedMail;

const STYLES: ClientStyle[] = ['gmail', 'outlook', 'apple', 'thunderbird', 'phone', 'inline'];

describe('reading a reply', () => {
  for (const style of STYLES) {
    it(`reads the commands of a ${style} reply and nothing of the quoted mail`, async () => {
      const parsed = await simpleParser(await buildReply(turnMail, 'stake 2\nsay good luck', { style }));
      const r = readReply(parsed.text ?? '', highCard);
      expect(r).toEqual({ commands: ['stake 2', 'say good luck'], talk: null, ignored: null });
    });
  }

  it('reads a bottom-posted reply (the quote first)', () => {
    const text = `${quoted(turnMail, 'gmail').trim()}\n\ndraw\n\n-- \nAda\n`;
    expect(readReply(text, highCard).commands).toEqual(['draw']);
  });

  it('takes a reply that starts with no command as table talk, whole', () => {
    const text = `Nice one, Bob.\nYou will pay for that!${quoted(turnMail, 'apple')}`;
    expect(readReply(text, highCard)).toEqual({
      commands: [],
      talk: 'Nice one, Bob.\nYou will pay for that!',
      ignored: null,
    });
  });

  it('reads nothing of our own mail pasted under the reply unmarked, nor the rule a client drew above it', () => {
    const ours = (line: string) => line.startsWith('High Card · ') || line.includes('http://x/');
    const mail = `High Card · move 4\n\n${turnMail.text}`;
    expect(readReply(`Well played.\nAgain tomorrow?\n\n${mail}`, highCard, undefined, ours)).toEqual({
      commands: [],
      talk: 'Well played.\nAgain tomorrow?',
      ignored: null,
    });
    // Run together with the words (no blank line), and with a link of ours in the words: cut there.
    expect(readReply(`Well played.\n${mail}`, highCard, undefined, ours).talk).toBe('Well played.');
    expect(readReply('See http://x/play/k for my hand', highCard, undefined, ours).talk).toBeNull();
    expect(readReply(`stake 2\n${mail}`, highCard, undefined, ours).commands).toEqual(['stake 2']);
    expect(readReply(`Nice one.\n\n${'-'.repeat(80)}\n`, highCard).talk).toBe('Nice one.');
  });

  it('ends the commands at a line that is none, and says which', () => {
    const r = readReply(`1\nthanks for the game\nundo${quoted(turnMail, 'gmail')}`, highCard);
    expect(r.commands).toEqual(['1']);
    expect(r.ignored).toBe('thanks for the game');
  });

  it("knows every game's own command words", () => {
    const first: Record<string, string> = {
      '1830': 'buy PRR ipo',
      airlines: 'extend GLA dotted4 ORD-MSP/2 take pile',
      'airlines-europe': 'buy orange athens-sofia take blue',
      'paperclip-railways': 'build S1 york via 120,-40',
      'stephensons-rocket': 'extend LNWR straight',
    };
    for (const rules of games) {
      const line = first[rules.id]!;
      expect(readReply(`${line}${quoted(turnMail, 'outlook')}`, rules).commands, rules.id).toEqual([line]);
    }
  });

  it('reads a reply quoting a huge mail, above or below the quote', () => {
    const huge = Array.from({ length: 30_000 }, (_, i) => `> quoted line ${i} of a long mail`).join('\n');
    expect(readReply(`draw\n\nOn Tue, 1 Dec 2026, Games wrote:\n${huge}`, highCard).commands).toEqual(['draw']);
    expect(readReply(`On Tue, 1 Dec 2026, Games wrote:\n${huge}\n\nplay 5\n`, highCard).commands).toEqual(['play 5']);
  });

  it('reads the text of an HTML-only reply', async () => {
    const parsed = await simpleParser(await buildReply(turnMail, 'play 5', { htmlOnly: true }));
    expect(parsed.html).toBeTruthy();
    expect(readReply(parsed.text ?? '', highCard).commands).toEqual(['play 5']);
  });

  it('reads a reply written in ISO-8859-1', async () => {
    const raw = await buildReply(turnMail, 'say Grüße aus Köln', { charset: 'iso-8859-1' });
    expect(raw.toString('latin1')).toMatch(/charset=iso-8859-1/i);
    const parsed = await simpleParser(raw);
    expect(readReply(parsed.text ?? '', highCard).commands).toEqual(['say Grüße aus Köln']);
  });
});

describe('reading a reply sent as HTML only', () => {
  // The mail it quotes, as HTML: long (a turn mail with its move list), with the seat's holdings.
  const quotedMail = `<p>Hello Ada,</p><p>Your hand: 3, 7, 9</p>${'<p>a line of the quoted turn mail</p>'.repeat(6_000)}`;
  const clients: Record<string, string> = {
    gmail: `<div dir="ltr"><div>stake 2</div><div>say good luck</div></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Tue, 1 Dec 2026 at 10:00, Share Games &lt;games@example.test&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0 0 0 .8ex">${quotedMail}</blockquote></div>`,
    outlook: `<html><head><meta charset="utf-8"><style>p.MsoNormal{margin:0cm;font-size:11pt}${'.x{color:red}'.repeat(2_000)}</style></head><body lang="EN-GB"><div class="WordSection1"><p class="MsoNormal">stake 2<o:p></o:p></p><p class="MsoNormal">say good luck<o:p></o:p></p></div><hr style="display:inline-block;width:98%"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Share Games<br><b>Sent:</b> Tuesday, December 1, 2026 10:00</div>${quotedMail}</body></html>`,
    apple: `<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8"></head><body dir="auto"><div>stake 2</div><div>say good luck</div><div><br><blockquote type="cite">On 1 Dec 2026, at 10:00, Share Games &lt;games@example.test&gt; wrote:<br><br></blockquote></div><blockquote type="cite">${quotedMail}</blockquote></body></html>`,
    thunderbird: `<html><head><meta http-equiv="content-type" content="text/html; charset=UTF-8"></head><body><p>stake 2<br>say good luck</p><div class="moz-cite-prefix">On 01/12/2026 10:00, Share Games wrote:<br></div><blockquote type="cite" cite="mid:a1.s4@example.test">${quotedMail}</blockquote></body></html>`,
  };
  for (const [client, html] of Object.entries(clients)) {
    it(`reads the commands of a ${client} HTML reply, converting only its own part`, async () => {
      expect(html.length).toBeGreaterThan(200_000);
      expect(ownHtml(html).length).toBeLessThan(1_000);
      expect(readReply(await replyTextOfHtml(html), highCard).commands).toEqual(['stake 2', 'say good luck']);
    });
  }

  it('converts at most MAX_HTML characters of a reply that quotes nothing, and reads an unclosed style as the end', async () => {
    const long = `<div>Nice one.</div>${'<p>on and on</p>'.repeat(20_000)}`;
    expect(ownHtml(long).length).toBeLessThan(MAX_HTML * 1.5);
    expect(readReply(await replyTextOfHtml(long), highCard).talk).toMatch(/^Nice one\./);
    expect(ownHtml('<div>Nice one.</div><style>p{}')).toBe('<div>Nice one.</div>');
    expect(await replyTextOfHtml('<html><head><title>x</title></head><body> </body></html>')).toBe('');
  });
});
