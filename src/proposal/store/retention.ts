/**
 * What leaves the store, and when: idempotency entries after their 24 hours (the sweep), stored
 * requests after RETENTION_DAYS when set (the sweep), and a person's requests on demand
 * (`npm run inbox -- delete`). A request goes with its idempotency entries and its open marker.
 */
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { isObject, isProposalRecord, RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { BlobStore } from './blobs.ts';
import { age, isKeyEntry, LEASE_STALE_MS, requestEntryKey } from './key-entry.ts';
import { openMarkerKey } from './open-index.ts';

export const ENTRIES_PREFIX = 'idempotency/';
/** Reads at once while scanning; gentle on the Blobs API's rate limit. */
const SCAN_CONCURRENCY = 8;

/**
 * Deletes idempotency entries past their 24 hours, except one whose lease is live. Blobs has no
 * conditional delete, so an entry is first overwritten (If-Match the version read) with a
 * tombstone: a sender that reused the key in between wins that write, and its entry stays.
 */
export async function deleteExpiredEntries(store: BlobStore, now: () => Date, budgetMs: number): Promise<number> {
  const deadline = performance.now() + budgetMs;
  const keys = await store.list(ENTRIES_PREFIX);
  let deleted = 0;
  await scan(keys, deadline, async (key) => {
    const found = await store.read(key);
    if (!found) return;
    const data: unknown = found.value;
    const tombstone = isObject(data) && data['state'] === 'expired';
    if (!tombstone) {
      if (isKeyEntry(data) && age(data.created_at, now()) < KEY_RETENTION_MS) return;
      if (isKeyEntry(data) && data.state === 'running' && age(data.locked_at, now()) < LEASE_STALE_MS) return;
      if ((await store.writeIf(key, { state: 'expired' }, { ifVersion: found.version })) === null) return;
    }
    await store.remove(key);
    deleted++;
  });
  return deleted;
}

/** Deletes stored requests received longer ago than `retentionMs`, with their entries and markers. */
export async function deleteExpiredRequests(
  store: BlobStore,
  now: () => Date,
  retentionMs: number,
  budgetMs: number,
): Promise<number> {
  const deadline = performance.now() + budgetMs;
  const keys = await store.list(RECORDS_PREFIX);
  let deleted = 0;
  await scan(keys, deadline, async (key) => {
    const data: unknown = (await store.read(key))?.value;
    if (!isProposalRecord(data) || age(data.received_at, now()) < retentionMs) return;
    await eraseRecord(store, data);
    deleted++;
  });
  return deleted;
}

/** Every blob key a stored request owns: the record, its open marker and its idempotency entries. */
export function keysOfRequest(record: ProposalRecord): string[] {
  const keys = [`${RECORDS_PREFIX}${record.request_id}`, openMarkerKey(record), requestEntryKey(record.request_id)];
  if (record.idempotency_entry !== undefined && !keys.includes(record.idempotency_entry))
    keys.push(record.idempotency_entry);
  return keys;
}

/**
 * Deletes a request and what it owns; returns the keys that existed. An idempotency entry is
 * deleted only while it still names this request (a reused key belongs to someone else now).
 */
export async function eraseRecord(
  store: BlobStore,
  record: ProposalRecord,
  extraEntryKeys: string[] = [],
): Promise<string[]> {
  const removed: string[] = [];
  const keys = [...new Set([...keysOfRequest(record), ...extraEntryKeys])];
  await Promise.all(
    keys.map(async (key) => {
      const found = await store.read(key);
      if (found === null) return;
      const data = found.value;
      if (key.startsWith(ENTRIES_PREFIX) && !(isKeyEntry(data) && data.request_id === record.request_id)) return;
      await store.remove(key);
      removed.push(key);
    }),
  );
  return removed.sort();
}

/** Idempotency entries that name one of `requestIds` (for records stored before they named their entry). */
export async function entriesNaming(store: BlobStore, requestIds: Set<string>): Promise<Map<string, string[]>> {
  const keys = await store.list(ENTRIES_PREFIX);
  const found = new Map<string, string[]>();
  await scan(keys, Number.POSITIVE_INFINITY, async (key) => {
    const data: unknown = (await store.read(key))?.value;
    if (isKeyEntry(data) && requestIds.has(data.request_id))
      found.set(data.request_id, [...(found.get(data.request_id) ?? []), key]);
  });
  return found;
}

async function scan(keys: string[], deadline: number, work: (key: string) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(SCAN_CONCURRENCY, keys.length) }, async () => {
      while (next < keys.length && performance.now() < deadline) await work(keys[next++]!);
    }),
  );
}
