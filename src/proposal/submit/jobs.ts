/**
 * Work owed by nobody's request: the hour's digest of notices past NOTIFY_LIMIT_PER_HOUR, and the day's
 * alert that the site-wide confirmation limit was reached. Each is a record of its own, `jobs/<period>-<kind>`,
 * created once (create-if-new, by whichever request meets the limit first, or by the sweep from its open
 * marker) and completed by the owed-work engine like a request: leased, retried with backoff, given up by
 * age. With no timer on a static site, the sweep any later invocation starts sends a digest once its hour is over.
 */
import { isObject } from '../store/blobs.ts';
import { tallyOf } from '../store/event-tally.ts';
import { markOpen, markSettled, openMarker } from '../store/open-index.ts';
import { leaseLeftMs, readVersioned, RecordLease, type BlobKind, type Lease } from '../store/record-lease.ts';
import type { SubmitDeps } from './config.ts';
import { logEvent } from './log.ts';
import type { CrmName } from '../../contract/submit-replies.ts';
import type { ConsentLinks } from './consent-links.ts';
import { nextAttempt } from './attempts.ts';
import type { CrmOutcome } from './crm.ts';
import {
  afterAttempt,
  dailyLimitAlert,
  erasureNotice,
  hourlyDigest,
  initialNotification,
  isOwed,
  sendOnOwedChannels,
} from './notification.ts';
import { MAIL_EFFECT_MS } from './mailer.ts';
import { CHAT_EFFECT_MS } from './notification.ts';
import { completeSteps, leaseTerms, owedSteps, type Step } from './owed-work.ts';
import type { CrmEvent, NotificationStatus } from './record.ts';
import { hourEnd, hourTally } from './send-gates.ts';

export type JobKind = 'digest' | 'day-limit-alert' | 'erasure';

/** An erasure's own part: the CRM it went to and its deletion event, and the "Not me" link's hash (a reuse hears "used"). */
export interface ErasureWork {
  crm: CrmName;
  links: ConsentLinks;
  /** `by_hand`: the CRM takes no deletion event (HubSpot: sales delete the contact's submission). */
  deletion: Omit<CrmEvent, 'state'> & { state: CrmEvent['state'] | 'by_hand' };
}

export interface JobRecord {
  kind: JobKind;
  /** The clock hour (`2026-11-28T05`) of a digest, the UTC day (`2026-11-28`) of an alert. */
  period: string;
  created_at: string;
  /** Not sent before (a digest: the end of its hour). */
  due_at: string;
  message: NotificationStatus;
  lease?: Lease;
  /** Only an erasure's: its period is the erased request's id. */
  erasure?: ErasureWork;
}

const JOBS_PREFIX = 'jobs/';
const jobId = (kind: JobKind, period: string) => `${period}-${kind}`;

function isJobRecord(value: unknown): value is JobRecord {
  return (
    isObject(value) &&
    (value['kind'] === 'digest' || value['kind'] === 'day-limit-alert' || value['kind'] === 'erasure') &&
    typeof value['period'] === 'string' &&
    typeof value['created_at'] === 'string' &&
    typeof value['due_at'] === 'string' &&
    isObject(value['message'])
  );
}

export const JOBS: BlobKind<JobRecord> = { key: (id) => `${JOBS_PREFIX}${id}`, is: isJobRecord };

/** The job an open marker's id names, made again (the sweep, when its record never landed). */
export function jobFromId(id: string, deps: SubmitDeps): JobRecord | undefined {
  const match = /^(\d{4}-\d\d-\d\d(?:T\d\d)?)-(digest|day-limit-alert)$/.exec(id);
  if (match === null) return undefined;
  return newJob(match[2] as JobKind, match[1]!, deps);
}

function newJob(kind: JobKind, period: string, deps: SubmitDeps): JobRecord {
  const now = deps.now().toISOString();
  const due = kind === 'digest' ? hourEnd(period).toISOString() : now;
  return { kind, period, created_at: now, due_at: due, message: initialNotification(deps) };
}

/** Owes the job once: its open marker, then its record, both create-if-new. Its id when this call created it. */
export async function oweJob(
  kind: JobKind,
  period: string,
  deps: SubmitDeps,
  erasure?: ErasureWork,
): Promise<string | undefined> {
  const id = jobId(kind, period);
  if ((await deps.store.read(JOBS.key(id))) !== null) return undefined;
  await markOpen(deps.store, openMarker(id, true));
  const job = { ...newJob(kind, period, deps), ...(erasure !== undefined && { erasure }) };
  const written = await deps.store.writeIf(JOBS.key(id), job, { ifNew: true });
  if (written === null) return undefined;
  logEvent('job_owed', { job: id });
  return id;
}

/** Completes a job now if it is due and free (its creator, right after its own work); else the sweep does. */
export async function completeJob(id: string, deps: SubmitDeps): Promise<void> {
  const found = await readVersioned(deps.store, JOBS, id);
  if (found === null || !owedSteps(JOB_STEPS, found.record, deps.now()).due) return;
  if (leaseLeftMs(found.record, deps.now()) > 0) return;
  const lease = await RecordLease.take(leaseTerms(deps), JOBS.key(id), found.record, { ifVersion: found.version });
  if (lease === null) return;
  const result = await completeSteps(JOB_STEPS, lease, deps, { ignoreBackoff: false, id });
  if (result.stopped === undefined && !owedSteps(JOB_STEPS, result.record, deps.now()).owes) {
    await markSettled(deps.store, openMarker(id, true));
  }
}

/** The erased request's id, read back from its job's id (`<request_id>-erasure`). */
export const erasureJobId = (requestId: string) => jobId('erasure', requestId);

/**
 * An erasure's deletion event to the CRM: the webhook is sent `{"event": "erased", "request_id"}` under
 * `<request_id>.erased`, once; other CRMs take none (by_hand, and the notice says so).
 */
const crmDeletionStep: Step<JobRecord> = {
  name: 'crm_deletion',
  owed: (job) => (job.erasure?.deletion.state === 'owed' ? job.erasure.deletion : undefined),
  async prepare(job, deps) {
    const erasure = job.erasure!;
    return {
      boundMs: deps.crmTimeoutMs,
      effect: async () => {
        const outcome: CrmOutcome =
          deps.crm.name === erasure.crm && deps.crm.deliverEvent
            ? await deps.crm.deliverEvent({ event: 'erased', request_id: job.period }, deps.crmTimeoutMs)
            : { ok: false, kind: 'misconfigured' };
        return (current: JobRecord) => {
          const deletion = current.erasure!.deletion;
          const attempts = (deletion.attempts ?? 0) + 1;
          const next = outcome.ok ? undefined : nextAttempt(deletion, deletion.since, deps, outcome.retryAfterSeconds);
          const state = outcome.ok ? 'sent' : next?.gaveUp ? 'failed' : 'owed';
          logEvent(outcome.ok ? 'job_attempted' : 'job_failed', { job: erasureJobId(job.period) });
          const due = next !== undefined && !next.gaveUp ? { next_attempt_at: next.next_attempt_at } : {};
          return { ...current, erasure: { ...current.erasure!, deletion: { ...deletion, state, attempts, ...due } } };
        };
      },
    };
  },
};

/** The job's one step: its message to the sales team, once due; given up by age from its creation. */
export const JOB_STEPS: readonly Step<JobRecord>[] = [
  crmDeletionStep,
  {
    name: 'job_message',
    owed: (job) => (isOwed(job.message) ? { ...job.message, not_before: job.due_at } : undefined),
    async prepare(job, deps) {
      const { partner, limits, store } = deps;
      const erased = job.erasure;
      const message =
        erased !== undefined
          ? erasureNotice(job.period, erased.crm, erased.deletion.state === 'by_hand', partner)
          : job.kind === 'digest'
            ? hourlyDigest(
                job.period,
                await digestCounts(store, job.period, limits.noticesPerHour, deps.now()),
                limits.noticesPerHour,
                partner,
              )
            : dailyLimitAlert(job.period, limits.perDay, partner);
      return {
        boundMs: Math.max(MAIL_EFFECT_MS, CHAT_EFFECT_MS),
        effect: async () => {
          const results = await sendOnOwedChannels(job.message, message, deps, jobId(job.kind, job.period));
          return (current: JobRecord) => {
            const { status, gaveUp } = afterAttempt(current.message, results, current.created_at, deps);
            logEvent(gaveUp ? 'job_failed' : 'job_attempted', { job: jobId(job.kind, job.period) });
            return { ...current, message: status };
          };
        },
      };
    },
  },
];

/** What the digest of `hour` reports: requests past the limit, and how many of them look suspect. */
async function digestCounts(store: SubmitDeps['store'], hour: string, limit: number, now: Date) {
  const { count, flaggedAfter } = await tallyOf(store, hourTally(hour), { skip: limit, now, endsAt: hourEnd(hour) });
  return { total: count, more: Math.max(0, count - limit), suspect: flaggedAfter };
}

/** Done jobs whose period ended two days ago leave the store, from the head of the listing. */
export async function deleteDoneJobs(deps: SubmitDeps): Promise<number> {
  const oldest = `${JOBS_PREFIX}${new Date(deps.now().getTime() - 2 * 86_400_000).toISOString().slice(0, 13)}`;
  const keys = (await deps.store.listWhile(JOBS_PREFIX, (key) => key < oldest)).slice(0, 100);
  let deleted = 0;
  for (const key of keys) {
    const value = (await deps.store.read(key))?.value;
    if (isJobRecord(value) && (isOwed(value.message) || value.erasure?.deletion.state === 'owed')) continue;
    await deps.store.remove(key);
    deleted++;
  }
  return deleted;
}
