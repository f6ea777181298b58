// The shape of one outgoing mail as the queue stores it: plain JSON, so a
// queued message survives a restart byte for byte (attachments as base64).
import { createHash } from 'node:crypto';

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Set for inline images referenced from the HTML as cid:<cid>. */
  cid?: string;
  contentBase64: string;
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Angle-bracketed, e.g. <q1f...@pbem.example>; derived from the idempotency key. */
  messageId: string;
  inReplyTo?: string;
  /** Where replies go: the seat's play+<token>@MAIL_DOMAIN (server/mail/reply-address.ts). */
  replyTo?: string;
  references?: string[];
  /** Extra headers: List-Unsubscribe, List-Unsubscribe-Post, List-Id, Auto-Submitted... */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

/** A stable file-name-safe id for an idempotency key. */
export function mailId(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

/** The Message-ID for an idempotency key: the same key always gives the same id. */
export function messageIdFor(key: string, domain: string): string {
  return `<${mailId(key)}@${domain}>`;
}
