/**
 * What the sweep works from: one small blob per piece of owed work, `open/<id>` (time-ordered request
 * ids: oldest first; jobs, `open/~<name>`, after them), written before the work is stored and deleted
 * once nothing is owed; and the lock that allows one sweep per interval across all instances.
 */
import { randomUUID } from 'node:crypto';
import { isObject, type ProposalsStore } from './blobs.ts';

const OPEN_PREFIX = 'open/';
const JOB_MARK = '~';
const SWEEP_LOCK_KEY = 'sweep/lock';

/** `job`: the id names a job (an hour's digest, a day's alert), not a request. */
export type OpenMarker = { key: string; id: string; job: boolean };

export const openMarker = (id: string, job = false): OpenMarker => ({
  key: `${OPEN_PREFIX}${job ? JOB_MARK : ''}${id}`,
  id,
  job,
});

/** `pointer`: the key pointer that can still produce the request, so the sweep can tell when it no longer can. */
export async function markOpen(store: ProposalsStore, marker: OpenMarker, pointer?: string): Promise<void> {
  // Written once: an existing marker (a refused create) already says the same.
  await store.writeIf(marker.key, { id: marker.id, ...(pointer !== undefined && { pointer }) }, { ifNew: true });
}

/** The pointer a marker names (markers written before pointers were recorded name none). */
export async function markerPointer(store: ProposalsStore, marker: OpenMarker): Promise<string | undefined> {
  const value = (await store.read(marker.key))?.value;
  return isObject(value) && typeof value['pointer'] === 'string' ? value['pointer'] : undefined;
}

export const markSettled = (store: ProposalsStore, marker: OpenMarker): Promise<void> => store.remove(marker.key);

/** Open work, oldest request first, jobs last; markers written before time-ordered ids were `open/<13-digit ms>-<id>`. */
export async function listOpen(store: ProposalsStore): Promise<OpenMarker[]> {
  return (await store.list(OPEN_PREFIX)).map((key) => {
    const name = key.slice(OPEN_PREFIX.length);
    const job = name.startsWith(JOB_MARK);
    return { key, id: job ? name.slice(JOB_MARK.length) : name.replace(/^\d{13}-/, ''), job };
  });
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
