/**
 * The sweep: completes what open work owes (requests and jobs), taking each one's lease as a sender's
 * retry would, and deletes what is past retention. Run after a reply at most once per interval across
 * instances, or by `npm run inbox -- redeliver`. It settles nothing that can still be owed: a marker
 * whose request may still be stored, an unreadable record (left for an operator), a request that owes.
 */
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { eraseRecord } from '../store/retention.ts';
import { claimSweep, listOpen, markerPointer, markSettled, type OpenMarker } from '../store/open-index.ts';
import {
  leaseLeftMs,
  readVersioned,
  RecordLease,
  UnreadableRecord,
  type BlobKind,
  type Leased,
  type Versioned,
} from '../store/record-lease.ts';
import { deleteExpiredRequests, deleteLegacyPointers } from '../store/retention.ts';
import { deleteExpiredGrants } from '../store/grants.ts';
import { removePointer } from '../store/key-pointer.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { deleteStaleTallies } from '../store/event-tally.ts';
import { idTime } from '../store/time-ordered-id.ts';
import { leaseMs } from '../store/limits.ts';
import type { SubmitDeps } from './config.ts';
import { errorName, logEvent } from './log.ts';
import { completeSteps, leaseTerms, owedSteps, type Step } from './owed-work.ts';
import { owes, REQUEST_STEPS } from './request-work.ts';
import { deleteDoneJobs, JOB_STEPS, jobFromId, JOBS } from './jobs.ts';
import { REQUESTS } from './record.ts';

export interface SweepLimits {
  /** Most open requests worked on in one sweep (oldest first). */
  maxRequests: number;
  /** No new request is started after this long; one in flight finishes. */
  budgetMs: number;
  /** Requests worked on at once. */
  concurrency: number;
  /** Try every owed step now, backoff or not (an operator's `redeliver`). */
  ignoreBackoff?: boolean;
}

/** Inside one function invocation: well within its 60 s even when each CRM call of the last batch times out (8 s). */
export const FUNCTION_SWEEP_LIMITS: SweepLimits = { maxRequests: 100, budgetMs: 20_000, concurrency: 4 };

type Outcome =
  'delivered' | 'failed' | 'pending' | 'completed' | 'waiting' | 'busy' | 'settled' | 'gone' | 'unreadable' | 'error';

/** What the sweep did: `requests` lists the work it looked at; `deferred` was left for the next one. */
export async function runSweep(deps: SubmitDeps, limits: SweepLimits = FUNCTION_SWEEP_LIMITS) {
  const started = performance.now();
  const deadline = started + limits.budgetMs;
  const open = await listOpen(deps.store);
  // Jobs are few (an hour's digest, a day's alert): always in the batch.
  const queue = [...open.filter((m) => m.job), ...open.filter((m) => !m.job)].slice(0, limits.maxRequests);
  const requests: Array<{ request_id: string; outcome: Outcome }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limits.concurrency, queue.length) }, async () => {
      while (next < queue.length && performance.now() < deadline) {
        const marker = queue[next++]!;
        let outcome: Outcome;
        try {
          outcome = await sweepOne(deps, marker, limits.ignoreBackoff === true);
        } catch (error) {
          // Expected: the store failed; it is tried again next time. Anything else surfaces.
          if (!(error instanceof StoreUnavailable)) throw error;
          logEvent('sweep_request_error', { request_id: marker.id, operation: error.operation, reason: error.reason });
          outcome = 'error';
        }
        requests.push({ request_id: marker.id, outcome });
      }
    }),
  );
  const { now, redelivery, store } = deps;
  const entriesDeleted = await deleteLegacyPointers(store, now());
  const countersDeleted = await deleteStaleTallies(store, now(), Math.max(0, deadline - performance.now()));
  const jobsDeleted = await deleteDoneJobs(deps);
  const grantsDeleted = await deleteExpiredGrants(store, now());
  const retentionMs = redelivery.retentionMs;
  const requestsDeleted =
    retentionMs === undefined ? 0 : await deleteExpiredRequests(store, now(), retentionMs, (id) => erasable(deps, id));
  const ms = performance.now() - started;
  const deferred = open.length - requests.length;
  const count = (outcome: Outcome) => requests.filter((r) => r.outcome === outcome).length;
  logEvent('sweep_done', {
    open: open.length,
    worked: requests.length,
    delivered: count('delivered'),
    failed: count('failed'),
    unreadable: count('unreadable'),
    deferred,
    entries_deleted: entriesDeleted,
    counters_deleted: countersDeleted,
    jobs_deleted: jobsDeleted,
    grants_deleted: grantsDeleted,
    requests_deleted: requestsDeleted,
    ms: Math.round(ms),
  });
  return { open: open.length, requests, deferred, entriesDeleted, requestsDeleted, ms };
}

/** Retention's view of a request: undefined (kept) while it owes an effect or cannot be read. */
async function erasable(deps: SubmitDeps, requestId: string) {
  try {
    const found = await readVersioned(deps.store, REQUESTS, requestId);
    if (found !== null && owes(found.record)) {
      logEvent('retention_kept_owed_request', { request_id: requestId });
      return undefined;
    }
    return found?.record ?? null;
  } catch (error) {
    if (!(error instanceof UnreadableRecord)) throw error;
    logEvent('record_unreadable', { request_id: requestId, key: error.key });
    return undefined;
  }
}

/** One piece of open work: skip it while nothing is due or another owner holds it, else complete it. */
async function sweepOne(deps: SubmitDeps, marker: OpenMarker, ignoreBackoff: boolean): Promise<Outcome> {
  if (marker.job) return sweepJob(deps, marker, ignoreBackoff);
  let found;
  try {
    found = await readVersioned(deps.store, REQUESTS, marker.id);
  } catch (error) {
    if (!(error instanceof UnreadableRecord)) throw error;
    // Never taken for absent: the marker stays, and an operator looks at the record.
    logEvent('record_unreadable', { request_id: marker.id, key: error.key });
    return 'unreadable';
  }
  if (found === null) return sweepMissing(deps, marker);
  const before = found.record.delivery.state;
  const result = await work(deps, marker, found, REQUEST_STEPS, REQUESTS, ignoreBackoff);
  if (typeof result === 'string') return result;
  // Held for the person's confirmation past the key's 24 hours: erased, with its pointer and marker.
  if (result.hold?.expired === true) {
    await eraseRecord(deps.store, result);
    return 'completed';
  }
  const after = result.delivery.state;
  if (after === 'pending') return 'pending';
  if (before === 'pending') return after === 'received' ? 'delivered' : 'failed';
  return 'completed';
}

/**
 * A marker with no record: its sender may store it yet, for as long as its key's pointer can name it
 * (the pointer is created with the id, so for KEY_RETENTION_MS from the id's time) and a lease more.
 * Only then is it settled, with the pointer if it still names the request.
 */
async function sweepMissing(deps: SubmitDeps, marker: OpenMarker): Promise<Outcome> {
  const at = idTime(marker.id);
  const lease = leaseMs(deps.store.timeFactor, leaseTerms(deps).effectMs);
  if (at !== undefined && deps.now().getTime() - at < KEY_RETENTION_MS + lease) return 'busy';
  const pointer = await markerPointer(deps.store, marker);
  if (pointer !== undefined) await removePointer(deps.store, pointer, marker.id);
  await markSettled(deps.store, marker);
  return 'gone';
}

async function sweepJob(deps: SubmitDeps, marker: OpenMarker, ignoreBackoff: boolean): Promise<Outcome> {
  let found = await readVersioned(deps.store, JOBS, marker.id);
  if (found === null) {
    // Its marker landed and its record did not: the marker names it, so it is made again.
    const job = jobFromId(marker.id, deps);
    if (job === undefined) return 'unreadable';
    await deps.store.writeIf(JOBS.key(marker.id), job, { ifNew: true });
    found = await readVersioned(deps.store, JOBS, marker.id);
    if (found === null) return 'busy';
  }
  const result = await work(deps, marker, found, JOB_STEPS, JOBS, ignoreBackoff);
  return typeof result === 'string' ? result : 'completed';
}

/** Takes the lease of owed, due work and completes it; settles its marker once nothing is owed. */
async function work<R extends Leased>(
  deps: SubmitDeps,
  marker: OpenMarker,
  found: Versioned<R>,
  steps: readonly Step<R>[],
  kind: BlobKind<R>,
  ignoreBackoff: boolean,
): Promise<R | Outcome> {
  const owed = owedSteps(steps, found.record, deps.now());
  if (!owed.owes) {
    await markSettled(deps.store, marker);
    return 'settled';
  }
  if (!ignoreBackoff && !owed.due) return 'waiting';
  if (leaseLeftMs(found.record, deps.now()) > 0) return 'busy';
  const lease = await RecordLease.take(leaseTerms(deps), kind.key(marker.id), found.record, {
    ifVersion: found.version,
  });
  if (lease === null) return 'busy';
  const result = await completeSteps(steps, lease, deps, { ignoreBackoff, id: marker.id });
  if (result.stopped instanceof StoreUnavailable) throw result.stopped;
  if (result.stopped) return 'busy';
  if (!owedSteps(steps, result.record, deps.now()).owes) await markSettled(deps.store, marker);
  return result.record;
}

/** The function's call after its reply: sweeps when due. Null when another instance swept recently or the store failed. */
export async function sweepIfDue(deps: SubmitDeps) {
  try {
    if (!(await claimSweep(deps.store, deps.now(), deps.redelivery.intervalMs))) return null;
    return await runSweep(deps);
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    logEvent('sweep_error', { name: errorName(error), operation: error.operation, reason: error.reason });
    return null;
  }
}
