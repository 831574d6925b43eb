/**
 * What leaves the store: key pointers a day after their 24 hours, requests after RETENTION_DAYS (the
 * sweep), a person's requests on demand (`npm run inbox -- delete`). Names are time-ordered, so the
 * sweep lists only the head that is due, deletes it and next time starts at the new head: its work
 * grows with what is due, not with what is stored. Pointers are immutable and leases live in the
 * records, so deleting a pointer can never take a lease from a sender.
 */
import { recordKey, RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { ProposalsStore } from './blobs.ts';
import { oldestLiveDay, pointerDay, POINTERS_PREFIX, removePointer } from './key-pointer.ts';
import { openMarker } from './open-index.ts';
import { readVersioned } from './record-lease.ts';
import { idTime } from './time-ordered-id.ts';

/** Entries of the store before key pointers (one key entry each, and leases): nothing reads them now. */
const LEGACY_ENTRIES_PREFIX = 'idempotency/';

/** Most blobs one sweep deletes of each kind: the next sweep continues at the head. */
export const RETENTION_BATCH = 500;

/** Deletes pointers of days before yesterday (every one of them past its 24 hours), and legacy entries. */
export async function deleteExpiredPointers(store: ProposalsStore, now: Date): Promise<number> {
  const oldest = oldestLiveDay(now);
  const keys = [
    ...(await store.listWhile(POINTERS_PREFIX, (key) => pointerDay(key) < oldest)),
    ...(await store.list(LEGACY_ENTRIES_PREFIX)),
  ].slice(0, RETENTION_BATCH);
  await Promise.all(keys.map((key) => store.remove(key)));
  return keys.length;
}

/**
 * Deletes requests whose time-ordered id is older than `retentionMs`, from the head of the listing.
 * Requests stored with random ids (before time-ordered ids) are not reached: `npm run inbox -- delete`.
 */
export async function deleteExpiredRequests(store: ProposalsStore, now: Date, retentionMs: number): Promise<number> {
  const cutoff = now.getTime() - retentionMs;
  const timeOf = (key: string) => idTime(key.slice(RECORDS_PREFIX.length));
  let listed = 0;
  // A random (legacy) id may sort anywhere: passed over, not a reason to stop.
  const keys = await store.listWhile(
    RECORDS_PREFIX,
    (key) => (timeOf(key) ?? 0) < cutoff && listed++ < 4 * RETENTION_BATCH,
  );
  const due = keys.filter((key) => timeOf(key) !== undefined).slice(0, RETENTION_BATCH);
  for (const key of due) {
    const found = await readVersioned(store, key.slice(RECORDS_PREFIX.length));
    await (found ? eraseRecord(store, found.record) : store.remove(key));
  }
  return due.length;
}

/** Deletes a request, its open marker and its key pointer (only while it names this request); returns what existed. */
export async function eraseRecord(store: ProposalsStore, record: ProposalRecord): Promise<string[]> {
  const id = record.request_id;
  const removed: string[] = [];
  const pointer = record.idempotency_entry;
  if (pointer?.startsWith(POINTERS_PREFIX) && (await removePointer(store, pointer, id))) removed.push(pointer);
  for (const key of [openMarker(id).key, recordKey(id)]) {
    if ((await store.read(key)) === null) continue;
    await store.remove(key);
    removed.push(key);
  }
  return removed.sort();
}
