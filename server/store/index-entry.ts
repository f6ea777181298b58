// A game's index entry, derived from its document alone.
import { nextReminderAt } from '../policy.ts';
import type { GameDoc, IndexEntry } from './types.ts';

export function indexEntryOf(doc: GameDoc): IndexEntry {
  return {
    id: doc.id,
    rules: doc.rules,
    title: doc.title,
    status: doc.status,
    listed: doc.listed,
    seatCount: doc.seatCount,
    names: doc.seats.map((s) => s.name),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    lastSeq: doc.log.length,
    toAct: doc.wait?.toAct ?? [],
    nextReminderAt: nextReminderAt(doc),
    inviteGeneration: doc.inviteGeneration,
    keys: {
      admin: doc.adminKeyHash,
      spectator: doc.spectatorKeyHash,
      invite: doc.inviteKeyHash,
      seats: doc.seats.map((s) => s.keyHash),
      ...(doc.confirmKeyHash ? { confirm: doc.confirmKeyHash } : {}),
    },
    ...(doc.confirmed === false ? { confirmed: false } : {}),
    sealed: { spectator: doc.spectatorKeySealed, invite: doc.inviteKeySealed },
  };
}
