/**
 * The owed-work engine. Each effect a piece of work owes (a request's CRM record, confirmation email,
 * sales notice and alert; a job's one message) is a step: when it is owed and due, what it prepares
 * (counting, rendering), its effect, bounded in time, and what it records. One loop runs the steps
 * of a leased record in order, checks the lease right before each effect (after the preparation) and
 * stores what the effect did before the next step. Each step retries with its own backoff and gives up
 * by age (REDELIVERY_MAX_HOURS), never by a count; giving up owes sales an alert. The sender, its
 * retries and the sweep all run this loop, so an effect is started by one owner at a time and is
 * repeated only when the write recording it stayed unknown (docs/operating.md).
 */
import type { SubmitDeps } from './config.ts';
import { LeaseLostError, type LeaseTerms, type Leased, type RecordLease } from '../store/record-lease.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { logEvent } from './log.ts';
import { isDue, type Due } from './attempts.ts';
import { MAIL_EFFECT_MS } from './mailer.ts';
import { CHAT_EFFECT_MS } from './notification.ts';

/**
 * What a step does now: settle without an effect (`followUp`: work of another record it started, done after
 * this one's lease is given up), or an effect bounded by `boundMs` that says what to record.
 */
export type Plan<R> =
  { settle: R; followUp?: () => Promise<void> } | { boundMs: number; effect: () => Promise<(current: R) => R> };

export interface Step<R> {
  name: string;
  /** Its attempts when owed, undefined when not. */
  owed(record: R): Due | undefined;
  /** Counting and rendering, before the lease check: what to do now. */
  prepare(record: R, deps: SubmitDeps): Promise<Plan<R>>;
}

/** The lease terms of this deployment: the longest effect an owner starts is the CRM's, the SMTP's or the chat's. */
export function leaseTerms(deps: SubmitDeps): LeaseTerms {
  return {
    store: deps.store,
    effectMs: Math.max(deps.crmTimeoutMs, MAIL_EFFECT_MS, CHAT_EFFECT_MS),
    now: deps.now,
    ...(deps.monotonic !== undefined && { monotonic: deps.monotonic }),
  };
}

/** Any step owed, and any due. */
export function owedSteps<R>(steps: readonly Step<R>[], record: R, now: Date) {
  const owed = steps.flatMap((step) => {
    const status = step.owed(record);
    return status === undefined ? [] : [status];
  });
  return { owes: owed.length > 0, due: owed.some((status) => isDue(status, now)) };
}

/** Runs the owed and due steps in order; StoreUnavailable or LeaseLostError stop it where the store last confirmed. */
export async function runSteps<R extends Leased>(
  steps: readonly Step<R>[],
  lease: RecordLease<R>,
  deps: SubmitDeps,
  { ignoreBackoff, checkpoint }: Pick<RunOptions<R>, 'ignoreBackoff' | 'checkpoint'>,
): Promise<Array<() => Promise<void>>> {
  const followUps: Array<() => Promise<void>> = [];
  for (const [index, step] of steps.entries()) {
    if (index === checkpoint?.after) checkpoint.reached(lease.record);
    const status = step.owed(lease.record);
    if (status === undefined || !isDue(status, deps.now(), ignoreBackoff)) continue;
    const plan = await step.prepare(lease.record, deps);
    if ('settle' in plan) {
      await lease.save(plan.settle);
      if (plan.followUp) followUps.push(plan.followUp);
      continue;
    }
    // Immediately before the effect: preparing may have used up the lease.
    await lease.beforeEffect(plan.boundMs);
    const recorded = await plan.effect();
    await lease.save(recorded(lease.record));
  }
  return followUps;
}

/**
 * Runs `steps` under `lease` and gives the lease up. `stopped`: the store failed or the lease was lost
 * on the way; the record is what the store last confirmed, and the next owner continues from there.
 */
export interface RunOptions<R> {
  /** Try every owed step now, backoff or not (an operator's redeliver). */
  ignoreBackoff: boolean;
  /** For the log. */
  id: string;
  /** Called with the record as confirmed once the first `after` steps are done (what a reply reports). */
  checkpoint?: { after: number; reached: (record: R) => void };
}

export async function completeSteps<R extends Leased>(
  steps: readonly Step<R>[],
  lease: RecordLease<R>,
  deps: SubmitDeps,
  { ignoreBackoff, id, checkpoint }: RunOptions<R>,
): Promise<{ record: R; stopped?: StoreUnavailable | LeaseLostError }> {
  try {
    const followUps = await runSteps(steps, lease, deps, { ignoreBackoff, ...(checkpoint && { checkpoint }) });
    await lease.release(lease.record);
    // Another record's work: a store failure leaves it to the sweep, and this record is done all the same.
    for (const work of followUps) await work().catch(leftToSweep);
    return { record: lease.record };
  } catch (error) {
    if (error instanceof LeaseLostError) {
      logEvent('lease_lost', { request_id: id });
      return { record: lease.record, stopped: error };
    }
    if (error instanceof StoreUnavailable) {
      logEvent('store_unavailable', { request_id: id, operation: error.operation, reason: error.reason });
      return { record: lease.record, stopped: error };
    }
    // A programming error: the lease is given up so nobody waits for it, and the error surfaces.
    await lease.release(lease.record).catch(() => undefined);
    throw error;
  }
}

function leftToSweep(error: unknown): void {
  if (!(error instanceof StoreUnavailable || error instanceof LeaseLostError)) throw error;
  logEvent('follow_up_left_to_sweep', { name: error.name });
}
