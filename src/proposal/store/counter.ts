/**
 * Event counters for limits ("at most 3 confirmation emails to one address a day"): one blob per
 * counted key, changed only by compare-and-swap, so simultaneous invocations on any number of
 * instances never admit more than the limit between them.
 */
import { sha256Hex } from '../submit/fingerprint.ts';
import { isObject } from '../submit/record.ts';
import type { BlobStore } from './blobs.ts';
import { STORE_LIMITS } from './limits.ts';
import { StoreUnavailable } from './store-unavailable.ts';

export const COUNTERS_PREFIX = 'counters/';

export interface CountWindow {
  /** Most events admitted per window. */
  limit: number;
  /** Length of a window; windows are aligned to multiples of it since the epoch (a UTC day for 86 400 000). */
  windowMs: number;
  /** The event's time (tests move it); now by default. */
  now?: Date;
}

export interface CountResult {
  /** This event is within the limit and was counted. */
  allowed: boolean;
  /** Events counted in the current window, this one included when allowed. */
  count: number;
  /** When the current window ends and counting starts again (ISO time). */
  resetAt: string;
}

interface CounterValue {
  window_start: string;
  count: number;
  /** When the window ends: past it the counter holds nothing and the sweep deletes it. */
  reset_at?: string;
}

/** Blob key of a counted key: a hash, so an email address never appears in a key name. */
export function counterKey(key: string): string {
  return `${COUNTERS_PREFIX}${sha256Hex(key)}`;
}

/**
 * Counts one event under `key` in the current window and says whether it is within `limit`.
 * Exact under concurrency: each count is a conditional write over the version read (or a
 * create-if-new), retried on conflict; an event over the limit is not written at all. Throws
 * StoreUnavailable when the store fails, or when the counter is contended beyond
 * STORE_LIMITS.counterMaxAttempts conditional writes (the caller decides whether to fail open).
 *
 * @example
 *   const { allowed } = await countEventWithinLimit(store, `confirm:${email}`, { limit: 3, windowMs: DAY_MS });
 */
export async function countEventWithinLimit(store: BlobStore, key: string, window: CountWindow): Promise<CountResult> {
  if (!Number.isInteger(window.limit) || window.limit < 0) throw new RangeError('limit must be an integer >= 0');
  if (!(window.windowMs > 0)) throw new RangeError('windowMs must be > 0');
  const at = (window.now ?? new Date()).getTime();
  const start = Math.floor(at / window.windowMs) * window.windowMs;
  const windowStart = new Date(start).toISOString();
  const resetAt = new Date(start + window.windowMs).toISOString();
  const blobKey = counterKey(key);

  for (let attempt = 1; attempt <= STORE_LIMITS.counterMaxAttempts; attempt++) {
    const found = await store.read(blobKey);
    const value = found && isCounterValue(found.value) ? found.value : null;
    const count = value?.window_start === windowStart ? value.count : 0;
    if (count >= window.limit) return { allowed: false, count, resetAt };
    const next: CounterValue = { window_start: windowStart, count: count + 1, reset_at: resetAt };
    const written = await store.writeIf(blobKey, next, found ? { ifVersion: found.version } : { ifNew: true });
    if (written !== null) return { allowed: true, count: next.count, resetAt };
    // Another event was counted between our read and our write: read again. Every lost write
    // means another one won, so within one window this ends after at most `limit` conflicts.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
  }
  throw new StoreUnavailable('count', 'contended');
}

function isCounterValue(value: unknown): value is CounterValue {
  return isObject(value) && typeof value['window_start'] === 'string' && typeof value['count'] === 'number';
}

/** Deletes counters whose window is over (the sweep's housekeeping); counters from before reset_at stay. */
export async function deleteEndedCounters(store: BlobStore, now: Date, budgetMs: number): Promise<number> {
  const deadline = performance.now() + budgetMs;
  let deleted = 0;
  for (const key of await store.list(COUNTERS_PREFIX)) {
    if (performance.now() >= deadline) break;
    const found = await store.read(key);
    const resetAt = found && isCounterValue(found.value) ? Date.parse(found.value.reset_at ?? '') : Number.NaN;
    if (Number.isNaN(resetAt) || resetAt > now.getTime()) continue;
    await store.remove(key);
    deleted++;
  }
  return deleted;
}
