/**
 * The sweep: completes what open requests owe, under their senders' lease, and deletes what is past
 * retention. Run after a reply at most once per interval across instances, or by `npm run inbox -- redeliver`.
 */
import { claimForRequest } from '../store/key-entry.ts';
import { claimSweep, listOpen, markSettled, type Marked } from '../store/open-index.ts';
import { readRecord } from '../store/record-store.ts';
import { deleteExpiredEntries, deleteExpiredRequests } from '../store/retention.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import type { SubmitDeps } from './config.ts';
import { errorName, logEvent } from './log.ts';
import { backoffAhead, completeOwedWork, owes, owesSalesMessage, RecordGoneError } from './owed-work.ts';
import { deleteStaleTallies } from '../store/event-tally.ts';

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
  const { now, redelivery } = deps;
  const remaining = () => Math.max(0, deadline - performance.now());
  const entriesDeleted = await deleteExpiredEntries(deps.store, now, remaining());
  const countersDeleted = await deleteStaleTallies(deps.store, now(), remaining());
  const requestsDeleted =
    redelivery.retentionMs === undefined
      ? 0
      : await deleteExpiredRequests(deps.store, now, redelivery.retentionMs, remaining());
  const report = {
    open: open.length,
    requests,
    deferred: open.length - requests.length,
    entriesDeleted,
    requestsDeleted,
    ms: performance.now() - started,
  };
  logEvent('sweep_done', {
    open: report.open,
    worked: requests.length,
    delivered: requests.filter((r) => r.outcome === 'delivered').length,
    failed: requests.filter((r) => r.outcome === 'failed').length,
    deferred: report.deferred,
    entries_deleted: entriesDeleted,
    counters_deleted: countersDeleted,
    requests_deleted: requestsDeleted,
    ms: Math.round(report.ms),
  });
  return report;
}

/** One open request: skip it while its backoff runs, else complete its owed work under its lease. */
async function sweepOne(deps: SubmitDeps, marker: Marked, ignoreBackoff: boolean): Promise<RequestOutcome> {
  const data = await readRecord(deps.store, marker.request_id);
  if (data === null) {
    // Erased (or unreadable): nothing left to do for it.
    await markSettled(deps.store, marker);
    return 'gone';
  }
  if (!owes(data)) {
    await markSettled(deps.store, data);
    return 'settled';
  }
  // Only the CRM delivery is owed, and not yet; a sales message owed is sent meanwhile.
  if (!ignoreBackoff && backoffAhead(data, deps.now()) && !owesSalesMessage(data)) return 'waiting';
  const claim = await claimForRequest(deps.store, data, deps.now);
  if (claim.kind === 'final') await markSettled(deps.store, data);
  if (claim.kind !== 'owner') return claim.kind === 'final' ? 'settled' : 'busy';
  const result = await completeOwedWork(deps, claim.lease, { fresh: false, respectBackoff: !ignoreBackoff }).catch(
    async (error: unknown) => {
      if (!(error instanceof RecordGoneError)) throw error;
      await markSettled(deps.store, marker);
      return 'gone' as const;
    },
  );
  if (result === null) return 'busy';
  if (result === 'gone') return result;
  if (result.storeFailed) throw result.storeFailed;
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
