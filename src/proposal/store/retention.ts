/**
 * What leaves the store: idempotency entries after 24 hours and requests after RETENTION_DAYS (the
 * sweep), a person's requests on demand (`npm run inbox -- delete`), each with its entries and marker.
 */
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { isObject, isProposalRecord, recordKey, RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { ProposalsStore } from './blobs.ts';
import { age, isKeyEntry, LEASE_STALE_MS, requestEntryKey } from './key-entry.ts';
import { openMarkerKey } from './open-index.ts';

const ENTRIES_PREFIX = 'idempotency/';

/**
 * Deletes idempotency entries past their 24 hours, unless leased. Blobs has no conditional delete:
 * a tombstone is written first (If-Match), so a sender that reused the key meanwhile keeps its entry.
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
 * Deletes a request, its open marker, its idempotency entries and `extraEntryKeys`, each entry only
 * while it names this request (a reused key is someone else's); returns the keys that existed.
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
