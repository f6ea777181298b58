// What a reply says: the commands at its top, found under the quoted mail,
// the signature and the client's "On ... wrote:" line, which email-reply-parser
// (a library made for exactly that) strips, for the reply styles of Gmail,
// Outlook, Apple Mail, Thunderbird and phones (test/mail/reply-text.test.ts).
//
// The first paragraph of what is left holds the commands, one per line, each
// starting with a command word: a word of the game's own language (the first
// words of its `commandExamples`), a move's number from the list in the mail,
// or one of the words every game has (say, undo, history, board, help). A reply
// whose first line starts with no command word is table talk as a whole. A
// line in the commands that starts with no command word ends them; the rest is
// not played (the answer says so).
//
// Nothing of our own mail is read, even where the client left it unmarked (pasted
// under the reply with no quote marks and no "wrote:" line, as some clients'
// "include original text" does): the reading stops at the first line that is
// ours (the desk knows them: the first line of every mail of ours, and any link
// to this server). Table talk goes to every seat, and the seat's own mail holds
// its hidden holdings and the link that is its key.
import EmailReplyParser from 'email-reply-parser';
import type { AnyRules } from '../../../rules/types.ts';

/** Words every game takes in a reply. */
export const COMMON_WORDS = ['say', 'undo', 'history', 'board', 'help', 'move'] as const;

/** Lines and characters of a reply that are read at all (the rest is cut off). */
const MAX_LINES = 20;
const MAX_LINE = 500;

export interface ReplyReading {
  /** The command lines, in order. */
  commands: string[];
  /** Table talk: the reply started with no command (its visible text, cut to 2,000 characters). */
  talk: string | null;
  /** The first line after the commands that is not a command (not played), if any. */
  ignored: string | null;
}

/**
 * Characters of a reply's text handed to the parser. Its cost grows with the text (a few ms for
 * a quoted turn mail, seconds for a megabyte): the text first has each run of '>'-quoted lines
 * cut to its first (a linear pass), then is cut, so one reply never holds up the server. Commands
 * stand at the top, or right under a '>'-quoted mail, so neither cut loses them.
 */
const MAX_READ = 16_384;

/** The reply's own text: quoted mail, signature and "On ... wrote:" removed. */
export function visibleText(body: string): string {
  // Each run of quoted lines becomes one, so the parser still sees a quote where there was one
  // but reads one line of it, not the whole turn mail a reply quotes (most of its cost).
  const text = body
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((l, i, all) => !(l.startsWith('>') && all[i - 1]?.startsWith('>')))
    .join('\n');
  return new EmailReplyParser().parseReply(text.slice(0, MAX_READ)).replace(/\u00a0/g, ' ');
}

/** The command words of a game: the first word of each of its examples, and the common ones. */
export function commandWords(rules: AnyRules): Set<string> {
  const words = new Set<string>(COMMON_WORDS);
  for (const ex of rules.commandExamples ?? []) {
    for (const part of ex.split(':')[0]!.split(' / ')) {
      const w = part.trim().split(/\s+/)[0]?.toLowerCase();
      if (w && /^[a-z]+$/.test(w)) words.add(w);
    }
  }
  return words;
}

/** Whether a line starts like a command of this game (or, failing that, the game's parser reads it). */
export function isCommandOf(line: string, words: Set<string>, parses?: (line: string) => boolean): boolean {
  const first = line.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return /^#?\d{1,4}\.?$/.test(first) || words.has(first) || (parses?.(line) ?? false);
}

/**
 * Reads a reply's text (plain; HTML already turned into text) for a game. `parses`: whether the
 * game's parser reads a line in the current position (a command word its examples do not show).
 * `ours`: whether a line belongs to a mail of ours (it and all after it are not read).
 */
export function readReply(
  body: string,
  rules: AnyRules,
  parses?: (line: string) => boolean,
  ours?: (line: string) => boolean,
): ReplyReading {
  const visible = visibleText(body);
  let lines = visible.split('\n').map((l) => l.trim());
  const mailStarts = ours ? lines.findIndex(ours) : -1;
  if (mailStarts >= 0) lines = lines.slice(0, mailStarts);
  while (lines.length > 0 && lines[0] === '') lines.shift();
  // A rule a client draws above what it quotes (Outlook's line of dashes or underscores).
  while (lines.length > 0 && /^([-_=*~] ?){2,}$|^$/.test(lines[lines.length - 1]!)) lines.pop();
  const words = commandWords(rules);
  const isCommand = (line: string) => isCommandOf(line, words, parses);
  if (lines.length === 0) return { commands: [], talk: null, ignored: null };
  if (!isCommand(lines[0]!)) {
    const talk = lines.join('\n').trim().slice(0, 2000);
    return { commands: [], talk: talk === '' ? null : talk, ignored: null };
  }
  const commands: string[] = [];
  let ignored: string | null = null;
  for (const line of lines) {
    if (line === '') break;
    if (!isCommand(line)) {
      ignored = line.slice(0, 80);
      break;
    }
    if (commands.length >= MAX_LINES) {
      ignored = line.slice(0, 80);
      break;
    }
    commands.push(line.slice(0, MAX_LINE));
  }
  return { commands, talk: null, ignored };
}

/** The number of a move typed as "3", "#3", "3." or "move 3"; null for anything else. */
export function moveNumber(line: string): number | null {
  const m = /^(?:move\s+)?#?(\d{1,4})\.?$/i.exec(line.trim());
  return m ? Number(m[1]) : null;
}
