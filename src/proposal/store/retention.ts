/**
 * What leaves the store: requests after RETENTION_DAYS (the sweep), a person's requests on demand
 * (`npm run inbox -- delete`), each with its key pointer and open marker. Names are time-ordered, so
 * the sweep lists only the head that is due, deletes it and next time starts at the new head: its work
 * grows with what is due, not with what is stored. A request that still owes an effect is never deleted.
 */
import type { ProposalsStore } from './blobs.ts';
import { legacyPointers, POINTERS_PREFIX, removePointer } from './key-pointer.ts';
import { openMarker } from './open-index.ts';
import { idTime } from './time-ordered-id.ts';

/** Blob key prefix of stored requests; the inbox script lists it. */
export const RECORDS_PREFIX = 'requests/';
export const recordKey = (requestId: string) => `${RECORDS_PREFIX}${requestId}`;

/** What retention and erasure need of a stored request. */
export type ErasableRequest = { request_id: string; idempotency_entry?: string };

/** Entries of the store before key pointers (one key entry each, and leases): nothing reads them now. */
const LEGACY_ENTRIES_PREFIX = 'idempotency/';

/** Most blobs one sweep deletes of each kind: the next sweep continues at the head. */
export const RETENTION_BATCH = 500;

/** Deletes day-bucket pointers past their 24 hours and entries older still (releases before this one). */
export async function deleteLegacyPointers(store: ProposalsStore, now: Date): Promise<number> {
  const keys = [...(await legacyPointers(store, now, RETENTION_BATCH)), ...(await store.list(LEGACY_ENTRIES_PREFIX))];
  const due = keys.slice(0, RETENTION_BATCH);
  await Promise.all(due.map((key) => store.remove(key)));
  return due.length;
}

/**
 * Deletes requests whose time-ordered id is older than `retentionMs`, from the head of the listing,
 * except those `read` finds still owing an effect (kept: `undefined`). Requests stored with random ids
 * (before time-ordered ids) are not reached: `npm run inbox -- delete`.
 */
export async function deleteExpiredRequests(
  store: ProposalsStore,
  now: Date,
  retentionMs: number,
  read: (requestId: string) => Promise<ErasableRequest | null | undefined>,
): Promise<number> {
  const cutoff = now.getTime() - retentionMs;
  const timeOf = (key: string) => idTime(key.slice(RECORDS_PREFIX.length));
  let listed = 0;
  // A random (legacy) id may sort anywhere: passed over, not a reason to stop.
  const keys = await store.listWhile(
    RECORDS_PREFIX,
    (key) => (timeOf(key) ?? 0) < cutoff && listed++ < 4 * RETENTION_BATCH,
  );
  let deleted = 0;
  for (const key of keys.filter((k) => timeOf(k) !== undefined).slice(0, RETENTION_BATCH)) {
    const found = await read(key.slice(RECORDS_PREFIX.length));
    if (found === undefined) continue;
    await (found ? eraseRecord(store, found) : store.remove(key));
    deleted++;
  }
  return deleted;
}

/** Deletes a request, its open marker and its key pointer (only while it names this request); returns what existed. */
export async function eraseRecord(store: ProposalsStore, record: ErasableRequest): Promise<string[]> {
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

/** Reads every blob under `prefix`, unchecked (the inbox script checks their shape). */
export async function readAllRecords(store: ProposalsStore, prefix = RECORDS_PREFIX): Promise<unknown[]> {
  const values: unknown[] = [];
  await store.scan(prefix, Infinity, async (key) => Boolean(values.push((await store.read(key))?.value)));
  return values.filter((value) => value !== undefined);
}
