// What a reply says, as the common mail clients write replies: the commands at
// the top (or below the quote, bottom-posted), the quoted mail, the "On ...
// wrote:" line, signatures and phone footers stripped by email-reply-parser.
import { describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { simpleParser } from 'mailparser';
import { readReply } from '../../server/mail/inbound/commands.ts';
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
