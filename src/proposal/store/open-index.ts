/**
 * What the sweep works from: one small blob per request that still owes work (written before the
 * request is stored, deleted once its entry is final), so it lists these instead of every request;
 * and the lock that allows one sweep per interval across all instances.
 */
import { isObject } from '../submit/record.ts';
import type { ProposalsStore } from './blobs.ts';

const OPEN_PREFIX = 'open/';
const SWEEP_LOCK_KEY = 'sweep/lock';
export type Marked = { request_id: string; received_at: string };

/** `open/<receipt ms, 13 digits>-<request id>`: oldest first. */
export function openMarkerKey(record: Marked): string {
  const ms = Date.parse(record.received_at);
  return `${OPEN_PREFIX}${String(Number.isNaN(ms) ? 0 : ms).padStart(13, '0')}-${record.request_id}`;
}

export async function markOpen(store: ProposalsStore, record: Marked): Promise<void> {
  // Written once: an existing marker (a refused create) already says the same.
  await store.writeIf(openMarkerKey(record), { request_id: record.request_id }, { ifNew: true });
}

export async function markSettled(store: ProposalsStore, record: Marked): Promise<void> {
  await store.remove(openMarkerKey(record));
}

/** Open requests, oldest first, as their marker keys name them. */
export async function listOpen(store: ProposalsStore): Promise<Marked[]> {
  return (await store.list(OPEN_PREFIX)).sort().flatMap((key) => {
    const match = /^open\/(\d{13})-(.+)$/.exec(key);
    return match ? [{ request_id: match[2]!, received_at: new Date(Number(match[1])).toISOString() }] : [];
  });
}

/** True when the last sweep started at least `intervalMs` ago and this caller's conditional write won. */
export async function claimSweep(store: ProposalsStore, now: Date, intervalMs: number): Promise<boolean> {
  const found = await store.read(SWEEP_LOCK_KEY);
  const data = found?.value;
  const last = isObject(data) && typeof data['started_at'] === 'string' ? Date.parse(data['started_at']) : Number.NaN;
  if (found && !Number.isNaN(last) && now.getTime() - last < intervalMs) return false;
  const value = { started_at: now.toISOString() };
  return (await store.writeIf(SWEEP_LOCK_KEY, value, found ? { ifVersion: found.version } : { ifNew: true })) !== null;
}
