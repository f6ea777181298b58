// A game's index row, derived from its metadata and the end of its log alone
// (every backend derives it here, so all of them list and remind alike).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { nextReminderAt } from '../policy.ts';
import type { GameMeta, IndexEntry, LogEntry, ReminderRow, TurnWait } from './types.ts';

export function indexEntryOf(meta: GameMeta, lastSeq: number, lastHash: string): IndexEntry {
  const remindAt = meta.attention ? null : nextReminderAt(meta);
  return {
    id: meta.id,
    rules: meta.rules,
    title: meta.title,
    status: meta.status,
    listed: meta.listed,
    seatCount: meta.seatCount,
    names: meta.seats.map((s) => s.name),
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    lastSeq,
    lastHash,
    toAct: meta.wait?.toAct ?? [],
    nextReminderAt: remindAt,
    inviteGeneration: meta.inviteGeneration,
    ...(meta.seats.some((s) => s.vacant) ? { vacantSeats: meta.seats.filter((s) => s.vacant).length } : {}),
    mailHashes: [
      ...new Set(
        [meta.creator.email, ...meta.seats.filter((s) => !s.vacant).map((s) => s.email)].filter(Boolean).map(mailHash),
      ),
    ],
    keys: {
      admin: meta.adminKeyHash,
      spectator: meta.spectatorKeyHash,
      invite: meta.inviteKeyHash,
      seats: meta.seats.map((s) => s.keyHash),
      ...(meta.confirmKeyHash ? { confirm: meta.confirmKeyHash } : {}),
      ...(meta.retiredSeats?.length ? { retired: meta.retiredSeats.map((r) => r.keyHash) } : {}),
    },
    ...(meta.confirmed === false ? { confirmed: false } : {}),
    sealed: { spectator: meta.spectatorKeySealed, invite: meta.inviteKeySealed },
    rulesVersion: meta.rulesVersion ?? 1,
    attention: meta.attention ?? null,
    ...(meta.privateRev ? { privateRev: meta.privateRev } : {}),
    ...(remindAt !== null && meta.wait ? { remind: reminderRowOf(meta, meta.wait) } : {}),
  };
}

/** The reminder schedule a row carries (IndexEntry.remind): copies, so the row shares nothing with the metadata. */
function reminderRowOf(meta: GameMeta, wait: TurnWait): ReminderRow {
  return {
    wait: { ...wait, toAct: [...wait.toAct] },
    policy: { ...meta.policy },
    seats: meta.seats.map((s) =>
      s.vacant ? { slot: s.slot, generation: s.generation, vacant: true } : { slot: s.slot, generation: s.generation },
    ),
  };
}

/** The index row of a whole game held in memory. */
export function indexEntryOfDoc(doc: GameMeta & { log: LogEntry[] }): IndexEntry {
  const last = doc.log[doc.log.length - 1];
  return indexEntryOf(doc, last?.seq ?? 0, last?.hash ?? '');
}

/** The metadata of a whole game (everything but the log). */
export function metaOf(doc: GameMeta & { log?: LogEntry[] }): GameMeta {
  const { log: _log, ...meta } = doc;
  return meta;
}

/** Whether a game with this index row has a seat free to join (before the start, or reopened in a running game). */
export function hasFreeSeat(e: Pick<IndexEntry, 'names' | 'seatCount' | 'vacantSeats'>): boolean {
  return e.names.length < e.seatCount || (e.vacantSeats ?? 0) > 0;
}

/** How an address is kept in the index: sha256 of it in lower case (hex), never the address itself. */
export function mailHash(email: string): string {
  // Every append derives the index row again, with the hash of every player's address: the
  // hashes of the addresses seen lately are remembered.
  let h = mailHashes.get(email);
  if (h === undefined) {
    h = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
    mailHashes.set(email, h);
  }
  return h;
}

const mailHashes = new LRUCache<string, string>({ max: 10_000 });
