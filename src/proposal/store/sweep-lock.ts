/**
 * At most one sweep per interval across all instances: the sweep lock is one blob holding the
 * time the last sweep started, taken with a conditional write (create-if-new, or If-Match on
 * the version read), so of any number of simultaneous invocations exactly one wins.
 */
import { isObject } from '../submit/record.ts';
import type { BlobStore } from './blobs.ts';

export const SWEEP_LOCK_KEY = 'sweep/lock';

/** True when this caller may sweep now: the last sweep started at least `intervalMs` ago. */
export async function claimSweep(store: BlobStore, now: Date, intervalMs: number): Promise<boolean> {
  const found = await store.read(SWEEP_LOCK_KEY);
  const data: unknown = found?.value;
  const last = isObject(data) && typeof data['started_at'] === 'string' ? Date.parse(data['started_at']) : Number.NaN;
  if (found && !Number.isNaN(last) && now.getTime() - last < intervalMs) return false;
  const value = { started_at: now.toISOString() };
  const version = await store.writeIf(SWEEP_LOCK_KEY, value, found ? { ifVersion: found.version } : { ifNew: true });
  return version !== null;
}
