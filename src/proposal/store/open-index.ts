/**
 * What the sweep works from: one small blob per request that still owes work, `open/<request id>`
 * (time-ordered ids: oldest first), written before the request is stored and deleted once nothing is
 * owed; and the lock that allows one sweep per interval across all instances.
 */
import { randomUUID } from 'node:crypto';
import { isObject } from '../submit/record.ts';
import type { ProposalsStore } from './blobs.ts';

const OPEN_PREFIX = 'open/';
const SWEEP_LOCK_KEY = 'sweep/lock';

export type OpenMarker = { key: string; request_id: string };

export const openMarker = (requestId: string): OpenMarker => ({
  key: `${OPEN_PREFIX}${requestId}`,
  request_id: requestId,
});

export async function markOpen(store: ProposalsStore, requestId: string): Promise<void> {
  // Written once: an existing marker (a refused create) already says the same.
  await store.writeIf(openMarker(requestId).key, { request_id: requestId }, { ifNew: true });
}

export const markSettled = (store: ProposalsStore, marker: OpenMarker): Promise<void> => store.remove(marker.key);

/** Open requests, oldest first; markers written before time-ordered ids were `open/<13-digit ms>-<id>`. */
export async function listOpen(store: ProposalsStore): Promise<OpenMarker[]> {
  return (await store.list(OPEN_PREFIX)).map((key) => ({
    key,
    request_id: key.slice(OPEN_PREFIX.length).replace(/^\d{13}-/, ''),
  }));
}

/** True when the last sweep started at least `intervalMs` ago and this caller's conditional write won. */
export async function claimSweep(store: ProposalsStore, now: Date, intervalMs: number): Promise<boolean> {
  const found = await store.read(SWEEP_LOCK_KEY);
  const data = found?.value;
  const last = isObject(data) && typeof data['started_at'] === 'string' ? Date.parse(data['started_at']) : Number.NaN;
  if (found && !Number.isNaN(last) && now.getTime() - last < intervalMs) return false;
  // The nonce makes the value unique, so a read-back tells whether this write landed.
  const value = { started_at: now.toISOString(), by: randomUUID() };
  return (await store.writeIf(SWEEP_LOCK_KEY, value, found ? { ifVersion: found.version } : { ifNew: true })) !== null;
}
