/**
 * The background sweep: completes what open requests still owe (CRM redelivery with backoff,
 * confirmation email, the sales team's notice and alert) without waiting for the sender, and
 * deletes what is past its retention. The function starts it after its reply, at most once per
 * REDELIVERY_INTERVAL_SECONDS across all instances (store/sweep-lock.ts); `npm run inbox -- redeliver`
 * runs it on demand. Each request is worked on under the same lease its sender's retries take.
 */
import { claimForRequest, LeaseLostError } from '../store/key-entry.ts';
import { claimSweep, listOpen, markSettled } from '../store/open-index.ts';
import { readRecord } from '../store/record-store.ts';
import { deleteExpiredEntries, deleteExpiredRequests } from '../store/retention.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import type { SubmitDeps } from './deps.ts';
import { logEvent } from './log.ts';
import { completeOwedWork, owes, RecordGoneError, settle } from './owed-work.ts';
import { isOwed } from './notification.ts';
import type { ProposalRecord } from './record.ts';
import { DEFAULT_REDELIVERY_POLICY } from './redelivery-policy.ts';
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

/**
 * Inside one function invocation: well within the 60 s limit even when every CRM call of the
 * last batch runs to its 8 s timeout.
 */
export const FUNCTION_SWEEP_LIMITS: SweepLimits = { maxRequests: 100, budgetMs: 20_000, concurrency: 4 };

export type RequestOutcome =
  'delivered' | 'failed' | 'pending' | 'completed' | 'waiting' | 'busy' | 'settled' | 'gone' | 'error';

export interface SweepReport {
  open: number;
  /** Request id → what the sweep did with it (only requests it looked at). */
  requests: Array<{ request_id: string; outcome: RequestOutcome }>;
  /** Open requests left for the next sweep (count or time budget reached). */
  deferred: number;
  entriesDeleted: number;
  requestsDeleted: number;
  ms: number;
}

export async function runSweep(deps: SubmitDeps, limits: SweepLimits = FUNCTION_SWEEP_LIMITS): Promise<SweepReport> {
  const started = performance.now();
  const deadline = started + limits.budgetMs;
  const open = await listOpen(deps.store);
  const queue = open.slice(0, limits.maxRequests);
  const requests: SweepReport['requests'] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limits.concurrency, queue.length) }, async () => {
      while (next < queue.length && performance.now() < deadline) {
        const marker = queue[next++]!;
        const outcome = await sweepOne(deps, marker.requestId, marker.receivedMs, limits.ignoreBackoff === true).catch(
          (error: unknown): RequestOutcome => {
            logEvent('sweep_request_error', {
              request_id: marker.requestId,
              name: error instanceof Error ? error.name : 'unknown',
            });
            return 'error';
          },
        );
        requests.push({ request_id: marker.requestId, outcome });
      }
    }),
  );
  const policy = deps.redelivery ?? DEFAULT_REDELIVERY_POLICY;
  const now = deps.now ?? (() => new Date());
  const remaining = () => Math.max(0, deadline - performance.now());
  const entriesDeleted = await deleteExpiredEntries(deps.store, now, remaining());
  const countersDeleted = await deleteStaleTallies(deps.store, now(), remaining());
  const requestsDeleted =
    policy.retentionMs === undefined
      ? 0
      : await deleteExpiredRequests(deps.store, now, policy.retentionMs, remaining());
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
async function sweepOne(
  deps: SubmitDeps,
  requestId: string,
  receivedMs: number,
  ignoreBackoff: boolean,
): Promise<RequestOutcome> {
  const now = deps.now ?? (() => new Date());
  const marker = { request_id: requestId, received_at: new Date(receivedMs).toISOString() };
  const data = await readRecord(deps.store, requestId);
  if (data === null) {
    // Erased (or unreadable): nothing left to do for it.
    await markSettled(deps.store, marker);
    return 'gone';
  }
  if (!owes(data)) {
    await markSettled(deps.store, data);
    return 'settled';
  }
  if (!ignoreBackoff && waiting(data, now())) return 'waiting';
  const claim = await claimForRequest(deps.store, data, now);
  if (claim.kind === 'final') {
    await markSettled(deps.store, data);
    return 'settled';
  }
  if (claim.kind === 'busy') return 'busy';
  const { lease } = claim;
  try {
    const before = data.delivery.state;
    const result = await completeOwedWork(deps, lease, { fresh: false }, { respectBackoff: !ignoreBackoff });
    await settle(deps.store, lease, result);
    const { record } = result;
    if (result.storeFailed) throw result.storeFailed;
    if (before === 'pending' && record.delivery.state === 'received') return 'delivered';
    if (before === 'pending' && record.delivery.state === 'failed') return 'failed';
    return record.delivery.state === 'pending' ? 'pending' : 'completed';
  } catch (error) {
    if (error instanceof LeaseLostError) return 'busy';
    if (error instanceof StoreUnavailable) {
      lease.abandon();
      throw error;
    }
    await lease.release({ state: 'pending' }).catch(() => undefined);
    if (error instanceof RecordGoneError) {
      await markSettled(deps.store, marker);
      return 'gone';
    }
    throw error;
  }
}

/** Only the CRM delivery is owed and its backoff has not run out. */
function waiting(record: ProposalRecord, now: Date): boolean {
  const next = record.delivery.next_attempt_at;
  return (
    record.delivery.state === 'pending' &&
    next !== undefined &&
    Date.parse(next) > now.getTime() &&
    !isOwed(record.notification)
  );
}

/** The function's call after its reply: sweeps when due, never throws. Null when another instance swept recently. */
export async function sweepIfDue(deps: SubmitDeps): Promise<SweepReport | null> {
  try {
    const now = deps.now ?? (() => new Date());
    const { intervalMs } = deps.redelivery ?? DEFAULT_REDELIVERY_POLICY;
    if (!(await claimSweep(deps.store, now(), intervalMs))) return null;
    return await runSweep(deps);
  } catch (error) {
    logEvent('sweep_error', {
      name: error instanceof Error ? error.name : 'unknown',
      ...(error instanceof StoreUnavailable && { operation: error.operation, reason: error.reason }),
    });
    return null;
  }
}
