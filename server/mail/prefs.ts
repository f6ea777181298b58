// A player's mail preference for one game (kept in the seat's prefs in the
// game document, changed by service.setSeatPrefs: private, never in the log).
import type { SeatRecord } from '../store/types.ts';

export const MAIL_PREFS = ['every', 'digest', 'reminders', 'nothing'] as const;
export type MailPref = (typeof MAIL_PREFS)[number];

export const MAIL_PREF_LABELS: Record<MailPref, string> = {
  every: 'A mail on every turn',
  digest: 'One daily digest of all my games waiting for me',
  reminders: 'Only reminders when I sit on a move too long',
  nothing: 'No mail at all for this game',
};

export function isMailPref(v: unknown): v is MailPref {
  return typeof v === 'string' && (MAIL_PREFS as readonly string[]).includes(v);
}

export function mailPref(seat: Pick<SeatRecord, 'prefs'>): MailPref {
  const v = seat.prefs?.mail;
  return isMailPref(v) ? v : 'every';
}
