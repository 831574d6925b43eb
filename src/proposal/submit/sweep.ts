/**
 * The sweep: completes what open requests owe, taking each one's lease as a sender's retry would, and
 * deletes what is past retention. Run after a reply at most once per interval across instances, or by
 * `npm run inbox -- redeliver`.
 */
import { claimSweep, listOpen, markSettled, type OpenMarker } from '../store/open-index.ts';
import { leaseLeftMs, readVersioned, RecordLease } from '../store/record-lease.ts';
import { deleteExpiredPointers, deleteExpiredRequests } from '../store/retention.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import type { SubmitDeps } from './config.ts';
import { errorName, logEvent } from './log.ts';
import { backoffAhead, completeOwedWork, leaseTerms, owes, owesSalesMessage } from './owed-work.ts';
import { deleteStaleTallies } from '../store/event-tally.ts';
import { idTime } from '../store/time-ordered-id.ts';
import { leaseMs } from '../store/limits.ts';

export interface SweepLimits {
  /** Most open requests worked on in one sweep (oldest first). */
  maxRequests: number;
  /** No new request is started after this long; one in flight finishes. */
  budgetMs: number;
  /** Requests worked on at once. */
  concurrency: number;
  /** Try every pending request now, backoff or not (an operator's `redeliver`). */
  ignoreBackoff?: boolean;
}

/** Inside one function invocation: well within its 60 s even when each CRM call of the last batch times out (8 s). */
export const FUNCTION_SWEEP_LIMITS: SweepLimits = { maxRequests: 100, budgetMs: 20_000, concurrency: 4 };

type RequestOutcome =
  'delivered' | 'failed' | 'pending' | 'completed' | 'waiting' | 'busy' | 'settled' | 'gone' | 'error';

/** What the sweep did: `requests` lists those it looked at; `deferred` were left for the next one. */
export async function runSweep(deps: SubmitDeps, limits: SweepLimits = FUNCTION_SWEEP_LIMITS) {
  const started = performance.now();
  const deadline = started + limits.budgetMs;
  const open = await listOpen(deps.store);
  const queue = open.slice(0, limits.maxRequests);
  const requests: Array<{ request_id: string; outcome: RequestOutcome }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limits.concurrency, queue.length) }, async () => {
      while (next < queue.length && performance.now() < deadline) {
        const marker = queue[next++]!;
        const outcome = await sweepOne(deps, marker, limits.ignoreBackoff === true).catch(
          (error: unknown): RequestOutcome => {
            logEvent('sweep_request_error', { request_id: marker.request_id, name: errorName(error) });
            return 'error';
          },
        );
        requests.push({ request_id: marker.request_id, outcome });
      }
    }),
  );
  const { now, redelivery, store } = deps;
  const entriesDeleted = await deleteExpiredPointers(store, now());
  const countersDeleted = await deleteStaleTallies(store, now(), Math.max(0, deadline - performance.now()));
  const retentionMs = redelivery.retentionMs;
  const requestsDeleted = retentionMs === undefined ? 0 : await deleteExpiredRequests(store, now(), retentionMs);
  const ms = performance.now() - started;
  const deferred = open.length - requests.length;
  const count = (outcome: RequestOutcome) => requests.filter((r) => r.outcome === outcome).length;
  logEvent('sweep_done', {
    open: open.length,
    worked: requests.length,
    delivered: count('delivered'),
    failed: count('failed'),
    deferred,
    entries_deleted: entriesDeleted,
    counters_deleted: countersDeleted,
    requests_deleted: requestsDeleted,
    ms: Math.round(ms),
  });
  return { open: open.length, requests, deferred, entriesDeleted, requestsDeleted, ms };
}

/** One open request: skip it while its backoff runs or another owner holds it, else complete its owed work. */
async function sweepOne(deps: SubmitDeps, marker: OpenMarker, ignoreBackoff: boolean): Promise<RequestOutcome> {
  const found = await readVersioned(deps.store, marker.request_id);
  if (found === null) {
    // Its sender may be storing it right now; past a lease, it was erased or never stored.
    const at = idTime(marker.request_id);
    if (at !== undefined && deps.now().getTime() - at < leaseMs(deps.store.timeFactor, leaseTerms(deps).effectMs)) {
      return 'busy';
    }
    await markSettled(deps.store, marker);
    return 'gone';
  }
  const data = found.record;
  if (!owes(data)) {
    await markSettled(deps.store, marker);
    return 'settled';
  }
  // Only the CRM delivery is owed, and not yet; a sales message owed is sent meanwhile.
  if (!ignoreBackoff && backoffAhead(data, deps.now()) && !owesSalesMessage(data)) return 'waiting';
  if (leaseLeftMs(data, deps.now()) > 0) return 'busy';
  const lease = await RecordLease.take(leaseTerms(deps), found.record, { ifVersion: found.version });
  if (lease === null) return 'busy';
  const result = await completeOwedWork(deps, lease, !ignoreBackoff);
  if (result.stopped instanceof StoreUnavailable) throw result.stopped;
  if (result.stopped) return 'busy';
  const after = result.record.delivery.state;
  if (after === 'pending') return 'pending';
  if (data.delivery.state === 'pending') return after === 'received' ? 'delivered' : 'failed';
  return 'completed';
}

/** The function's call after its reply: sweeps when due, never throws. Null when another instance swept recently. */
export async function sweepIfDue(deps: SubmitDeps) {
  try {
    if (!(await claimSweep(deps.store, deps.now(), deps.redelivery.intervalMs))) return null;
    return await runSweep(deps);
  } catch (error) {
    logEvent('sweep_error', {
      name: errorName(error),
      ...(error instanceof StoreUnavailable && { operation: error.operation, reason: error.reason }),
    });
    return null;
  }
}
