/**
 * The index of requests that still owe work: one small blob per open request, written before the
 * request is stored and deleted once its idempotency entry is final. The sweep lists this prefix
 * instead of every stored request. Keys start with the receipt time, so a listing sorted by key
 * is oldest first.
 */
import type { BlobStore } from './blobs.ts';

export const OPEN_PREFIX = 'open/';

/** `open/<receipt time in ms, 13 digits>-<request id>`. */
export function openMarkerKey(record: { request_id: string; received_at: string }): string {
  const ms = Date.parse(record.received_at);
  return `${OPEN_PREFIX}${String(Number.isNaN(ms) ? 0 : ms).padStart(13, '0')}-${record.request_id}`;
}

/** The request id and receipt time a marker key names, or null for a foreign key. */
export function parseOpenMarkerKey(key: string): { requestId: string; receivedMs: number } | null {
  const match = /^open\/(\d{13})-(.+)$/.exec(key);
  return match ? { requestId: match[2]!, receivedMs: Number(match[1]) } : null;
}

export async function markOpen(store: BlobStore, record: { request_id: string; received_at: string }): Promise<void> {
  // Written once: an existing marker (a refused create) already says the same.
  await store.writeIf(openMarkerKey(record), { request_id: record.request_id }, { ifNew: true });
}

export async function markSettled(
  store: BlobStore,
  record: { request_id: string; received_at: string },
): Promise<void> {
  await store.remove(openMarkerKey(record));
}

/** Open markers, oldest first. */
export async function listOpen(
  store: BlobStore,
): Promise<Array<{ key: string; requestId: string; receivedMs: number }>> {
  const keys = await store.list(OPEN_PREFIX);
  return keys
    .flatMap((key) => {
      const parsed = parseOpenMarkerKey(key);
      return parsed ? [{ key, ...parsed }] : [];
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}
