/**
 * At most one sweep per interval across all instances: the sweep lock is one blob holding the
 * time the last sweep started, taken with a conditional write (create-if-new, or If-Match on
 * the version read), so of any number of simultaneous invocations exactly one wins.
 */
import type { Store } from '@netlify/blobs';
import type { SubmitDeps } from './deps.ts';
import { logEvent } from './log.ts';
import { isObject } from './record.ts';
import { DEFAULT_REDELIVERY_POLICY } from './redelivery-policy.ts';
import { runSweep, type SweepReport } from './sweep.ts';

export const SWEEP_LOCK_KEY = 'sweep/lock';

/** True when this caller may sweep now: the last sweep started at least `intervalMs` ago. */
export async function claimSweep(store: Store, now: Date, intervalMs: number): Promise<boolean> {
  const found = await store.getWithMetadata(SWEEP_LOCK_KEY, { type: 'json' });
  const data: unknown = found?.data;
  const last = isObject(data) && typeof data['started_at'] === 'string' ? Date.parse(data['started_at']) : Number.NaN;
  if (found && !Number.isNaN(last) && now.getTime() - last < intervalMs) return false;
  const value = { started_at: now.toISOString() };
  const write = found?.etag
    ? await store.setJSON(SWEEP_LOCK_KEY, value, { onlyIfMatch: found.etag })
    : await store.setJSON(SWEEP_LOCK_KEY, value, { onlyIfNew: true });
  return write.modified;
}

/** The function's call after its reply: sweeps when due, never throws. Null when another instance swept recently. */
export async function sweepIfDue(deps: SubmitDeps): Promise<SweepReport | null> {
  try {
    const now = deps.now ?? (() => new Date());
    const { intervalMs } = deps.redelivery ?? DEFAULT_REDELIVERY_POLICY;
    if (!(await claimSweep(deps.store, now(), intervalMs))) return null;
    return await runSweep(deps);
  } catch (error) {
    logEvent('sweep_error', { name: error instanceof Error ? error.name : 'unknown' });
    return null;
  }
}
