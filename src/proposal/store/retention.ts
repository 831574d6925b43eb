/**
 * What leaves the store, and when: idempotency entries after their 24 hours (the sweep), stored
 * requests after RETENTION_DAYS when set (the sweep), and a person's requests on demand
 * (`npm run inbox -- delete`). A request goes with its idempotency entries and its open marker.
 */
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { isObject, isProposalRecord, recordKey, RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { ProposalsStore } from './blobs.ts';
import { age, isKeyEntry, LEASE_STALE_MS, requestEntryKey } from './key-entry.ts';
import { openMarkerKey } from './open-index.ts';

const ENTRIES_PREFIX = 'idempotency/';

/**
 * Deletes idempotency entries past their 24 hours, except one whose lease is live. Blobs has no
 * conditional delete, so an entry is first overwritten (If-Match the version read) with a
 * tombstone: a sender that reused the key in between wins that write, and its entry stays.
 */
export function deleteExpiredEntries(store: ProposalsStore, now: () => Date, budgetMs: number): Promise<number> {
  return store.scan(ENTRIES_PREFIX, budgetMs, async (key) => {
    const found = await store.read(key);
    if (!found) return false;
    const data = found.value;
    const tombstone = isObject(data) && data['state'] === 'expired';
    if (!tombstone) {
      if (isKeyEntry(data) && age(data.created_at, now()) < KEY_RETENTION_MS) return false;
      if (isKeyEntry(data) && data.state === 'running' && age(data.locked_at, now()) < LEASE_STALE_MS) return false;
      if ((await store.writeIf(key, { state: 'expired' }, { ifVersion: found.version })) === null) return false;
    }
    await store.remove(key);
    return true;
  });
}

/** Deletes stored requests received longer ago than `retentionMs`, with their entries and markers. */
export function deleteExpiredRequests(
  store: ProposalsStore,
  now: () => Date,
  retentionMs: number,
  budgetMs: number,
): Promise<number> {
  return store.scan(RECORDS_PREFIX, budgetMs, async (key) => {
    const data = (await store.read(key))?.value;
    if (!isProposalRecord(data) || age(data.received_at, now()) < retentionMs) return false;
    await eraseRecord(store, data);
    return true;
  });
}

/**
 * Deletes a request and what it owns (the record, its open marker, its idempotency entries and
 * `extraEntryKeys`); returns the keys that existed. An idempotency entry is deleted only while it
 * still names this request (a reused key belongs to someone else now).
 */
export async function eraseRecord(
  store: ProposalsStore,
  record: ProposalRecord,
  extraEntryKeys: string[] = [],
): Promise<string[]> {
  const id = record.request_id;
  const own = record.idempotency_entry ?? requestEntryKey(id);
  const keys = new Set([recordKey(id), openMarkerKey(record), requestEntryKey(id), own, ...extraEntryKeys]);
  const removed: string[] = [];
  await Promise.all(
    [...keys].map(async (key) => {
      const data = (await store.read(key))?.value;
      if (data === undefined) return;
      if (key.startsWith(ENTRIES_PREFIX) && !(isKeyEntry(data) && data.request_id === id)) return;
      await store.remove(key);
      removed.push(key);
    }),
  );
  return removed.sort();
}

/** Idempotency entries that name one of `requestIds` (for records stored before they named their entry). */
export async function entriesNaming(store: ProposalsStore, requestIds: Set<string>): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  await store.scan(ENTRIES_PREFIX, Infinity, async (key) => {
    const data = (await store.read(key))?.value;
    if (isKeyEntry(data) && requestIds.has(data.request_id))
      found.set(data.request_id, [...(found.get(data.request_id) ?? []), key]);
    return true;
  });
  return found;
}
