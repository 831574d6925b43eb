/**
 * The index of requests that still owe work: one small blob per open request, written when the
 * request is stored and deleted once its idempotency entry is final. The sweep lists this
 * prefix instead of every stored request. Keys start with the receipt time, so a listing
 * sorted by key is oldest first.
 */
import type { Store } from '@netlify/blobs';

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

export async function markOpen(store: Store, record: { request_id: string; received_at: string }): Promise<void> {
  // Written once: an existing marker already says the same.
  await store.setJSON(openMarkerKey(record), { request_id: record.request_id }, { onlyIfNew: true });
}

export async function markSettled(store: Store, record: { request_id: string; received_at: string }): Promise<void> {
  await store.delete(openMarkerKey(record));
}

/** Open markers, oldest first. */
export async function listOpen(store: Store): Promise<Array<{ key: string; requestId: string; receivedMs: number }>> {
  const { blobs } = await store.list({ prefix: OPEN_PREFIX });
  return blobs
    .flatMap(({ key }) => {
      const parsed = parseOpenMarkerKey(key);
      return parsed ? [{ key, ...parsed }] : [];
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}
